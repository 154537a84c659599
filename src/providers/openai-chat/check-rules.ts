/**
 * OpenAI Chat pairing and adjacency rules, checked on a (possibly edited) body (pure). Written
 * apart from the apply code (it reads the body itself, without ./locate-pairs.ts) so a bug in
 * one is caught by the other. Each rule is an error the API answers with:
 * 1. a `tool` message answers an id of the nearest preceding assistant `tool_calls`, with only
 *    tool messages in between ("messages with role 'tool' must be a response to a preceeding
 *    message with 'tool_calls'", case B06);
 * 2. every `tool_calls` id is answered in that run of tool messages ("An assistant message with
 *    'tool_calls' must be followed by tool messages responding to each 'tool_call_id'");
 * 3. `tool_calls`, when present, is a non-empty array ("empty array. Expected an array with
 *    minimum length 1", openai/openai-node#1341) with unique ids;
 * 4. an assistant message without calls has non-null content (vercel/ai#14950);
 * 5. a legacy `function` message directly follows an assistant `function_call` of the same name;
 * 6. no message has an empty content array (the same minimum-length-1 validation).
 */
import { getMember, stringValue, type JsonNode } from "../shared/json-scan";

function text(bytes: Uint8Array, node: JsonNode | undefined): string | null {
  return node?.type === "string" ? stringValue(bytes, node) : null;
}

/** Rule violations in `root` (the scanned `bytes`); [] when the body keeps every rule. */
export function checkChatRules(bytes: Uint8Array, root: JsonNode): string[] {
  const v: string[] = [];
  const messages = getMember(root, "messages");
  if (!messages || messages.type !== "array") return ["messages: not an array"];
  if (messages.items.length === 0) return ["messages: empty array"];
  let pending: Set<string> | null = null;
  let pendingFrom = -1;
  const closeRun = () => {
    if (pending && pending.size > 0) v.push(`messages[${pendingFrom}].tool_calls: no tool message answers ${[...pending].join(", ")}`);
    pending = null;
  };
  messages.items.forEach((m, i) => {
    const role = text(bytes, getMember(m, "role"));
    const content = getMember(m, "content");
    if (content?.type === "array" && content.items.length === 0) v.push(`messages[${i}].content: empty array`);
    if (role === "tool") {
      const id = text(bytes, getMember(m, "tool_call_id"));
      const open = pending as Set<string> | null;
      if (id === null || !open || !open.has(id)) v.push(`messages[${i}]: tool message for ${JSON.stringify(id)} does not answer the preceding assistant tool_calls`);
      else open.delete(id);
      return;
    }
    closeRun();
    if (role === "assistant") {
      const calls = getMember(m, "tool_calls");
      const fc = getMember(m, "function_call");
      const hasFc = fc !== undefined && fc.type !== "null";
      let hasCalls = false;
      if (calls && calls.type !== "null") {
        if (calls.type !== "array" || calls.items.length === 0) v.push(`messages[${i}].tool_calls: empty or not an array`);
        else {
          hasCalls = true;
          const ids = calls.items.map((c) => text(bytes, getMember(c, "id")));
          const set = new Set<string>();
          ids.forEach((id, k) => {
            if (id === null || set.has(id)) v.push(`messages[${i}].tool_calls[${k}].id: missing or duplicate`);
            else set.add(id);
          });
          pending = set;
          pendingFrom = i;
        }
      }
      if (!hasCalls && !hasFc && (!content || content.type === "null")) v.push(`messages[${i}].content: null without tool_calls`);
    }
    if (role === "function") {
      const prev = i > 0 ? messages.items[i - 1] : undefined;
      const call = prev && text(bytes, getMember(prev, "role")) === "assistant" ? getMember(prev, "function_call") : undefined;
      if (!call || text(bytes, getMember(call, "name")) !== text(bytes, getMember(m, "name"))) v.push(`messages[${i}]: function message does not follow a function_call of the same name`);
    }
  });
  closeRun();
  return v;
}
