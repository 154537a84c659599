/**
 * Token accounting of plan actions (pure): how many estimated tokens an action takes out of a
 * request, and the per-message token counts of a request once a plan is applied. Estimates use
 * the hot-path estimator (src/core/tokens/estimate.ts, ~4 bytes per token).
 */
import type { EditPlan, PairAction } from "../plan/types";
import { MEDIA_TOKENS, estimateTokensFromBytes } from "../tokens/estimate";
import type { PairFacts, StepFacts } from "../facts/step-facts";

import { DROP_RESULT_KEPT_TOKENS } from "../plan/drop-result-head";
import { summaryBlockBytes } from "../plan/summary-block";

/** Estimated tokens of a pair's call (its input). */
export function callTokens(pair: PairFacts): number {
  return estimateTokensFromBytes(pair.input_bytes);
}

/** Estimated tokens `action` removes from the call's message and from the result's message. */
export function actionSavings(pair: PairFacts, action: PairAction): { call: number; result: number } {
  switch (action.kind) {
    case "keep":
      return { call: 0, result: 0 };
    case "drop_pair":
      return { call: callTokens(pair), result: pair.result_est_tokens };
    case "drop_result":
      return { call: 0, result: Math.max(0, pair.result_est_tokens - DROP_RESULT_KEPT_TOKENS) };
    case "truncate_result":
      return { call: 0, result: Math.max(0, pair.result_est_tokens - estimateTokensFromBytes(action.head_bytes + (action.tail_bytes ?? 0))) };
    case "strip_media":
      return { call: 0, result: Math.min(pair.result_est_tokens, pair.result_media_count * MEDIA_TOKENS) };
    case "summarize":
      // The host's result text goes and the block comes: its header and text as written; before
      // the text exists (the deciding step) the header only: the stretch's candidate subtracts
      // the text's expected tokens (./stretch-candidates.ts).
      return { call: 0, result: Math.max(0, pair.result_est_tokens - estimateTokensFromBytes(summaryBlockBytes(action.covers.length, action.text ?? "").length)) };
    default: {
      const never: never = action;
      return never;
    }
  }
}

/** Total estimated tokens `action` removes. */
export function savedTokens(pair: PairFacts, action: PairAction): number {
  const s = actionSavings(pair, action);
  return s.call + s.result;
}

/** Estimated tokens of each message of `view` after `plan`. */
export function messageTokensAfter(view: StepFacts, plan: EditPlan): number[] {
  const tokens = view.messages.map((m) => m.est_tokens);
  for (const pair of view.pairs) {
    const action = plan.actions[pair.id];
    if (action === undefined) continue;
    const s = actionSavings(pair, action);
    const ci = pair.call.message_index;
    const ri = pair.result.message_index;
    if (tokens[ci] !== undefined) tokens[ci] = Math.max(0, tokens[ci]! - s.call);
    if (tokens[ri] !== undefined) tokens[ri] = Math.max(0, tokens[ri]! - s.result);
  }
  return tokens;
}
