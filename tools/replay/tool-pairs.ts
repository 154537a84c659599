/**
 * Tool calls and tool results inside a request body or a reply, for the three wire formats
 * (pure). Strategies, the removed-result diff and the re-fetch count all go through here, so
 * one place knows where each API keeps its pairs:
 * - Anthropic Messages: `tool_use` blocks in assistant messages, `tool_result` blocks (by
 *   `tool_use_id`) in user messages (docs.anthropic.com/en/docs/build-with-claude/tool-use).
 * - OpenAI Chat: assistant `tool_calls[]` ({type:"function", function:{name, arguments}} or
 *   {type:"custom", custom:{name, input}}), answered by `role:"tool"` messages (`tool_call_id`).
 * - OpenAI Responses: `function_call` / `custom_tool_call` / `local_shell_call` items (`call_id`),
 *   answered by `*_output` items with the same `call_id`.
 */
import { canonicalArguments, canonicalJson } from "./canonical-json";
import type { Json, JsonObject, Provider } from "./types";

/** One tool call: its id, tool name, kind (function or freeform custom) and canonical input. */
export interface ToolCallRef {
  id: string;
  name: string;
  kind: "function" | "custom";
  /** Canonical input text (keys sorted) — "same input" means equal strings. */
  input: string;
}

/** One tool result: the call id it answers and its text (for line counts and diffs). */
export interface ToolResultRef {
  id: string;
  /**
   * Stable identity inside a history: the id, with "#n" appended for its n-th repeat (some
   * recorders reuse ids — tau-bench trajectories do). Histories only grow, so keys stay stable
   * from call to call.
   */
  key: string;
  /** 0-based position among the body's tool results. */
  position: number;
  /** Text content (text parts joined with "\n"; non-text parts ignored). */
  text: string;
  /** Canonical JSON of the whole content (string or parts), for change detection. */
  content_key: string;
}

const isObj = (v: Json | undefined): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: Json | undefined): string => (typeof v === "string" ? v : "");

/** The history array of a body: `messages` (Anthropic, Chat) or `input` (Responses; a string input has none). */
export function historyOf(provider: Provider, body: JsonObject): Json[] {
  const h = provider === "openai-responses" ? body.input : body.messages;
  return Array.isArray(h) ? h : [];
}

/** Text of a content value: a string, or the `text` of its parts. */
export function contentText(content: Json | undefined): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter(isObj)
    .map((p) => str(p.text))
    .filter((t) => t !== "")
    .join("\n");
}

/** Tool calls in history items, in order. */
export function toolCallsIn(provider: Provider, items: readonly Json[]): ToolCallRef[] {
  const out: ToolCallRef[] = [];
  for (const item of items) {
    if (!isObj(item)) continue;
    switch (provider) {
      case "anthropic":
        if (item.role === "assistant" && Array.isArray(item.content)) {
          for (const b of item.content) {
            if (isObj(b) && b.type === "tool_use") out.push({ id: str(b.id), name: str(b.name), kind: "function", input: canonicalJson(b.input ?? null) });
          }
        }
        break;
      case "openai-chat":
        if (item.role === "assistant" && Array.isArray(item.tool_calls)) {
          for (const c of item.tool_calls) {
            if (!isObj(c)) continue;
            if (c.type === "custom" && isObj(c.custom)) out.push({ id: str(c.id), name: str(c.custom.name), kind: "custom", input: str(c.custom.input) });
            else if (isObj(c.function)) out.push({ id: str(c.id), name: str(c.function.name), kind: "function", input: canonicalArguments(str(c.function.arguments)) });
          }
        }
        break;
      case "openai-responses":
        if (item.type === "function_call") out.push({ id: str(item.call_id), name: str(item.name), kind: "function", input: canonicalArguments(str(item.arguments)) });
        else if (item.type === "custom_tool_call") out.push({ id: str(item.call_id), name: str(item.name), kind: "custom", input: str(item.input) });
        else if (item.type === "local_shell_call") out.push({ id: str(item.call_id), name: "local_shell", kind: "function", input: canonicalJson(item.action ?? null) });
        break;
      default: {
        const never: never = provider;
        throw new Error(`unknown provider ${String(never)}`);
      }
    }
  }
  return out;
}

/** Tool calls of a recorded reply (assistant message, or Responses output items). */
export function replyToolCalls(provider: Provider, reply: Json): ToolCallRef[] {
  return toolCallsIn(provider, Array.isArray(reply) ? reply : [reply]);
}

