/**
 * When to take a step that already pays (pure): now, or wait and gather more removals.
 * take-step.ts asks this only for the best cut whose five-term net benefit is positive.
 *
 * The model. A removal step costs one cache write: the cached tokens after its first edit are
 * written again (net-benefit.ts `cache_miss`, K · (w · P_input − P_cache)); its benefit accrues
 * per later call (P_cache per removed token per call). Removals become possible a few at a time
 * as the history grows, so stepping at every chance pays one write per handful of pairs, while
 * never stepping forgoes every saving. This is the economic-order-quantity trade-off: with
 * removable tokens arriving at h per call and a write W per step, stepping every τ calls costs
 * W / τ + P_cache · h · τ / 2 per call, least at τ* = √(2W / (P_cache · h)), and at τ* the
 * savings forgone while the removals waited, P_cache · h · τ*² / 2, equal W. So, stateless:
 *
 * 1. cache cold (idle ≥ the provider's cache TTL): step now — the next request writes its whole
 *    prefix anyway, the step adds no write (net-benefit.ts), and waiting only forgoes savings;
 * 2. pressure (request tokens / context window ≥ `pressure_limit`): step now, never wait;
 * 3. warm: step once the savings forgone by the cut's pairs since each became editable,
 *    Σ P_cache · saved_tokens · age_calls, reach the write the step costs (`cache_miss_usd`);
 *    wait otherwise (a cold moment may come first and make the write free).
 * For a fixed set of pairs and a fixed write, rule 3 is the deterministic ski-rental rule: whatever
 * the future, it costs at most twice the better of "step at once" and "never step" in hindsight.
 * Ages count model calls since the pair left the protected recent turns, not since the engine
 * first proposed it (the core keeps no per-pair proposal time), so a pair found stale late counts
 * as having waited longer than it did: the rule then steps earlier, never later.
 */

/** Why the rule chose. */
export type TimingReason = "cold" | "pressure" | "paid" | "gathering";

/** The decision and the two amounts it compared (USD). */
export interface TimingDecision {
  step: boolean;
  reason: TimingReason;
  /** Savings the cut's pairs forgone so far by not being removed, USD. */
  forgone_usd: number;
  /** The write this step costs now (0 when cold), USD. */
  write_usd: number;
}

/** One pair of the cut: tokens its removal saves per call, and calls it has been editable before this one. */
export interface PendingRemoval {
  saved_tokens: number;
  /** Model calls since the pair became editable (0 at the first call it may go). */
  age_calls: number;
}

/** What the rule reads. */
export interface TimingInput {
  /** The provider cache has expired (idle ≥ TTL): the step costs no extra write. */
  cache_cold: boolean;
  /** Request tokens / the model's context window (BudgetPressure.context_pct_used). */
  context_pct_used: number;
  /** Never wait at or above this share of the context window (config `auto_context_pct`). */
  pressure_limit: number;
  /** The write the step costs if taken now, USD (net-benefit.ts `cache_miss`). */
  cache_miss_usd: number;
  /** P_cache: USD per 10^6 cache-read tokens. */
  p_cache: number;
  pending: readonly PendingRemoval[];
}

const PER_MTOK = 1_000_000;

/** Savings the pending removals have forgone so far, USD: Σ P_cache · saved_tokens · age_calls / 10^6. */
export function forgoneSavingsUsd(pending: readonly PendingRemoval[], p_cache: number): number {
  let tokenCalls = 0;
  for (const p of pending) tokenCalls += Math.max(0, p.saved_tokens) * Math.max(0, p.age_calls);
  return (tokenCalls * p_cache) / PER_MTOK;
}

/** Step now or wait (module header). Pure; never throws. */
export function decideStepTiming(input: TimingInput): TimingDecision {
  const forgone_usd = forgoneSavingsUsd(input.pending, input.p_cache);
  const write_usd = input.cache_cold ? 0 : Math.max(0, input.cache_miss_usd);
  const at = (step: boolean, reason: TimingReason): TimingDecision => ({ step, reason, forgone_usd, write_usd });
  if (input.cache_cold) return at(true, "cold");
  if (input.context_pct_used >= input.pressure_limit) return at(true, "pressure");
  return forgone_usd >= write_usd ? at(true, "paid") : at(false, "gathering");
}

/**
 * Model calls since `pairTurn` left the protected recent turns: (turn_count − preserve_recent_turns)
 * − pairTurn, never below 0. `turn_count` is the view's (the calls before this one), `pairTurn`
 * the later of the pair's call and result turn indexes (src/core/view/types.ts).
 */
export function editableAgeCalls(turn_count: number, preserve_recent_turns: number, pairTurn: number): number {
  return Math.max(0, turn_count - preserve_recent_turns - pairTurn);
}
