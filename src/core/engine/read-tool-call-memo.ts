/**
 * `readToolCall` remembered per pair (pure in effect: a transparent cache of a pure function).
 * The gateway classifies every pair of the history on every request for the step facts
 * (src/core/facts/step-facts.ts), and classifying a call parses its input JSON, for pairs that
 * did not change since the session's last call. An entry is used only when the pair's tool name
 * and input text equal those it was stored with, so a reused or colliding pair id can never get
 * a wrong answer. Its owner is the host (src/core/caches.ts).
 */
import type { ToolPair } from "../view/types";
import { BoundedLru } from "../bounded-lru";
import { TOOL_CALL_MEMO_BUDGET_BYTES } from "../isolate-memory-budget";
import { readToolCall, type ToolCallInfo } from "./read-tool-call";

/** Most entries (least recently used dropped first: ../bounded-lru.ts). */
export const TOOL_CALL_MEMO_SIZE = 8_192;

type Entry = { tool_name: string; input_text: string; info: ToolCallInfo };

/** Bytes an entry is counted as: its texts (2 bytes per UTF-16 unit) and a flat 64 for the rest. Inputs can be large (an apply_patch or Write input is the whole change). */
export const memoEntryBytes = (e: Entry): number => 2 * (e.tool_name.length + e.input_text.length) + 64;

/** readToolCall answers by pair id, bounded by TOOL_CALL_MEMO_SIZE entries and TOOL_CALL_MEMO_BUDGET_BYTES (memoEntryBytes summed). */
export class ToolCallMemo {
  private readonly memo = new BoundedLru<string, Entry>(TOOL_CALL_MEMO_SIZE, TOOL_CALL_MEMO_BUDGET_BYTES, memoEntryBytes);

  /** `readToolCall(pair)`, from the memo when the pair's id, tool name and input text match an entry. */
  read(pair: Pick<ToolPair, "id" | "tool_name" | "input_text">): ToolCallInfo {
    const hit = this.memo.get(pair.id);
    if (hit && hit.tool_name === pair.tool_name && hit.input_text === pair.input_text) return hit.info;
    const info = readToolCall(pair);
    this.memo.set(pair.id, { tool_name: pair.tool_name, input_text: pair.input_text, info });
    return info;
  }

  /** Entries and bytes held now (memoEntryBytes summed). */
  get size(): { entries: number; bytes: number } {
    return { entries: this.memo.size, bytes: this.memo.weight };
  }
}
