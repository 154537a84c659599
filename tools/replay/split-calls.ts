/**
 * Where model calls begin in a recorded history (pure).
 * - Anthropic / OpenAI Chat: every assistant message is one call (MANIFEST.md).
 * - OpenAI Responses: a call's output is a run of consecutive output items (reasoning,
 *   assistant message, function_call, custom_tool_call, local_shell_call, web_search_call); a
 *   call starts at an output item whose predecessor is not one (MANIFEST.md `call_starts`: that
 *   call's request was `input = items[:k]`). Reproduces the corpus `call_starts` exactly.
 * Also: timestamp parsing shared by the readers.
 */
import type { Json, JsonObject, Provider } from "./types";

const OUTPUT_ITEM_TYPES = new Set(["reasoning", "function_call", "custom_tool_call", "local_shell_call", "web_search_call"]);

const isObj = (v: Json | undefined): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

/** True if a Responses item is model output (not input). */
export function isOutputItem(item: Json): boolean {
  if (!isObj(item)) return false;
  if (item.type === "message" || item.type === undefined) return item.role === "assistant";
  return typeof item.type === "string" && OUTPUT_ITEM_TYPES.has(item.type);
}

/** Indexes where a model call's output begins. */
export function callStarts(provider: Provider, items: readonly Json[]): number[] {
  const starts: number[] = [];
  items.forEach((item, k) => {
    switch (provider) {
      case "anthropic":
      case "openai-chat":
        if (isObj(item) && item.role === "assistant") starts.push(k);
        break;
      case "openai-responses":
        if (isOutputItem(item) && (k === 0 || !isOutputItem(items[k - 1]!))) starts.push(k);
        break;
      default: {
        const never: never = provider;
        throw new Error(`unknown provider ${String(never)}`);
      }
    }
  });
  return starts;
}

/** The recorded reply of the call starting at `k`: the assistant message, or the run of output items. */
export function replyAt(provider: Provider, items: readonly Json[], k: number): Json {
  if (provider !== "openai-responses") return items[k]!;
  const out: Json[] = [];
  for (let i = k; i < items.length && isOutputItem(items[i]!); i++) out.push(items[i]!);
  return out;
}

/**
 * Epoch ms of a recorded timestamp, or null. ISO strings without a zone (the cc-brain-explore
 * exports record local wall-clock time, zone unknown — MANIFEST.md) are read as UTC so a
 * replay gives the same gaps on every machine.
 */
export function parseTimestamp(value: Json | undefined): number | null {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value !== "string" || value === "") return null;
  const zoned = /(?:[zZ]|[+-]\d\d:?\d\d)$/.test(value) || !value.includes("T");
  const ms = Date.parse(zoned ? value : `${value}Z`);
  return Number.isNaN(ms) ? null : ms;
}
