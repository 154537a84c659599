/**
 * Rule: a failed call later retried successfully — a later call with the same intent (same
 * command, same patched files, same edited/read path; see read-tool-call.ts) whose result does
 * not report a failure. The failed attempt goes whole: drop_pair, confidence 0.85.
 */
import type { ToolPair } from "../view/types";
import type { ToolCallInfo } from "./read-tool-call";
import type { Verdicts } from "./verdict";

/** Confidence of a failed attempt later retried successfully. */
export const FAILED_RETRIED_CONFIDENCE = 0.85;

/** Verdicts for failed-then-retried calls. Parallel arrays in call order. */
export function ruleFailedRetried(pairs: ToolPair[], infos: ToolCallInfo[], failed: boolean[]): Verdicts {
  const out: Verdicts = {};
  const succeededLater = new Set<string>();
  for (let i = pairs.length - 1; i >= 0; i--) {
    const key = `${pairs[i]!.tool_name}\u0000${infos[i]!.intent}`;
    if (failed[i]) {
      if (succeededLater.has(key)) out[pairs[i]!.id] = { kind: "drop_pair", confidence: FAILED_RETRIED_CONFIDENCE, rule: "failed_then_retried" };
    } else {
      succeededLater.add(key);
    }
  }
  return out;
}
