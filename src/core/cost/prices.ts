/**
 * Price table (pure data): USD per 10^6 tokens, cache multipliers and context windows per model,
 * with the source of every number. Looked up by `findModelPrice` (./find-model-price.ts).
 *
 * Sources (checked for this table):
 * - Anthropic: platform.claude.com/docs/en/about-claude/pricing — "Model pricing" table
 *   (base input, 5m cache writes = 1.25× input, cache hits = 0.1× input, output) and the
 *   prompt-caching section (default cache lifetime 5 minutes). Context window 200,000 tokens for
 *   every Claude 4 model: platform.claude.com/docs/en/about-claude/models/overview.
 * - OpenAI: developers.openai.com/api/docs/models/<model> pages ("Text tokens per 1M": input,
 *   cached input, output; "context window"). Cache writes are not billed extra: prompt caching
 *   "works automatically ... and has no additional fees" (developers.openai.com/api/docs/guides/
 *   prompt-caching, and the OpenAI cookbook "Prompt Caching 201"); cached prefixes stay for
 *   5–10 minutes of inactivity, so 300 s is the conservative TTL.
 */
import type { Provider } from "../view/types";

/** Prices and limits of one model family. */
export interface ModelPrice {
  /** Model id prefix this row matches (longest prefix wins), e.g. "claude-sonnet-4-5". */
  prefix: string;
  provider_family: "anthropic" | "openai";
  /** USD per 10^6 uncached input tokens (P_input). */
  input_per_mtok: number;
  /** USD per 10^6 cache-read input tokens (P_cache). */
  cache_read_per_mtok: number;
  /** Cache write price as a multiple of `input_per_mtok` (Anthropic 5-minute cache 1.25, OpenAI 1). */
  cache_write_multiplier: number;
  /** USD per 10^6 output tokens (P_out). */
  output_per_mtok: number;
  /** Context window, tokens (M). */
  context_window: number;
  /** Prompt-cache lifetime without use, seconds. */
  cache_ttl_seconds: number;
  /** Where the numbers come from. */
  source: string;
}

const ANTHROPIC_PRICING = "platform.claude.com/docs/en/about-claude/pricing (Model pricing table; 5m cache write 1.25×, cache hit 0.1×); window: models overview";
const ANTHROPIC_TTL = 300; // "The cache has a 5-minute lifetime" (prompt caching docs, default ttl)
const OPENAI_TTL = 300; // cached prefixes "remain active for 5 to 10 minutes of inactivity": take the lower bound

