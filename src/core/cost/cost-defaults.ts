/**
 * Seed constants of the cache-aware cost model (DESIGN §4: the seeds' five-term net benefit).
 * Prices are USD per 10^6 tokens; token counts are tokens. Every value can be overridden per
 * call (`CostParams`); prices normally come from the price table instead (./prices.ts).
 */

/** Parameters of the five-term model. */
export interface CostParams {
  /** P_input: USD per 10^6 uncached input tokens. Seed 3.0. */
  p_input: number;
  /** P_cache: USD per 10^6 cache-read tokens. Seed 0.30. */
  p_cache: number;
  /** P_out: USD per 10^6 output tokens (summary generation). Seed 15.0. */
  p_out: number;
  /** Cache write multiple of P_input (Anthropic 5-minute cache 1.25, OpenAI 1). Seed 1 (the seed formula). */
  write_multiplier: number;
  /** V: tokens of the fixed prefix (system + tools) that no step touches. Seed 5,000. */
  prefix_tokens: number;
  /** S: tokens of a summary written by a rewriting step (0 for removal-only steps). Seed 500. */
  summary_tokens: number;
  /** r: fraction of the removed information a step retains (per step; compounds as r^(c+1)). Seed 0.8. */
  retention: number;
  /** Floor of the compounded retention r_t (≈ 1/e). Seed 0.37. */
  retention_floor: number;
  /** β: weight of the information-distortion penalty. Seed 0.03. */
  distortion_weight: number;
  /** Q: weight of the long-context quality gain. Seed 0.2. */
  quality_weight: number;
  /** A step may never keep less than this fraction of the history. Seed 0.12. */
  min_keep_ratio: number;
  /** M: context window the quality gain is normalised by, tokens. Seed 200,000. */
  context_window: number;
}

/** The seed values, verbatim. */
export const COST_DEFAULTS: CostParams = {
  p_input: 3.0,
  p_cache: 0.3,
  p_out: 15.0,
  write_multiplier: 1,
  prefix_tokens: 5_000,
  summary_tokens: 500,
  retention: 0.8,
  retention_floor: 0.37,
  distortion_weight: 0.03,
  quality_weight: 0.2,
  min_keep_ratio: 0.12,
  context_window: 200_000,
};
