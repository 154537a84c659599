/**
 * The step answer for a tier result (pure): what the session DO returns to the gateway
 * (src/session/contract.ts StepOutput).
 */
import type { StepOutput } from "../../session/contract";
import type { TierResult } from "./types";

/** StepOutput of `result`: the selected tier (a tier that refused a step reports "none" in its result, with the reason). */
export function stepOutputOf(result: TierResult): StepOutput {
  const out: StepOutput = {
    disabled: false,
    tier: result.skipped?.tier ?? result.tier,
    skipped: result.skipped?.reason ?? null,
    plan: result.plan,
    step: result.step?.step ?? null,
    tokens_original: result.tokens_original,
    tokens_after: result.tokens_after,
    pairs_removed: Object.values(result.plan.actions).filter((a) => a.kind !== "keep").length,
    cost_estimate: result.cost_estimate,
    new_pair_ids: result.step?.pair_ids ?? [],
    warnings: result.warnings,
  };
  if (result.native !== undefined) out.native = result.native;
  if (result.declined !== undefined) out.declined = result.declined;
  if (result.step !== null) {
    out.terms = result.step.terms;
    const rules = result.step.rules;
    out.new_pair_rules = result.step.pair_ids.map((pair_id) => ({ pair_id, rule: rules[pair_id] ?? "none" }));
  }
  return out;
}

/** StepOutput of a session an operator disabled: no plan, nothing decided. */
export function disabledOutput(est_tokens: number): StepOutput {
  return { disabled: true, tier: "none", skipped: null, plan: { actions: {} }, step: null, tokens_original: est_tokens, tokens_after: est_tokens, pairs_removed: 0, cost_estimate: 0, new_pair_ids: [], warnings: [] };
}
