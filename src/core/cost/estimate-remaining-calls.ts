/**
 * R, the expected remaining model calls of a session (pure; DESIGN §4), including the call
 * being decided.
 *
 * 1. From the deployment's session lengths when it has seen enough sessions reach this call
 *    count: the lower-quartile estimator of ./session-lengths.ts (a step priced at that R pays in
 *    at least 3 of 4 sessions that got this far).
 * 2. Else the seed's prior, R = E × L (E remaining user turns, L calls per user turn), at
 *    SEED_PRIOR_QUANTILE. The seed's Lindy rule says a heavy-tailed session's remaining length
 *    scales with its elapsed length: with E = u·ρ remaining turns for u turns so far and
 *    L = n/u calls per turn, E × L = ρ·n whatever u is. Under the Lindy (Pareto α = 1) law,
 *    P(more than x further calls | n so far) = n / (n + x), so the q-quantile of the further
 *    calls is x = n·q / (1 − q): n/9 at q = 0.1. Never below the config's
 *    `min_remaining_calls` (default 2: this call and one more): a higher floor prices warm steps
 *    on calls short sessions never make (a floor of 8 overrides q = 0.1 up to call 62:
 *    docs/dev/decisions/working-set.md).
 */
import { remainingCallsFromTable, type RemainingCallsTable } from "./session-lengths";

/**
 * q of the seed prior: 0.1, stricter than the deployment table's lower quartile. A warm step is
 * taken at the first call where it pays at R, i.e. at its margin, so it repays its cache write only
 * if the session makes at least R more calls; with the agent's working set a session's paid steps
 * come late and few (often one rewriting the whole prompt), so at the lower quartile (n/3) about
 * one single-step session in four cost more than no compaction. Measured on corpus/seed +
 * corpus/eval/dev (docs/dev/decisions/working-set.md): the lower quartile left 3 of 16 dev
 * sessions costlier than none (−2.6 %, −3.9 %, −4.2 %), q = 0.15 one (−3.8 %: its step moved
 * later), q = 0.1 none, for 1.8 points less on the seed and 1.2 more on dev.
 */
export const SEED_PRIOR_QUANTILE = 0.1;

/** The seed prior at quantile `q`: max(floor, 1 + ⌊n·q / (1 − q)⌋) for `calls_so_far` = n (this call included), `floor` = the config's `min_remaining_calls`. */
export function estimateRemainingCalls(calls_so_far: number, floor: number, q = SEED_PRIOR_QUANTILE): number {
  return Math.max(floor, 1 + Math.floor((Math.max(0, calls_so_far) * q) / (1 - q)));
}

/**
 * n, the model calls a session has made, this one included: the more of the calls Sluice saw
 * (`calls_seen`) and the history's turns + 1 (`turns`: the model turns the request's history
 * holds). A session that reached Sluice mid-way (its base URL changed, or its state retired after
 * `retention_seconds`) is as far along as its history says.
 */
export function callsSoFar(calls_seen: number, turns: number): number {
  return Math.max(calls_seen, turns + 1);
}

/** Where an R came from: the deployment's table or the seed prior. */
export type RemainingCallsSource = "deployment" | "seed";

/** R for a session deciding its call number `calls` (this one included): the table's when it covers `calls`, else the seed prior's. */
export function expectedRemainingCalls(calls: number, table: RemainingCallsTable | null | undefined, floor: number): { remaining_calls: number; source: RemainingCallsSource } {
  const fromTable = remainingCallsFromTable(table, calls);
  return fromTable === null ? { remaining_calls: estimateRemainingCalls(calls, floor), source: "seed" } : { remaining_calls: fromTable, source: "deployment" };
}