/** Every priced model. Order does not matter; the longest matching prefix wins. */
export const MODEL_PRICES: readonly ModelPrice[] = [
  // Claude Opus 4 / 4.1: $15 in, $18.75 5m write, $1.50 hit, $75 out.
  { prefix: "claude-opus-4", provider_family: "anthropic", input_per_mtok: 15, cache_read_per_mtok: 1.5, cache_write_multiplier: 1.25, output_per_mtok: 75, context_window: 200_000, cache_ttl_seconds: ANTHROPIC_TTL, source: ANTHROPIC_PRICING },
  // Claude Opus 4.5: $5 in, $6.25 write, $0.50 hit, $25 out.
  { prefix: "claude-opus-4-5", provider_family: "anthropic", input_per_mtok: 5, cache_read_per_mtok: 0.5, cache_write_multiplier: 1.25, output_per_mtok: 25, context_window: 200_000, cache_ttl_seconds: ANTHROPIC_TTL, source: ANTHROPIC_PRICING },
  // Claude Sonnet 4 / 4.5: $3 in, $3.75 write, $0.30 hit, $15 out.
  { prefix: "claude-sonnet-4", provider_family: "anthropic", input_per_mtok: 3, cache_read_per_mtok: 0.3, cache_write_multiplier: 1.25, output_per_mtok: 15, context_window: 200_000, cache_ttl_seconds: ANTHROPIC_TTL, source: ANTHROPIC_PRICING },
  // Claude Haiku 4.5: $1 in, $1.25 write, $0.10 hit, $5 out.
  { prefix: "claude-haiku-4-5", provider_family: "anthropic", input_per_mtok: 1, cache_read_per_mtok: 0.1, cache_write_multiplier: 1.25, output_per_mtok: 5, context_window: 200_000, cache_ttl_seconds: ANTHROPIC_TTL, source: ANTHROPIC_PRICING },
  // GPT-5.1-Codex-Max: $1.25 in, $0.125 cached, $10 out, 400,000 window (same card as GPT-5-Codex).
  { prefix: "gpt-5.1-codex-max", provider_family: "openai", input_per_mtok: 1.25, cache_read_per_mtok: 0.125, cache_write_multiplier: 1, output_per_mtok: 10, context_window: 400_000, cache_ttl_seconds: OPENAI_TTL, source: "developers.openai.com/api/docs/models/gpt-5.1-codex-max and /gpt-5-codex (Text tokens per 1M; 400,000 context window)" },
  // GPT-5 / GPT-5.1 family: $1.25 in, $0.125 cached, $10 out, 400,000 window.
  { prefix: "gpt-5", provider_family: "openai", input_per_mtok: 1.25, cache_read_per_mtok: 0.125, cache_write_multiplier: 1, output_per_mtok: 10, context_window: 400_000, cache_ttl_seconds: OPENAI_TTL, source: "developers.openai.com/api/docs/models/gpt-5 (Text tokens per 1M; 400,000 context window)" },
  // GPT-4o: $2.50 in, $1.25 cached, $10 out, 128,000 window.
  { prefix: "gpt-4o", provider_family: "openai", input_per_mtok: 2.5, cache_read_per_mtok: 1.25, cache_write_multiplier: 1, output_per_mtok: 10, context_window: 128_000, cache_ttl_seconds: OPENAI_TTL, source: "developers.openai.com/api/docs/models/gpt-4o (Text tokens per 1M; 128,000 context window)" },
  // GPT-4o mini: $0.15 in, $0.075 cached, $0.60 out, 128,000 window.
  { prefix: "gpt-4o-mini", provider_family: "openai", input_per_mtok: 0.15, cache_read_per_mtok: 0.075, cache_write_multiplier: 1, output_per_mtok: 0.6, context_window: 128_000, cache_ttl_seconds: OPENAI_TTL, source: "developers.openai.com/api/docs/models/gpt-4o-mini (Text tokens per 1M; 128,000 context window)" },
  // GPT-4 Turbo preview (1106): $10 in, $30 out, 128,000 window; no prompt caching on this model, so cached = input.
  { prefix: "gpt-4-1106-preview", provider_family: "openai", input_per_mtok: 10, cache_read_per_mtok: 10, cache_write_multiplier: 1, output_per_mtok: 30, context_window: 128_000, cache_ttl_seconds: OPENAI_TTL, source: "developers.openai.com/api/docs/models/gpt-4-turbo-preview ($10/$30 per 1M; 128,000 window; not in the prompt-caching model list); corpus MANIFEST: SWE-agent's recorded cost matches $10/$30" },
];

/**
 * Fallback when the model is unknown or absent: the cost model's seed prices (P_input 3.0,
 * P_cache 0.30, P_out 15.0 per 10^6, M 200,000 — issue 4) with the provider's own cache rules.
 */
export function fallbackPrice(provider: Provider): ModelPrice {
  const anthropic = provider === "anthropic";
  return {
    prefix: "",
    provider_family: anthropic ? "anthropic" : "openai",
    input_per_mtok: 3,
    cache_read_per_mtok: 0.3,
    cache_write_multiplier: anthropic ? 1.25 : 1,
    output_per_mtok: 15,
    context_window: 200_000,
    cache_ttl_seconds: anthropic ? ANTHROPIC_TTL : OPENAI_TTL,
    source: "seed defaults of the cost model (issue 4); cache rules of the provider",
  };
}
