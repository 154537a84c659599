/**
 * Rule: a failed call later retried successfully — a later call with the same intent (same
 * command, same patched files, same edited/read path; see read-tool-call.ts) whose result does
 * not report a failure. The failed attempt goes whole: drop_pair, confidence 0.85.
 */
import type { PairFacts } from "../facts/step-facts";
import type { CallFacts } from "../facts/step-facts";
import type { Verdict, Verdicts } from "./verdict";

/** Confidence of a failed attempt later retried successfully. */
export const FAILED_RETRIED_CONFIDENCE = 0.85;

const DROP_PAIR: Verdict = Object.freeze({ kind: "drop_pair", confidence: FAILED_RETRIED_CONFIDENCE, rule: "failed_then_retried" });

/** Verdicts for failed-then-retried calls. Parallel arrays in call order. */
export function ruleFailedRetried(pairs: PairFacts[], infos: CallFacts[], failed: boolean[]): Verdicts {
  const out: Verdicts = {};
  // Intents that succeeded later, per tool (nested: no key string per pair).
  const succeededLater = new Map<string, Set<string>>();
  for (let i = pairs.length - 1; i >= 0; i--) {
    const tool = pairs[i]!.tool_name;
    if (failed[i]) {
      if (succeededLater.get(tool)?.has(infos[i]!.intent)) out[pairs[i]!.id] = DROP_PAIR;
    } else {
      let intents = succeededLater.get(tool);
      if (intents === undefined) succeededLater.set(tool, (intents = new Set()));
      intents.add(infos[i]!.intent);
    }
  }
  return out;
}
