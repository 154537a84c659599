/**
 * micro tier (weight 0.05; DESIGN §3): fires from turn 2. Collapses long
 * old tool results (> min_result_bytes, outside preserve_recent_turns) to an exact head of
 * head_chars, and removes whole the pairs the engine marks (./propose-collapse.ts). No model
 * call. The step is taken only when the cost model says it pays (src/core/policy/take-step.ts).
 */
import { takeStep } from "../policy/take-step";
import type { TierContext, TierResult } from "../policy/types";
import { proposeCollapse } from "./propose-collapse";
import { resolveVerdicts } from "./resolve-verdicts";

/** Runs the micro tier. */
export function compactMicro(ctx: TierContext): TierResult {
  return takeStep(ctx, "micro", (c, eligible) => proposeCollapse(eligible, resolveVerdicts(c), c.config));
}
