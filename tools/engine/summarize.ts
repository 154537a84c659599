/**
 * The reference engine's `summarize` function: the deterministic extractive summariser
 * (src/core/summary/extract-summary.ts) behind the protocol's summarize answer. Token counts are
 * Sluice's estimates (src/core/tokens) of what it read (the turns as sent, JSON) and wrote; no
 * model runs, so `cost_usd` is 0. A team plugging in its own model replaces this function.
 */
import { extractSummary, EXTRACT_LIMITS } from "../../src/core/summary/extract-summary";
import { estimateTokens } from "../../src/core/tokens/estimate";
import type { SummarizeAnswer, SummarizeRequest } from "../../src/engines/summarize-protocol";

/** A summarize function: request in, answer out. */
export type SummarizeFn = (request: SummarizeRequest) => SummarizeAnswer;

export const summarize: SummarizeFn = (request) => {
  const summary = extractSummary(request.turns, { ...EXTRACT_LIMITS, max_chars: Math.min(EXTRACT_LIMITS.max_chars, request.max_summary_chars) });
  return { summary, input_tokens: estimateTokens(JSON.stringify(request.turns)), output_tokens: estimateTokens(summary), cost_usd: 0 };
};
