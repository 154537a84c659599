/**
 * The first history message an action edits (pure): the call's message when the pair goes whole
 * (`drop_pair` removes the call, which comes before its result), else the result's message. The
 * cost model orders cut candidates by it, and the cache diagnostics say from where a step (or the
 * undoing of one) changed the prefix.
 */
import type { PairActionKind } from "./types";

/** The message index from which `kind` (absent: keep) changes the pair's messages. */
export function firstEditedMessage(pair: { call: { message_index: number }; result: { message_index: number } }, kind: PairActionKind | undefined): number {
  return kind === "drop_pair" ? Math.min(pair.call.message_index, pair.result.message_index) : pair.result.message_index;
}
