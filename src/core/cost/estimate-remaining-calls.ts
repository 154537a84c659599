/**
 * R, the expected remaining model calls of a session (pure; DESIGN §4), including the call
 * being decided.
 *
 * 1. From the deployment's session lengths when it has seen enough sessions reach this call
 *    count: the lower-quartile estimator of ./session-lengths.ts (a step priced at that R pays in
 *    at least 3 of 4 sessions that got this far).
 * 2. Else the seed's prior, R = E × L (E remaining user turns, L calls per user turn). The seed's
 *    Lindy rule says a heavy-tailed session's remaining length scales with its elapsed length:
 *    with E = u·ρ remaining turns for u turns so far and L = n/u calls per turn, E × L = ρ·n
 *    whatever u is. Under the Lindy (Pareto α = 1) law, P(more than x further calls | n so far) =
 *    n / (n + x), so the q-quantile of the further calls is x = n·q / (1 − q). The prior is taken
 *    at the median (SEED_PRIOR_QUANTILE = 0.5: x = n), never below the seed baseline E₀ = 8 (a
 *    session with no history). Measured on the dev corpus (corpus/eval/dev, 16 sessions, 1,593
 *    calls): the median of (further calls ÷ calls so far) over every call is 0.98 and its lower
 *    quartile 0.32, so the Lindy quantiles fit it; with K priced as the full rewrite Anthropic
 *    bills (./cache-reach.ts), the median prior saved 45.4 % of input against 45.0 % at the lower
 *    quartile, 41.3 % against 40.5 % re-targeted to claude-opus-5-5, and no session cost more than
 *    no compaction (docs/dev/decisions/cost-regime-ttl.md). The deployment's own table (1.) keeps
 *    the lower quartile: it is measured, and a step priced on it pays in 3 of 4 sessions.
 */
import { remainingCallsFromTable, type RemainingCallsTable } from "./session-lengths";

/** The quantile the seed prior is taken at (module header): the median. */
export const SEED_PRIOR_QUANTILE = 0.5;

/** The seed prior at quantile `q`: max(E₀, 1 + ⌊n·q / (1 − q)⌋) for `calls_so_far` = n (this call included), `baseline` = E₀. */
export function estimateRemainingCalls(calls_so_far: number, baseline: number, q = SEED_PRIOR_QUANTILE): number {
  return Math.max(baseline, 1 + Math.floor((Math.max(0, calls_so_far) * q) / (1 - q)));
}

/** Where an R came from: the deployment's table or the seed prior. */
export type RemainingCallsSource = "deployment" | "seed";

/** R for a session deciding its call number `calls` (this one included): the table's when it covers `calls`, else the seed prior's. */
export function expectedRemainingCalls(calls: number, table: RemainingCallsTable | null | undefined, baseline: number): { remaining_calls: number; source: RemainingCallsSource } {
  const fromTable = remainingCallsFromTable(table, calls);
  return fromTable === null ? { remaining_calls: estimateRemainingCalls(calls, baseline), source: "seed" } : { remaining_calls: fromTable, source: "deployment" };
}
