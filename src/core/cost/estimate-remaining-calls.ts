/**
 * R, the expected remaining model calls of a session (pure; DESIGN §4), including the call
 * being decided.
 *
 * 1. From the deployment's session lengths when it has seen enough sessions reach this call
 *    count: the lower-quartile estimator of ./session-lengths.ts (a step priced at that R pays in
 *    at least 3 of 4 sessions that got this far).
 * 2. Else the seed's prior, R = E × L (E remaining user turns, L calls per user turn), taken at
 *    the same quantile. The seed's Lindy rule says a heavy-tailed session's remaining length
 *    scales with its elapsed length: with E = u·ρ remaining turns for u turns so far and
 *    L = n/u calls per turn, E × L = ρ·n whatever u is. Under the Lindy (Pareto α = 1) law,
 *    P(more than x further calls | n so far) = n / (n + x), so the q-quantile of the further
 *    calls is x = n·q / (1 − q): n/3 at q = 0.25 (the seed's median, n, halved for caution, was
 *    n/2; a session at call 103 of the corpus Codex run then bet on 51 more calls, and a session
 *    ending 35 calls after such a step costs more than no compaction). Never below the seed
 *    baseline E₀ = 8 (a session with no history).
 */
import { REMAINING_QUANTILE, remainingCallsFromTable, type RemainingCallsTable } from "./session-lengths";

/** The seed prior at quantile `q`: max(E₀, 1 + ⌊n·q / (1 − q)⌋) for `calls_so_far` = n (this call included), `baseline` = E₀. */
export function estimateRemainingCalls(calls_so_far: number, baseline: number, q = REMAINING_QUANTILE): number {
  return Math.max(baseline, 1 + Math.floor((Math.max(0, calls_so_far) * q) / (1 - q)));
}

/** Where an R came from: the deployment's table or the seed prior. */
export type RemainingCallsSource = "deployment" | "seed";

/** R for a session deciding its call number `calls` (this one included): the table's when it covers `calls`, else the seed prior's. */
export function expectedRemainingCalls(calls: number, table: RemainingCallsTable | null | undefined, baseline: number): { remaining_calls: number; source: RemainingCallsSource } {
  const fromTable = remainingCallsFromTable(table, calls);
  return fromTable === null ? { remaining_calls: estimateRemainingCalls(calls, baseline), source: "seed" } : { remaining_calls: fromTable, source: "deployment" };
}
