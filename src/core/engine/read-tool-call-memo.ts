/**
 * `readToolCall` and `resultLooksFailed` remembered per pair (pure in effect: a transparent cache
 * of pure functions).
 * The session step runs the heuristic rules over every pair of the history on every request,
 * and classifying a call parses its input JSON: measured under load (tools/load/profile-workerd.ts)
 * that parse was ~40 % of the engine's time, for pairs that did not change since the last call.
 * An entry is used only when the pair's tool name and input text are the same as when it was
 * stored (the same string objects in the session DO, whose rebuilt views share the base's
 * texts: src/do/view-delta.ts), so a reused or colliding pair id can never get a wrong answer;
 * its `failed` answer only when the result text and is_error flag are the same too (the step
 * views' result texts are cut to SLIM_RESULT_CHARS: src/do/step-types.ts). Classifying the
 * result (a trim, prefix tests and regexes over its head) was a tenth of the engine's time per
 * leased request (tools/load/profile-hot-path.ts, Node).
 */
import type { ToolPair } from "../view/types";
import { BoundedLru } from "../bounded-lru";
import { readToolCall, resultLooksFailed, type ToolCallInfo } from "./read-tool-call";

/**
 * Bounds (least recently used dropped first: ../bounded-lru.ts): entries, and input and result text held, in UTF-16 units —
 * inputs can be large (an apply_patch or Write input is the whole change), so the text bound is
 * what keeps the memo small: 4 Mi units ≈ 8 MiB per isolate.
 */
export const TOOL_CALL_MEMO_SIZE = 8_192;
export const TOOL_CALL_MEMO_CHARS = 4 * 1024 * 1024;

interface Entry {
  tool_name: string;
  input_text: string;
  info: ToolCallInfo;
  /** resultLooksFailed for this result text and flag, once asked. */
  failed: { result_text: string; result_is_error: boolean; value: boolean } | null;
}

const memo = new BoundedLru<string, Entry>(TOOL_CALL_MEMO_SIZE, TOOL_CALL_MEMO_CHARS, (e) => e.input_text.length + (e.failed?.result_text.length ?? 0));

/** The entry of the pair's id when its tool name and input text match, else a new one (stored). */
function entryOf(pair: Pick<ToolPair, "id" | "tool_name" | "input_text">): Entry {
  const hit = memo.get(pair.id);
  if (hit && hit.tool_name === pair.tool_name && hit.input_text === pair.input_text) return hit;
  const entry: Entry = { tool_name: pair.tool_name, input_text: pair.input_text, info: readToolCall(pair), failed: null };
  memo.set(pair.id, entry);
  return entry;
}

/** `readToolCall(pair)`, from the memo when the pair's id, tool name and input text match an entry. */
export function readToolCallMemo(pair: Pick<ToolPair, "id" | "tool_name" | "input_text">): ToolCallInfo {
  return entryOf(pair).info;
}

/** `resultLooksFailed(pair)`, from the memo when the pair's id, tool name, input text, result text and is_error flag match. */
export function resultLooksFailedMemo(pair: Pick<ToolPair, "id" | "tool_name" | "input_text" | "result_text" | "result_is_error">): boolean {
  const entry = entryOf(pair);
  const f = entry.failed;
  if (f !== null && f.result_is_error === pair.result_is_error && f.result_text === pair.result_text) return f.value;
  const value = resultLooksFailed(pair);
  // Set again, so that the entry's weight counts the result text it now holds.
  memo.set(pair.id, { ...entry, failed: { result_text: pair.result_text, result_is_error: pair.result_is_error, value } });
  return value;
}

/** Entries and input text held now (for tests). */
export function toolCallMemoSize(): { entries: number; chars: number } {
  return { entries: memo.size, chars: memo.weight };
}
