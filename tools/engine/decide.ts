/**
 * The reference engine's verdict function (pure): a minimal, documented rule set over the
 * protocol's candidate fields only. It is a placeholder for the core heuristic
 * (src/core/engine), which replaces it at merge; a team plugging in its own model replaces it
 * with a model call. It only sees candidates, so a retry that is not itself a candidate (e.g.
 * inside the preserved recent turns) is invisible to it.
 *
 * Rules (candidates arrive oldest first):
 * 1. Duplicate output: candidates with the same tool_name, input_excerpt, result_head and
 *    result_bytes → every one but the newest gets drop_pair, confidence DUPLICATE_CONFIDENCE.
 * 2. Failed then retried: an is_error candidate followed later by a candidate of the same
 *    tool_name → drop_pair, confidence RETRIED_CONFIDENCE.
 * 3. Otherwise keep, confidence 1.
 * When rules 1 and 2 both hit, the higher confidence is kept.
 */
import type { EngineCandidate, EngineVerdict } from "../../src/engines/protocol";

/** A verdict function: one verdict per candidate, same order. */
export type DecideFn = (candidates: readonly EngineCandidate[]) => EngineVerdict[];

/** Reference value, not calibrated: identical heads and sizes are strong but not certain evidence (a head is a prefix). */
export const DUPLICATE_CONFIDENCE = 0.9;
/** Reference value, not calibrated: a retry usually supersedes the failure, but may call with other input. */
export const RETRIED_CONFIDENCE = 0.8;

export const decide: DecideFn = (candidates) => {
  const confidence = new Array<number>(candidates.length).fill(0);
  const newestOfKey = new Map<string, number>();
  candidates.forEach((c, i) => newestOfKey.set(duplicateKey(c), i));
  const lastOfTool = new Map<string, number>();
  candidates.forEach((c, i) => lastOfTool.set(c.tool_name, i));

  candidates.forEach((c, i) => {
    if (newestOfKey.get(duplicateKey(c))! > i) confidence[i] = Math.max(confidence[i]!, DUPLICATE_CONFIDENCE);
    if (c.is_error && lastOfTool.get(c.tool_name)! > i) confidence[i] = Math.max(confidence[i]!, RETRIED_CONFIDENCE);
  });
  return candidates.map((c, i) =>
    confidence[i]! > 0 ? { id: c.id, verdict: "drop_pair", confidence: confidence[i]! } : { id: c.id, verdict: "keep", confidence: 1 });
};

function duplicateKey(c: EngineCandidate): string {
  return JSON.stringify([c.tool_name, c.input_excerpt, c.result_head, c.result_bytes]);
}
