/**
 * compact(ctx): the core's entry point per request (pure). Selects exactly one tier from the
 * budget pressure (./select-tier.ts) and runs it (src/core/tiers/registry.ts). Every tier
 * re-applies the session ledger first, so the result's plan is always the whole plan to apply;
 * a tier that takes no step returns a `none` result (unchanged context after the ledger, cost 0)
 * with `skipped` saying which tier was selected and why it refused.
 */
import { TIER_REGISTRY } from "../tiers/registry";
import { selectTier } from "./select-tier";
import type { CoreConfig, TierContext, TierResult } from "./types";
import { DEFAULTS } from "../../config/defaults";

/** The core config with every default from src/config/defaults.ts. */
export const CORE_DEFAULTS: CoreConfig = {
  engine: DEFAULTS.engine,
  threshold_tokens: DEFAULTS.threshold_tokens,
  min_result_bytes: DEFAULTS.min_result_bytes,
  preserve_recent_turns: DEFAULTS.preserve_recent_turns,
  decision_threshold: DEFAULTS.decision_threshold,
  head_chars: DEFAULTS.head_chars,
  min_reduction: DEFAULTS.min_reduction,
  guarantee_level: DEFAULTS.guarantee_level,
  exclude_tools: DEFAULTS.exclude_tools,
  idle_seconds: DEFAULTS.idle_seconds,
  time_based_age_seconds: DEFAULTS.time_based_age_seconds,
  working_set_turns: DEFAULTS.working_set_turns,
  min_remaining_calls: DEFAULTS.min_remaining_calls,
  auto_context_pct: DEFAULTS.auto_context_pct,
};

/** Selects the tier for ctx.pressure and runs it. */
export function compact(ctx: TierContext): TierResult {
  return TIER_REGISTRY[selectTier(ctx.pressure, ctx.config)](ctx);
}
