/**
 * Cost of one call from its usage (pure). Integer nano-dollars (1e-9 USD) so totals add up
 * exactly; a per-MTok price p costs p×1000 nano-dollars per token.
 */
import type { AnthropicPrice, OpenAiPrice } from "./prices";

/** Token usage the emulator bills, common to all three APIs. */
export interface BilledUsage {
  /** Input tokens billed at the base input price (uncached, not written). */
  uncached: number;
  /** Tokens read from the prompt cache. */
  cacheRead: number;
  /** Tokens written to the cache with a 5-minute TTL (OpenAI: every billed write). */
  cacheWrite5m: number;
  /** Tokens written with a 1-hour TTL (Anthropic only). */
  cacheWrite1h: number;
  output: number;
}

const perToken = (pricePerMTok: number, ratio = 1) => Math.round(pricePerMTok * 1000 * ratio * 1e6) / 1e6;

/**
 * Anthropic: input at base, writes at the row's 5-minute (1.25×) or 1-hour (2×) multiple of input,
 * reads at the row's cache-read price, output at the output price. A prompt (input + reads +
 * writes) above the row's long-context size bills every token at the long-context rates.
 */
export function anthropicCostNano(u: BilledUsage, p: AnthropicPrice): number {
  const prompt = u.uncached + u.cacheRead + u.cacheWrite5m + u.cacheWrite1h;
  const lc = p.longContext !== null && prompt > p.longContext.above_prompt_tokens ? p.longContext : null;
  const input = lc ? lc.input_per_mtok : p.input;
  return Math.round(
    u.uncached * perToken(input) +
      u.cacheWrite5m * perToken(input, p.write5mRatio) +
      u.cacheWrite1h * perToken(input, p.write1hRatio) +
      u.cacheRead * perToken(lc ? lc.cache_read_per_mtok : p.cacheRead) +
      u.output * perToken(lc ? lc.output_per_mtok : p.output),
  );
}

/**
 * OpenAI: uncached at input, reads at the cached-input price, writes at the write price (input
 * before GPT-5.6). A prompt above the row's long-context size (GPT-6.x: more than 272K input
 * tokens) bills every token at the long-context rates, writes at the same multiple of its input.
 */
export function openaiCostNano(u: BilledUsage, p: OpenAiPrice): number {
  const prompt = u.uncached + u.cacheRead + u.cacheWrite5m + u.cacheWrite1h;
  const lc = p.longContext !== null && prompt > p.longContext.above_prompt_tokens ? p.longContext : null;
  const input = lc ? lc.input_per_mtok : p.input;
  return Math.round(
    u.uncached * perToken(input) +
      u.cacheRead * perToken(lc ? lc.cache_read_per_mtok : p.cachedInput) +
      (u.cacheWrite5m + u.cacheWrite1h) * perToken(input, p.cacheWrite / p.input) +
      u.output * perToken(lc ? lc.output_per_mtok : p.output),
  );
}

/** Nano-dollars as a USD decimal string with 9 places, e.g. 3750 → "0.000003750". */
export function formatUsd(nano: number): string {
  const sign = nano < 0 ? "-" : "";
  const a = Math.abs(nano);
  return `${sign}${Math.floor(a / 1e9)}.${String(a % 1e9).padStart(9, "0")}`;
}
