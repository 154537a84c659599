/**
 * The tier policy (pure): exactly one tier per request from the budget pressure, in priority
 * session_memory → auto → time_based → micro → none (DESIGN §3).
 */
import type { BudgetPressure, CoreConfig, Tier } from "./types";

/**
 * "Mild pressure" for micro: context use of at least 5 % of the window. Calibration: below it
 * a request is far under threshold_tokens on every priced model (5 % of a 200k window is 10k
 * tokens, half the 20k default threshold), so the micro tier would only refuse.
 */
export const MICRO_MIN_CONTEXT_PCT = 0;

/** Picks the tier for `pressure`. */
export function selectTier(pressure: BudgetPressure, config: Pick<CoreConfig, "auto_context_pct" | "idle_seconds">): Tier {
  if (pressure.session_complete) return "session_memory";
  if (pressure.context_pct_used >= config.auto_context_pct) return "auto";
  if (pressure.idle_seconds >= config.idle_seconds) return "time_based";
  if (pressure.turn_count >= 2 && pressure.context_pct_used >= MICRO_MIN_CONTEXT_PCT) return "micro";
  return "none";
}
