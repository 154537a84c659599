/**
 * What a summarising step expects its summary to cost before it is written (pure; level
 * `rewrite`, DESIGN §3 auto tier). Two figures enter the cost model:
 *
 * - the summary's expected size, which the step adds back to every later request (H is the
 *   stretch's tokens minus these): its text is at most the summariser's bound —
 *   `summarizer.max_summary_chars`, or the in-process extractive summariser's
 *   EXTRACT_LIMITS.max_chars when no summariser is configured — and never longer than the
 *   stretch it reads (an extractive summary only quotes it; a model's stays shorter still).
 *   Characters count as bytes and become tokens by the hot-path estimator's ≈ 4 bytes per
 *   token (../tokens/estimate.ts estimateTokensFromBytes). The bound, not a guess of the typical
 *   length: a step that pays at the bound pays at any shorter summary.
 * - the summariser's expected cost (term ③): it reads the stretch (its tokens as estimated) and
 *   writes the expected summary, capped by `summarizer.max_output_tokens`, priced by
 *   ./summary-cost.ts summarizerPrice (configured prices, else the price table row of its
 *   model, else unpriced: 0). The in-process extractive summariser costs 0.
 */
import type { SummarizerConfig } from "../../config/schema";
import { EXTRACT_LIMITS } from "../summary/extract-summary";
import { estimateTokensFromBytes } from "../tokens/estimate";
import { summarizerPrice, tokenCostUsd } from "./summary-cost";

/** The summariser fields the estimate reads (null: the in-process extractive summariser). */
export type SummarizerBounds = Pick<SummarizerConfig, "model" | "max_summary_chars" | "max_output_tokens" | "input_per_mtok" | "output_per_mtok"> | null;

/** The expected summary of one stretch: its text's tokens and the summariser's cost. */
export interface SummaryEstimate {
  /** Expected tokens of the summary text (the block's fixed header is counted by the host's action: ../policy/estimate-savings.ts). */
  text_tokens: number;
  /** Expected USD of writing it (term ③ of ./net-benefit.ts). */
  cost_usd: number;
}

/** The longest summary text `summarizer` writes, characters. */
export function summaryCharBound(summarizer: SummarizerBounds): number {
  return summarizer === null ? EXTRACT_LIMITS.max_chars : summarizer.max_summary_chars;
}

/**
 * The expected summary of a stretch of `stretch_bytes` UTF-8 bytes (calls' inputs and results'
 * texts) estimated at `stretch_tokens` tokens, written by `summarizer`.
 */
export function estimateSummary(stretch_bytes: number, stretch_tokens: number, summarizer: SummarizerBounds): SummaryEstimate {
  const text_tokens = estimateTokensFromBytes(Math.min(summaryCharBound(summarizer), Math.max(0, stretch_bytes)));
  if (summarizer === null) return { text_tokens, cost_usd: 0 };
  const { price } = summarizerPrice(summarizer.model, summarizer);
  return { text_tokens, cost_usd: tokenCostUsd(stretch_tokens, Math.min(text_tokens, summarizer.max_output_tokens), price) };
}
