/**
 * Anthropic Messages request rules that an edit could break (pure). Returns one message per
 * violation, [] when the body is acceptable. Consecutive same-role messages are merged first, as
 * the API does ("consecutive user or assistant turns will be combined"), then:
 * - the history is non-empty and starts with a user message;
 * - every tool_use in an assistant turn that is followed by another turn is answered by a
 *   tool_result with its id in the next turn, which is a user turn ("`tool_use` ids were found
 *   without `tool_result` blocks immediately after", B02); a trailing assistant turn is the client's
 *   prefill and is not judged;
 * - every tool_result answers a tool_use of the previous assistant turn ("unexpected `tool_use_id`
 *   found in `tool_result` blocks", B01), and tool_results come before other blocks of their turn;
 * - every content-bearing mid-conversation `role: "system"` message has directly before it a user
 *   message (or an assistant message ending in a server tool result), never another system
 *   message (docs/emulator.md rule A17: "a `system` message must directly follow a `user`
 *   message"; Claude Code puts its own system message right after the first user message, so a
 *   second one there would be refused), and as its nearest non-system neighbour after it an
 *   assistant message or the end of the array ("role 'system' must follow a 'user' message …",
 *   "… must precede an 'assistant' message or end the array"; ./locate-blocks.ts). Judged on the
 *   messages as sent, before any merging: a system message between two assistant messages is caught;
 * - no content array is empty (but a directive-only system message's) and no text block is empty
 *   or whitespace-only, also inside tool_result content ("text content blocks must be non-empty", B14);
 * - at most MAX_CACHE_BREAKPOINTS cache_control markers in tools, system, messages (nested too)
 *   and at top level (B05).
 * Not judged (the client's own choice, never created by an edit): duplicate tool_use ids, thinking
 * signatures, model/tool validity.
 */
import { getMember, type JsonNode } from "../shared/json-scan";
import type { CoreCaches } from "../../core/caches";
import { decodeString, isDirectiveOnlySystem, locateHistory, mayFollowSystem, mayPrecedeSystem, resultParts, type LocatedMessage } from "./locate-blocks";
import { MAX_CACHE_BREAKPOINTS } from "./wire";

/** Rule violations in an Anthropic body already scanned into `root` (located through `caches`). */
export function checkAnthropicRules(bytes: Uint8Array, root: JsonNode, caches: CoreCaches): string[] {
  const out: string[] = [];
  const memos = caches.anthropic;
  let history;
  try {
    history = locateHistory(bytes, root, memos);
  } catch (e) {
    return [`shape: ${(e as Error).message}`];
  }
  const msgs = history.messages;
  if (msgs.length === 0) return ["messages: empty"];
  if (msgs[0]!.role !== "user") out.push(`messages[0].role: must be user, got ${msgs[0]!.role}`);
  checkSystemPlacement(msgs, out);

  // Merge runs of one role into turns.
  const turns: LocatedMessage[][] = [];
  for (const m of msgs) {
    const last = turns[turns.length - 1];
    if (last && last[0]!.role === m.role) last.push(m);
    else turns.push([m]);
  }

  const usesOf = turns.map((turn) => (turn[0]!.role === "assistant" ? turnUses(bytes, turn) : new Set<string>()));
  for (let t = 0; t < turns.length; t++) {
    const turn = turns[t]!;
    const role = turn[0]!.role;
    let seenOther = false;
    for (const m of turn) {
      if (m.content.type === "array" && m.content.items.length === 0 && !isDirectiveOnlySystem(m)) out.push(`messages[${m.index}].content: empty array`);
      if (m.content.type === "string" && m.content.end - m.content.start === 2) out.push(`messages[${m.index}].content: empty string`);
      for (const b of m.blocks) {
        const field = `messages[${m.index}].content[${b.index}]`;
        if (b.type === "text") checkText(bytes, b.node, field, out);
        if (b.kind === "tool_use") seenOther = true;
        else if (b.kind === "tool_result") {
          if (role !== "user") out.push(`${field}: tool_result in a ${role} message`);
          if (seenOther) out.push(`${field}: tool_result after another block`);
          const id = decodeString(bytes, getMember(b.node, "tool_use_id")!, `${field}.tool_use_id`);
          const prev = turns[t - 1];
          if (!prev || prev[0]!.role !== "assistant" || !usesOf[t - 1]!.has(id)) out.push(`${field}: tool_result ${id} answers no tool_use of the previous assistant turn`);
          const rp = resultParts(bytes, b, field, memos);
          if (rp && rp.parts.length === 0) out.push(`${field}.content: empty array`);
          for (const p of rp?.parts ?? []) if (p.type === "text") checkText(bytes, p.node, `${field}.content[${p.index}]`, out);
        } else seenOther = true;
      }
    }
    const uses = usesOf[t]!;
    if (role === "assistant" && uses.size > 0 && t + 1 < turns.length) {
      const next = turns[t + 1]!;
      const answered = new Set<string>();
      if (next[0]!.role === "user") for (const m of next) for (const b of m.blocks) if (b.kind === "tool_result") answered.add(decodeString(bytes, getMember(b.node, "tool_use_id")!, "tool_use_id"));
      for (const id of uses) if (!answered.has(id)) out.push(`messages[${turn[0]!.index}]: tool_use ${id} has no tool_result in the next turn`);
    }
  }

  const breakpoints = countCacheControl(root);
  if (breakpoints > MAX_CACHE_BREAKPOINTS) out.push(`cache_control: ${breakpoints} breakpoints, at most ${MAX_CACHE_BREAKPOINTS} allowed`);
  return out;
}

