/**
 * "When" measured (pure): for one run, the steps it took (calls where it first
 * removed pairs, with ./step-shape.ts's shapes) go through the hindsight programme
 * (./hindsight-steps.ts), and the report gets, in USD at the session's input price, the cost of
 * no removal, of the steps as taken, and of the same steps at the best calls — all under the
 * programme's cache model: 5-minute TTL, the session's cache write and read prices as multiples
 * of its input price, the session's real gaps. A step's tokens are the growth of (original −
 * sent) tokens at its call. Runs with more than MAX_HINDSIGHT_STEPS steps (every-call windows
 * such as observation-mask) or without shapes get none.
 */
import { bestStepTimes, type HindsightStep } from "./hindsight-steps";
import type { AssumedPrices } from "./session-prices";
import type { CallRecord } from "./types";

/** The provider cache lifetime the programme assumes (Anthropic's default, OpenAI's in-memory retention), ms. */
export const HINDSIGHT_TTL_MS = 5 * 60 * 1000;
/** Runs with more steps than this are not measured (the programme is O(calls × steps³)). */
export const MAX_HINDSIGHT_STEPS = 64;

/** One run's (or a sum of runs') step timing in hindsight, USD. */
export interface StepTiming {
  steps_taken: number;
  /** Calls at which the best schedule steps (steps sharing a call count once). */
  steps_best: number;
  none_usd: number;
  taken_usd: number;
  best_usd: number;
}

/** Saving of `cost` against `none`, % of `none` (0 when none is 0). */
export const timingSavedPct = (t: StepTiming, cost: number): number => (t.none_usd === 0 ? 0 : ((t.none_usd - cost) / t.none_usd) * 100);

/** The step timing of one run of a session billed at `prices`, or null (see the module header). */
export function stepTimingOf(calls: readonly CallRecord[], prices: AssumedPrices): StepTiming | null {
  if (calls.length === 0 || calls.some((c) => c.shape === undefined)) return null;
  const steps: HindsightStep[] = [];
  let savedBefore = 0;
  for (const c of calls) {
    const saved = c.shape!.original_tokens - c.shape!.sent_tokens;
    if (c.shape!.first_edit_tokens !== null) steps.push({ released_at: c.index, first_edit: c.shape!.first_edit_tokens, tokens: Math.max(0, saved - savedBefore) });
    savedBefore = saved;
  }
  if (steps.length > MAX_HINDSIGHT_STEPS) return null;
  const input = prices.input_per_mtok;
  const model = { ttl_ms: HINDSIGHT_TTL_MS, write_multiple: input === 0 ? 1 : prices.cache_write_per_mtok / input, read_multiple: input === 0 ? 1 : prices.cache_read_per_mtok / input };
  const r = bestStepTimes(
    calls.map((c) => ({ tokens: c.shape!.original_tokens, time_ms: c.time_ms, reach_tokens: c.shape!.reach_tokens ?? null })),
    steps,
    model,
  );
  const usd = (tokens: number) => (tokens * input) / 1e6;
  return {
    steps_taken: steps.length,
    steps_best: new Set(r.best_at.filter((at) => at !== null)).size,
    none_usd: usd(r.none_cost),
    taken_usd: usd(r.taken_cost),
    best_usd: usd(r.best_cost),
  };
}

/** The sum of several runs' timings; null when any of them (or all, being none) was not measured. */
export function sumStepTimings(timings: readonly (StepTiming | null)[]): StepTiming | null {
  const present = timings.filter((t): t is StepTiming => t !== null);
  if (present.length === 0 || present.length < timings.length) return null;
  const sum = (f: (t: StepTiming) => number) => present.reduce((n, t) => n + f(t), 0);
  return { steps_taken: sum((t) => t.steps_taken), steps_best: sum((t) => t.steps_best), none_usd: sum((t) => t.none_usd), taken_usd: sum((t) => t.taken_usd), best_usd: sum((t) => t.best_usd) };
}
