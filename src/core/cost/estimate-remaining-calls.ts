/**
 * Expected remaining model calls of a session (pure), from its own history (DESIGN §4).
 *
 * Estimate: R = max(E, ⌊n / 2⌋) where n is the number of calls the session has made so far and
 * E the seed baseline (8). Rationale: agent sessions have heavy-tailed lengths; for a
 * power-law (Lindy) process the median remaining length equals the elapsed length n, and we
 * halve it to stay on the cautious side (an over-estimate makes late steps look profitable
 * when the session is about to end). Calibrated on the shared corpus (issue 4 report).
 */

/** Expected remaining calls after `calls_so_far` calls, never below `baseline` (E). */
export function estimateRemainingCalls(calls_so_far: number, baseline: number): number {
  return Math.max(baseline, Math.floor(Math.max(0, calls_so_far) / 2));
}
