/**
 * `readToolCall` remembered per pair (pure in effect: a transparent cache of a pure function).
 * The session step runs the heuristic rules over every pair of the history on every request,
 * and classifying a call parses its input JSON: measured under load (tools/load/profile-workerd.ts)
 * that parse was ~40 % of the engine's time, for pairs that did not change since the last call.
 * An entry is used only when the pair's tool name and input text are the same as when it was
 * stored (the same string objects in the session DO, whose rebuilt views share the base's
 * texts: src/do/view-delta.ts), so a reused or colliding pair id can never get a wrong answer.
 */
import type { ToolPair } from "../view/types";
import { BoundedLru } from "../bounded-lru";
import { readToolCall, type ToolCallInfo } from "./read-tool-call";

/**
 * Bounds (least recently used dropped first: ../bounded-lru.ts): entries, and input text held, in UTF-16 units —
 * inputs can be large (an apply_patch or Write input is the whole change), so the text bound is
 * what keeps the memo small: 4 Mi units ≈ 8 MiB per isolate.
 */
export const TOOL_CALL_MEMO_SIZE = 8_192;
export const TOOL_CALL_MEMO_CHARS = 4 * 1024 * 1024;

const memo = new BoundedLru<string, { tool_name: string; input_text: string; info: ToolCallInfo }>(TOOL_CALL_MEMO_SIZE, TOOL_CALL_MEMO_CHARS, (e) => e.input_text.length);

/** `readToolCall(pair)`, from the memo when the pair's id, tool name and input text match an entry. */
export function readToolCallMemo(pair: Pick<ToolPair, "id" | "tool_name" | "input_text">): ToolCallInfo {
  const hit = memo.get(pair.id);
  if (hit && hit.tool_name === pair.tool_name && hit.input_text === pair.input_text) return hit.info;
  const info = readToolCall(pair);
  memo.set(pair.id, { tool_name: pair.tool_name, input_text: pair.input_text, info });
  return info;
}

/** Entries and input text held now (for tests). */
export function toolCallMemoSize(): { entries: number; chars: number } {
  return { entries: memo.size, chars: memo.weight };
}