/** The agent's prose in a recorded reply: the text of its assistant messages (tool calls, thinking and reasoning left out), joined with "\n". */
export function replyProse(reply: Json): string {
  const items = Array.isArray(reply) ? reply : [reply];
  return items
    .filter((item): item is JsonObject => isObj(item) && item.role === "assistant")
    .map((item) => contentText(item.content))
    .filter((t) => t !== "")
    .join("\n");
}

/** Tool results in history items, in order. */
export function toolResultsIn(provider: Provider, items: readonly Json[]): ToolResultRef[] {
  const out: ToolResultRef[] = [];
  const keyOf = occurrenceKeys();
  const push = (id: string, content: Json | undefined) =>
    out.push({ id, key: keyOf(id), position: out.length, text: contentText(content), content_key: canonicalJson(content ?? null) });
  for (const item of items) {
    if (!isObj(item)) continue;
    switch (provider) {
      case "anthropic":
        if (item.role === "user" && Array.isArray(item.content)) {
          for (const b of item.content) if (isObj(b) && b.type === "tool_result") push(str(b.tool_use_id), b.content);
        }
        break;
      case "openai-chat":
        if (item.role === "tool") push(str(item.tool_call_id), item.content);
        break;
      case "openai-responses":
        if (typeof item.type === "string" && item.type.endsWith("_call_output")) push(str(item.call_id), item.output);
        break;
      default: {
        const never: never = provider;
        throw new Error(`unknown provider ${String(never)}`);
      }
    }
  }
  return out;
}

/**
 * A new body where each tool result for which `replace` returns a string has that string as
 * its whole content (Anthropic `content`, Chat `content`, Responses `output`); every other
 * field (is_error, cache_control, ids) is kept. Inputs are not mutated; untouched messages are
 * shared with the input body.
 */
export function replaceToolResults(provider: Provider, body: JsonObject, replace: (ref: ToolResultRef) => string | null): JsonObject {
  const key = provider === "openai-responses" ? "input" : "messages";
  const items = historyOf(provider, body);
  const keyOf = occurrenceKeys();
  let position = 0;
  const ref = (id: string, content: Json | undefined): ToolResultRef => ({ id, key: keyOf(id), position: position++, text: contentText(content), content_key: canonicalJson(content ?? null) });
  let changed = false;
  const next = items.map((item): Json => {
    if (!isObj(item)) return item;
    switch (provider) {
      case "anthropic": {
        if (item.role !== "user" || !Array.isArray(item.content)) return item;
        let touched = false;
        const content = item.content.map((b): Json => {
          if (!isObj(b) || b.type !== "tool_result") return b;
          const r = replace(ref(str(b.tool_use_id), b.content));
          if (r === null || b.content === r) return b;
          touched = true;
          return { ...b, content: r };
        });
        if (!touched) return item;
        changed = true;
        return { ...item, content };
      }
      case "openai-chat": {
        if (item.role !== "tool") return item;
        const r = replace(ref(str(item.tool_call_id), item.content));
        if (r === null || item.content === r) return item;
        changed = true;
        return { ...item, content: r };
      }
      case "openai-responses": {
        if (typeof item.type !== "string" || !item.type.endsWith("_call_output")) return item;
        const r = replace(ref(str(item.call_id), item.output));
        if (r === null || item.output === r) return item;
        changed = true;
        return { ...item, output: r };
      }
      default: {
        const never: never = provider;
        throw new Error(`unknown provider ${String(never)}`);
      }
    }
  });
  return changed ? { ...body, [key]: next } : body;
}

/** Numbers repeated ids: first "x", then "x#2", "x#3"… (the same numbering as ToolResultRef.key). */
export function occurrenceKeys(): (id: string) => string {
  const seen = new Map<string, number>();
  return (id) => {
    const n = (seen.get(id) ?? 0) + 1;
    seen.set(id, n);
    return n === 1 ? id : `${id}#${n}`;
  };
}

/** The call id inside a result key ("x#2" → "x") and which repeat it is (1-based). */
export function parseResultKey(key: string): { id: string; occurrence: number } {
  const m = /^(.*)#(\d+)$/.exec(key);
  return m === null ? { id: key, occurrence: 1 } : { id: m[1]!, occurrence: Number(m[2]) };
}
