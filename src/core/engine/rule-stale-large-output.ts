/**
 * Rule: a large result of a read-only, re-runnable tool (a read, a listing, a search, a
 * read-only shell command) past an age: the model can run it again if it still needs it. Only
 * the result goes (the call stays, so the model sees what it ran): drop_result, confidence 0.65.
 *
 * Calibration: "large" = at least 2 × min_result_bytes (4,096 bytes with the defaults: the
 * long file views and listings of the corpus, not the short status outputs); "past an age" =
 * at least 12 turns old (three times the default preserve_recent_turns of 4).
 */
import type { PairFacts } from "../facts/step-facts";
import type { CallFacts } from "../facts/step-facts";
import type { Verdicts } from "./verdict";

/** Confidence of a stale large read-only output. */
export const STALE_LARGE_CONFIDENCE = 0.65;
/** Minimum age, in turns (turn_count − the pair's turn index). */
export const STALE_AFTER_TURNS = 12;
/** "Large" = at least this multiple of min_result_bytes. */
export const STALE_SIZE_FACTOR = 2;

/** Verdicts for stale large outputs. Parallel arrays; `turn_count` of the view. */
export function ruleStaleLargeOutput(pairs: PairFacts[], infos: CallFacts[], turn_count: number, min_result_bytes: number): Verdicts {
  const out: Verdicts = {};
  for (let i = 0; i < pairs.length; i++) {
    const p = pairs[i]!;
    if (!infos[i]!.readonly) continue;
    if (p.result_bytes < STALE_SIZE_FACTOR * min_result_bytes) continue;
    if (turn_count - p.turn_index < STALE_AFTER_TURNS) continue;
    out[p.id] = { kind: "drop_result", confidence: STALE_LARGE_CONFIDENCE, rule: "stale_large_output" };
  }
  return out;
}