/** The placement rule of content-bearing system messages, on the messages as sent. */
function checkSystemPlacement(msgs: LocatedMessage[], out: string[]): void {
  for (let i = 0; i < msgs.length; i++) {
    const m = msgs[i]!;
    if (m.role !== "system" || isDirectiveOnlySystem(m)) continue;
    // Directly before: a system message after another one is refused (A17), a run is not one.
    const before = i - 1;
    let after = i + 1;
    while (after < msgs.length && msgs[after]!.role === "system") after++;
    if (before < 0) out.push(`messages[${i}]: a system message cannot open the history`);
    else if (!mayPrecedeSystem(msgs[before]!)) out.push(`messages[${i}]: system message after messages[${before}] (${msgs[before]!.role}), not after a user message`);
    if (after < msgs.length && !mayFollowSystem(msgs[after]!)) out.push(`messages[${i}]: system message before messages[${after}] (${msgs[after]!.role}), not before an assistant message or the end`);
  }
}

function turnUses(bytes: Uint8Array, turn: LocatedMessage[]): Set<string> {
  const ids = new Set<string>();
  for (const m of turn) for (const b of m.blocks) if (b.kind === "tool_use") ids.add(decodeString(bytes, getMember(b.node, "id")!, "id"));
  return ids;
}

function checkText(bytes: Uint8Array, block: JsonNode, field: string, out: string[]): void {
  const t = getMember(block, "text");
  if (!t || t.type !== "string") return void out.push(`${field}.text: missing`);
  if (decodeString(bytes, t, `${field}.text`).trim() === "") out.push(`${field}.text: empty or whitespace-only`);
}

/** Non-null `cache_control` members anywhere in the body (tools, system, messages, nested, top level). */
export function countCacheControl(node: JsonNode): number {
  switch (node.type) {
    case "object": {
      let n = 0;
      for (const e of node.entries) {
        if (e.key === "cache_control" && e.value.type !== "null") n++;
        n += countCacheControl(e.value);
      }
      return n;
    }
    case "array": {
      let n = 0;
      for (const i of node.items) n += countCacheControl(i);
      return n;
    }
    case "string":
    case "number":
    case "true":
    case "false":
    case "null":
      return 0;
    default: {
      const never: never = node;
      throw new Error(`unknown node ${JSON.stringify(never)}`);
    }
  }
}
