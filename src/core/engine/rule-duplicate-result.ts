/**
 * Rule: a result identical (same content hash) to a later result of the same tool. If the two
 * calls are identical too, the earlier pair is a pure repeat: drop_pair, confidence 0.95 — except a
 * shell command or read-only call under REPEATED_CALL_MIN_BYTES (input + result), a check the
 * agent re-runs whatever its context holds (./rule-superseded-command.ts says why). If
 * only the results match (different inputs), the call is kept and only the result goes:
 * drop_result, confidence 0.7 — and only for results of at least 256 bytes, below which the
 * kept head would be about as long as the result.
 */
import type { PairFacts } from "../facts/step-facts";
import type { Verdict, Verdicts } from "./verdict";
import { isSmallCommand } from "./rule-superseded-command";

/** Confidence when call and result both repeat later. */
export const DUPLICATE_PAIR_CONFIDENCE = 0.95;
/** Confidence when only the result repeats later. */
export const DUPLICATE_RESULT_CONFIDENCE = 0.7;
/** Smallest result (bytes) worth a drop_result when only the result repeats. */
export const DUPLICATE_RESULT_MIN_BYTES = 256;

const DROP_PAIR: Verdict = Object.freeze({ kind: "drop_pair", confidence: DUPLICATE_PAIR_CONFIDENCE, rule: "duplicate_result" });
const DROP_RESULT: Verdict = Object.freeze({ kind: "drop_result", confidence: DUPLICATE_RESULT_CONFIDENCE, rule: "duplicate_result" });

/** Verdicts for results repeated later. `pairs` in call order. */
export function ruleDuplicateResult(pairs: PairFacts[]): Verdicts {
  const out: Verdicts = {};
  // Walk backwards remembering, per tool and hash (nested maps: no key string per pair), whether a later pair exists and with which inputs.
  const later = new Map<string, Map<string, Set<string>>>();
  for (let i = pairs.length - 1; i >= 0; i--) {
    const p = pairs[i]!;
    let byHash = later.get(p.tool_name);
    if (byHash === undefined) later.set(p.tool_name, (byHash = new Map()));
    const inputs = byHash.get(p.result_hash);
    if (inputs !== undefined) {
      if (inputs.has(p.input_hash)) {
        if (!isSmallCommand(p)) out[p.id] = DROP_PAIR;
      } else if (p.result_bytes >= DUPLICATE_RESULT_MIN_BYTES) out[p.id] = DROP_RESULT;
      inputs.add(p.input_hash);
    } else {
      byHash.set(p.result_hash, new Set([p.input_hash]));
    }
  }
  return out;
}
