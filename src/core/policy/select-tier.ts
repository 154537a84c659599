/**
 * The tier policy (pure): exactly one tier per request from the budget pressure, in priority
 * session_memory → auto → time_based → micro → none (DESIGN §3).
 */
import type { BudgetPressure, CoreConfig, Tier } from "./types";

/**
 * Picks the tier for `pressure`: the one place the tiers' triggers are written (session
 * complete; context use ≥ auto_context_pct; idle ≥ idle_seconds; turn ≥ 2; else none). micro's
 * "mild pressure" is turn ≥ 2 alone: no size gate here, because whether a step pays is the cost
 * model's question (a long session of small calls can pay); the operator's floor
 * `threshold_tokens` is checked by the step (./take-step.ts).
 */
export function selectTier(pressure: BudgetPressure, config: Pick<CoreConfig, "auto_context_pct" | "idle_seconds">): Tier {
  if (pressure.session_complete) return "session_memory";
  if (pressure.context_pct_used >= config.auto_context_pct) return "auto";
  if (pressure.idle_seconds >= config.idle_seconds) return "time_based";
  if (pressure.turn_count >= 2) return "micro";
  return "none";
}
