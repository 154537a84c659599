/**
 * The five-term net benefit of one compaction step (pure), in USD, with prices per 10^6 tokens
 * (the seeds' model):
 *
 *   future_savings   = (R − 1) · P_cache · H
 *   cache_miss       = (S + K) · (w · P_input − P_cache)          (0 when the cache is already cold)
 *   request_cost     = the compaction request itself (engine cost; summariser input + output)
 *   distortion       = β · (1 − r_t) · R · avg · P_input,  r_t = max(r^(c+1), r_floor)
 *   quality_gain     = Q · P_input · ((V + T)² − (V + K_kept)²) / M
 *   net              = future_savings − cache_miss − request_cost − distortion + quality_gain
 *
 * Each token·price product is divided by 10^6. `w` is the provider's cache-write multiple of
 * P_input (Anthropic 1.25, OpenAI 1; the seed formula is w = 1). When the session has been idle
 * past the provider's cache TTL the next request writes its whole prefix anyway, so the step
 * adds no write of its own: cache_miss = 0 (this is what makes the time_based tier cheap).
 */
import type { CostParams } from "./cost-defaults";

/** What a candidate step does, in tokens. */
export interface StepShape {
  /** T: history tokens before the step (after earlier steps were re-applied). */
  history_tokens: number;
  /** H: tokens the step takes out of every later request (removed minus summary added). */
  removed_tokens: number;
  /** K (cache miss): tokens already cached that the next request must write again because they follow the first edit. */
  rewritten_tokens: number;
  /** USD cost of producing the step: 0 for the heuristic engine, the engine's or summariser's cost otherwise. */
  request_cost_usd: number;
}

/** The session facts the model needs. */
export interface StepSituation {
  /** R: expected remaining model calls in the session (including the next one). */
  remaining_calls: number;
  /** c: compaction steps already taken in the session. */
  prior_steps: number;
  /** avg: average tokens per call so far (see compact()'s documentation for how it is measured). */
  avg_call_tokens: number;
  /** True when the provider cache has expired (idle ≥ TTL): the step then costs no extra write. */
  cache_cold: boolean;
}

/** The five terms and their sum, USD. */
export interface NetBenefit {
  future_savings: number;
  cache_miss: number;
  request_cost: number;
  distortion: number;
  quality_gain: number;
  net: number;
}

/**
 * The five terms of a step taken, with the inputs an operator needs to read them: what the audit
 * record and the session's stats keep per step (USD; tokens; calls).
 */
export interface StepTerms extends NetBenefit {
  /** R the step was priced with, calls (this one included). */
  remaining_calls: number;
  /** Where R came from: the deployment's session lengths or the seed estimate. */
  remaining_calls_source: "deployment" | "seed";
  /** avg of the distortion term, tokens per request. */
  avg_request_tokens: number;
  /** H, tokens. */
  removed_tokens: number;
  /** K, tokens. */
  rewritten_tokens: number;
}

const PER_MTOK = 1_000_000;

/** Computes the five terms for `step` in `situation` with `params` (prices per 10^6 tokens). */
export function netBenefit(step: StepShape, situation: StepSituation, params: CostParams): NetBenefit {
  const R = situation.remaining_calls;
  const H = step.removed_tokens;
  const S = params.summary_tokens;
  const K = step.rewritten_tokens;
  const T = step.history_tokens;
  const V = params.prefix_tokens;
  const keptTokens = Math.max(0, T - H - S);

  const future_savings = (Math.max(0, R - 1) * params.p_cache * H) / PER_MTOK;
  const cache_miss = situation.cache_cold ? 0 : ((S + K) * (params.write_multiplier * params.p_input - params.p_cache)) / PER_MTOK;
  const request_cost = step.request_cost_usd;
  const r_t = Math.max(Math.pow(params.retention, situation.prior_steps + 1), params.retention_floor);
  const distortion = (params.distortion_weight * (1 - r_t) * R * situation.avg_call_tokens * params.p_input) / PER_MTOK;
  const quality_gain = (params.quality_weight * params.p_input * ((V + T) ** 2 - (V + keptTokens) ** 2)) / params.context_window / PER_MTOK;
  const net = future_savings - cache_miss - request_cost - distortion + quality_gain;
  return { future_savings, cache_miss, request_cost, distortion, quality_gain, net };
}

/**
 * USD cost of a summarising compaction request: it reads the compacted `input_tokens` at
 * P_input and writes `S` summary tokens at P_out.
 */
export function summaryRequestCost(input_tokens: number, params: CostParams): number {
  return (input_tokens * params.p_input + params.summary_tokens * params.p_out) / PER_MTOK;
}
