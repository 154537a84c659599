/**
 * micro tier (weight 0.05; DESIGN §3): fires from turn 2. Collapses long
 * old tool results (> min_result_bytes, outside preserve_recent_turns) to an exact head of
 * head_chars, and removes whole the pairs the engine marks (./propose-collapse.ts). No model
 * call. The step is taken only when the cost model says it pays (src/core/policy/take-step.ts).
 */
import { takeStep } from "../policy/take-step";
import type { BudgetPressure, CoreConfig, TierContext, TierResult } from "../policy/types";
import { TIER_COST_WEIGHT } from "../policy/types";
import { proposeCollapse } from "./propose-collapse";
import { resolveVerdicts } from "./resolve-verdicts";

export const MICRO_WEIGHT = TIER_COST_WEIGHT.micro;

/** Trigger: turn ≥ 2 (../policy/select-tier.ts: the cost model, not a size gate, decides). */
export function microTriggers(pressure: BudgetPressure, _config: CoreConfig): boolean {
  return pressure.turn_count >= 2;
}

/** Runs the micro tier. */
export function compactMicro(ctx: TierContext): TierResult {
  return takeStep(ctx, "micro", (c, eligible) => proposeCollapse(eligible, resolveVerdicts(c), c.config));
}
