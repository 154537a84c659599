/**
 * Price table (pure data): USD per 10^6 tokens, cache prices, prompt-cache kind, context windows
 * (and the betas that extend them) per model, with the source of every number. The one source of
 * truth for Sluice's cost model (looked up by `findModelPrice`, ./find-model-price.ts) and for the
 * provider emulator's billing (tools/emulator/shared/prices.ts adapts these rows).
 *
 * Sources (checked for this table):
 * - Anthropic: platform.claude.com/docs/en/about-claude/pricing ("Model pricing": base input,
 *   5m cache writes = 1.25× input, 1h cache writes = 2× input, cache hits, output) and each
 *   model's page under platform.claude.com/docs/en/models/<model>/overview (context window,
 *   pricing); minimum cacheable lengths from the prompt-caching doc (quoted in
 *   anthropics/anthropic-sdk-python#1194 for the 4.x models; docs.litellm.ai prompt_caching for the
 *   5.x models). Cache reads are not always 0.1×: Fable 5.1/5.2 read at 0.025×, Opus 5.5 and
 *   Sonnet 5.5 at 0.05× (pricing page footnotes).
 * - OpenAI: developers.openai.com/api/docs/models/<model> pages ("Text tokens per 1M": input,
 *   cached input, output; "context window"). Before GPT-5.6 cache writes cost the input price
 *   ("no additional fees", developers.openai.com/api/docs/guides/prompt-caching); from GPT-5.6 on
 *   1.25× input. Cached prefixes stay 5–10 minutes without use, so 300 s is the conservative TTL.
 *   GPT-6.x: each model page lists "Cache writes" itself (1.25× input, for 30 minutes of
 *   retention), and "for requests with more than 272K input tokens, input and cache rates double
 *   and output costs 1.5 times the short-context rate for the full request"
 *   (developers.openai.com/api/docs/models/gpt-6.2-sol). The 12-hour write (2.5× input on
 *   gpt-6.2-sol) is not modelled: every write is billed at the 30-minute price.
 */
import type { Provider } from "../view/types";

/** How a model's prompt cache works (decides the emulator's cache semantics). */
export type PromptCacheKind = "anthropic-breakpoints" | "openai-prefix-128" | "openai-breakpoints" | "none";

/**
 * Prices of requests whose prompt exceeds a size: every token of such a request, output included,
 * is billed at these rates (Haiku 5.5 above 100,000 prompt tokens; Sonnet 4/4.5 above 200,000
 * with the 1M beta; GPT-6.x above 272,000 input tokens). Prompt = input + cache reads + cache
 * writes. Cache writes cost the row's multiple of the long-context input price.
 */
export interface LongContextPrice {
  /** The tier applies when the prompt has more than this many tokens. */
  above_prompt_tokens: number;
  input_per_mtok: number;
  cache_read_per_mtok: number;
  output_per_mtok: number;
}

/** A larger context window turned on by an `anthropic-beta` value. */
export interface BetaWindow {
  /** The `anthropic-beta` value, e.g. "context-1m-2025-08-07". */
  beta: string;
  /** Window with that beta, tokens. */
  context_window: number;
}

/** Prices and limits of one model family. */
export interface ModelPrice {
  /** Model id prefix this row matches (longest prefix ending at a separator wins), e.g. "claude-sonnet-4-5". */
  prefix: string;
  provider_family: "anthropic" | "openai";
  /** USD per 10^6 uncached input tokens (P_input). */
  input_per_mtok: number;
  /** USD per 10^6 cache-read input tokens (P_cache). */
  cache_read_per_mtok: number;
  /** Cache write price (5-minute TTL; OpenAI: every write) as a multiple of `input_per_mtok` (Anthropic 1.25, OpenAI 1 before GPT-5.6, 1.25 from it). */
  cache_write_multiplier: number;
  /** 1-hour cache write price as a multiple of `input_per_mtok` (Anthropic 2; OpenAI: same as `cache_write_multiplier`). */
  cache_write_1h_multiplier: number;
  /** USD per 10^6 output tokens (P_out). */
  output_per_mtok: number;
  /** Context window without any beta, tokens (M). */
  context_window: number;
  /** Betas that extend the window (see `contextWindow`, ./find-model-price.ts). */
  beta_windows: readonly BetaWindow[];
  /** Prompt-cache lifetime without use, seconds. */
  cache_ttl_seconds: number;
  /** Shortest prompt prefix the provider caches, tokens. */
  min_cache_tokens: number;
  prompt_cache: PromptCacheKind;
  /** Prices above a prompt size, or null when the model has one price at every size. */
  long_context: LongContextPrice | null;
  /** Where the numbers come from. */
  source: string;
}

const PRICING = "platform.claude.com/docs/en/about-claude/pricing (Model pricing)";
const ANTHROPIC_TTL = 300; // "The cache has a 5-minute lifetime" (prompt caching docs, default ttl)
const OPENAI_TTL = 300; // cached prefixes "remain active for 5 to 10 minutes of inactivity": take the lower bound
const OPENAI_56_TTL = 1800; // GPT-5.6 `prompt_cache_options.ttl` default 30 min (docs/emulator.md, OpenAI prompt-caching guide)
/** The 1M-token window beta of Sonnet 4 / 4.5 (platform.claude.com/docs/en/build-with-claude/context-windows). */
export const CONTEXT_1M_BETA = "context-1m-2025-08-07";
const M = 1_000_000;

function claude(prefix: string, input: number, output: number, cacheRead: number, window: number, minCache: number, source: string, extra: Partial<ModelPrice> = {}): ModelPrice {
  return {
    prefix,
    provider_family: "anthropic",
    input_per_mtok: input,
    cache_read_per_mtok: cacheRead,
    cache_write_multiplier: 1.25,
    cache_write_1h_multiplier: 2,
    output_per_mtok: output,
    context_window: window,
    beta_windows: [],
    cache_ttl_seconds: ANTHROPIC_TTL,
    min_cache_tokens: minCache,
    prompt_cache: "anthropic-breakpoints",
    long_context: null,
    source: `${PRICING}; ${source}`,
    ...extra,
  };
}

function openai(prefix: string, input: number, cachedInput: number, output: number, window: number, cache: "openai-prefix-128" | "openai-breakpoints" | "none", source: string, long_context: LongContextPrice | null = null): ModelPrice {
  const write = cache === "openai-breakpoints" ? 1.25 : 1;
  return {
    prefix,
    provider_family: "openai",
    input_per_mtok: input,
    cache_read_per_mtok: cachedInput,
    cache_write_multiplier: write,
    cache_write_1h_multiplier: write,
    output_per_mtok: output,
    context_window: window,
    beta_windows: [],
    cache_ttl_seconds: cache === "openai-breakpoints" ? OPENAI_56_TTL : OPENAI_TTL,
    min_cache_tokens: 1024,
    prompt_cache: cache,
    long_context,
    source,
  };
}

/** GPT-6.x above 272K input tokens: input and cache rates ×2, output ×1.5, for the whole request (gpt-6.2-sol model page). */
function gpt6Long(input: number, cachedInput: number, output: number): LongContextPrice {
  return { above_prompt_tokens: 272_000, input_per_mtok: input * 2, cache_read_per_mtok: cachedInput * 2, output_per_mtok: output * 1.5 };
}

/** A GPT-6.x row: 1,050,000-token window, breakpoint caching with 1.25× writes, the long-context tier. */
function gpt6(prefix: string, input: number, cachedInput: number, output: number, source: string): ModelPrice {
  return openai(prefix, input, cachedInput, output, 1_050_000, "openai-breakpoints", source, gpt6Long(input, cachedInput, output));
}

const SONNET_4_1M = {
  beta_windows: [{ beta: CONTEXT_1M_BETA, context_window: M }],
  // "Long context pricing": prompts over 200K input tokens (only reachable with the 1M beta) cost $6 / $22.50.
  long_context: { above_prompt_tokens: 200_000, input_per_mtok: 6, cache_read_per_mtok: 0.6, output_per_mtok: 22.5 },
};

/** Every priced model. Order does not matter; the longest matching prefix wins. */
export const MODEL_PRICES: readonly ModelPrice[] = [
  // Fable / Mythos 5.2: $8 / $40, writes $10 / $16, reads $0.20 (0.025×); 1M window.
  claude("claude-fable-5-2", 8, 40, 0.2, M, 512, "models/fable-5-2/overview ($8/$40, cache read $0.20, 1M); also phuryn/claude-usage v1.5.7 (checked 2026-12-01)"),
  claude("claude-mythos-5-2", 8, 40, 0.2, M, 512, "models/fable-5-2 (Mythos 5.2 shares Fable 5.2's specs and pricing)"),
  // Fable / Mythos 5.1: $10 / $50, writes $12.50 / $20, reads $0.25 (0.025×); 1M; 512-token minimum.
  claude("claude-fable-5-1", 10, 50, 0.25, M, 512, "models/fable-5-1/whats-new-fable-5-1 (Pricing; 1M window; 512-token minimum)"),
  claude("claude-mythos-5-1", 10, 50, 0.25, M, 512, "models/fable-5-1/whats-new-fable-5-1 (Mythos 5.1 shares Fable 5.1's specs and pricing)"),
  // Fable / Mythos 5: $10 / $50, reads $1 (0.1×); 1M.
  claude("claude-fable-5", 10, 50, 1, M, 512, "models/fable-5/overview ($10/$50, 1M)"),
  claude("claude-mythos-5", 10, 50, 1, M, 512, "models/fable-5/overview (Mythos 5 shares Fable 5's pricing)"),
  // Opus 5.5: $4 / $20, writes $5 / $8, reads $0.20 (0.05×); 1M. Minimum as Opus 5 (not stated for 5.5).
  claude("claude-opus-5-5", 4, 20, 0.2, M, 512, "models/opus-5-5/overview ($4/$20, 5m $5, 1h $8, cache read $0.20, 1M)"),
  // Opus 5: $5 / $25, reads $0.50; 1M; 512-token minimum.
  claude("claude-opus-5", 5, 25, 0.5, M, 512, "models/opus-5/overview ($5/$25, cache read $0.50, 1M)"),
  // Sonnet 5.5: $2 / $10, writes $2.50 / $4, reads $0.10 (0.05×, cut from $0.20 on 2026-10-07); 1M. Minimum as Sonnet 5.
  claude("claude-sonnet-5-5", 2, 10, 0.1, M, 1024, "models/sonnet-5-5/overview ($2/$10, 1M); cache read $0.10 since 2026-10-07 (kurofune/claudit v1.9.2, TheKrush/PromptFuel v1.0.23)"),
  // Sonnet 5: $2 / $10 (the announced rise to $3/$15 was cancelled), reads $0.20; 1M.
  claude("claude-sonnet-5", 2, 10, 0.2, M, 1024, "models/sonnet-5/overview ($2/$10, cache read $0.20, 1M)"),
  // Haiku 5.5: $0.10 / $0.50, reads $0.01 up to 100K prompt tokens; $0.50 / $2.50, reads $0.05 above; 1M.
  claude("claude-haiku-5-5", 0.1, 0.5, 0.01, M, 512, "models/haiku-5-5/overview (From $0.10/$0.50; prompts over 100,000 tokens $0.50/$2.50, cache read $0.05; 1M)", {
    long_context: { above_prompt_tokens: 100_000, input_per_mtok: 0.5, cache_read_per_mtok: 0.05, output_per_mtok: 2.5 },
  }),
  // Opus 4.6–4.8: $5 / $25, reads $0.50; 1M window. Minimum 1024 from Opus 4.8 on, 4096 before.
  claude("claude-opus-4-8", 5, 25, 0.5, M, 1024, "models overview (Opus 4.8 $5/$25, 1M)"),
  claude("claude-opus-4-7", 5, 25, 0.5, M, 4096, "models overview (Opus 4.7 $5/$25, 1M)"),
  claude("claude-opus-4-6", 5, 25, 0.5, M, 4096, "pricing page row \"Claude Opus 4.6 | $5 | $6.25 | $10 | $0.50 | $25\"; 1M"),
  claude("claude-opus-4-5", 5, 25, 0.5, 200_000, 4096, "Opus 4.5 $5/$25, 200K"),
  // Opus 4 / 4.1: $15 / $75, reads $1.50; 200K.
  claude("claude-opus-4-1", 15, 75, 1.5, 200_000, 1024, "Opus 4.1 $15/$75, 200K"),
  claude("claude-opus-4", 15, 75, 1.5, 200_000, 1024, "Opus 4 $15/$75, 200K"),
  claude("claude-sonnet-4-6", 3, 15, 0.3, M, 1024, "Sonnet 4.6 $3/$15, 1M"),
  // Sonnet 4 / 4.5: $3 / $15, 200K; 1M with the context-1m beta, billed $6 / $22.50 above 200K.
  claude("claude-sonnet-4-5", 3, 15, 0.3, 200_000, 1024, "Sonnet 4.5 $3/$15, 200K (1M with context-1m-2025-08-07; long context pricing)", SONNET_4_1M),
  claude("claude-sonnet-4", 3, 15, 0.3, 200_000, 1024, "Sonnet 4 $3/$15, 200K (1M with context-1m-2025-08-07; long context pricing)", SONNET_4_1M),
  claude("claude-3-7-sonnet", 3, 15, 0.3, 200_000, 1024, "Sonnet 3.7 $3/$15, 200K"),
  claude("claude-haiku-4-5", 1, 5, 0.1, 200_000, 4096, "Haiku 4.5 $1/$5, 200K"),
  claude("claude-3-5-haiku", 0.8, 4, 0.08, 200_000, 2048, "Haiku 3.5 $0.80/$4, 200K"),
  // OpenAI.
  openai("gpt-5.1-codex-max", 1.25, 0.125, 10, 400_000, "openai-prefix-128", "developers.openai.com/api/docs/models/gpt-5.1-codex-max and /gpt-5-codex (Text tokens per 1M; 400,000 context window)"),
  openai("gpt-5.1", 1.25, 0.125, 10, 400_000, "openai-prefix-128", "developers.openai.com/api/docs/models/gpt-5.1 (Text tokens per 1M; 400,000 context window)"),
  openai("gpt-5-mini", 0.25, 0.025, 2, 400_000, "openai-prefix-128", "developers.openai.com/api/docs/models/gpt-5-mini (Text tokens per 1M; 400,000 context window)"),
  openai("gpt-5", 1.25, 0.125, 10, 400_000, "openai-prefix-128", "developers.openai.com/api/docs/models/gpt-5 (Text tokens per 1M; 400,000 context window)"),
  // GPT-5.6 (rates from 2026-07-30, docs.laozhang.ai/en/announcements/gpt-5-6-pricing-2026-07; window not in that source: GPT-5's 400,000 assumed).
  openai("gpt-5.6-sol", 5, 0.5, 30, 400_000, "openai-breakpoints", "GPT-5.6 Sol $5/$0.50/$30, writes 1.25× (docs.laozhang.ai gpt-5-6-pricing-2026-07; OpenAI prompt-caching guide)"),
  openai("gpt-5.6-terra", 2, 0.2, 12, 400_000, "openai-breakpoints", "GPT-5.6 Terra $2/$0.20/$12, writes 1.25× (same sources)"),
  openai("gpt-5.6-luna", 0.2, 0.02, 1.2, 400_000, "openai-breakpoints", "GPT-5.6 Luna $0.20/$0.02/$1.20, writes 1.25× (same sources)"),
  openai("gpt-5.6", 5, 0.5, 30, 400_000, "openai-breakpoints", "GPT-5.6 as Sol (same sources)"),
  // GPT-6.x: $/1M input, cached input, output; writes 1.25× input; 1,050,000 window; over 272K input ×2 / ×1.5.
  gpt6("gpt-6.2-sol", 2, 0.1, 10, "developers.openai.com/api/docs/models/gpt-6.2-sol (Input $2, Cached input $0.10, Cache writes $2.50, Output $10; 1,050,000 context window; >272K input: input and cache ×2, output ×1.5)"),
  gpt6("gpt-6.1-sol", 2, 0.1, 10, "developers.openai.com/api/docs/models/gpt-6.1-sol as quoted by amine123max/Codex-Manager 0.4.7 and KZCFG/AILSA-SubSwitch 1.0.0(g) (checked 2026-10-01: $2/$0.10/$10; over 272K $4/$0.20/$15); cache writes $2.50 (wavespeed.ai gpt-6.1-sol)"),
  gpt6("gpt-6.1-terra", 1, 0.05, 5, "docs.litellm.ai/blog/gpt-6-1-terra ($1/$0.05/$5; over 272K $2/$0.10/$7.50, per OpenAI)"),
  gpt6("gpt-6-sol", 2, 0.2, 10, "developers.openai.com/api/docs/models/gpt-6-sol (Input $2, Cached input $0.20, Cache writes $2.50, Output $10; 1,050,000 context window); long-context tier: the GPT-6 rule, not quoted on that page"),
  gpt6("gpt-6-astra", 10, 1, 50, "BerriAI/litellm discussion 39633, Day 0 GPT-6 Astra ($10/$50, cache reads $1, writes $12.50; 1,050,000 window; over 272K input ×2, output ×1.5)"),
  gpt6("gpt-6-luna", 0.1, 0.01, 0.5, "merefield/codexometer v0.18.4, from OpenAI's pricing of 2026-09-22 ($0.10 input, $0.01 cached, $0.125 writes, $0.50 output); window and long-context tier: the GPT-6 family's"),
  openai("gpt-4o-mini", 0.15, 0.075, 0.6, 128_000, "openai-prefix-128", "developers.openai.com/api/docs/models/gpt-4o-mini (Text tokens per 1M; 128,000 context window)"),
  openai("gpt-4o", 2.5, 1.25, 10, 128_000, "openai-prefix-128", "developers.openai.com/api/docs/models/gpt-4o (Text tokens per 1M; 128,000 context window)"),
  // No prompt caching before gpt-4o ("enabled for all recent models, gpt-4o and newer"), so cached = input.
  openai("gpt-4-turbo", 10, 10, 30, 128_000, "none", "developers.openai.com/api/docs/models/gpt-4-turbo ($10/$30 per 1M; 128,000 window)"),
  openai("gpt-4-1106-preview", 10, 10, 30, 128_000, "none", "developers.openai.com/api/docs/models/gpt-4-turbo-preview ($10/$30 per 1M; 128,000 window); corpus MANIFEST: SWE-agent's recorded cost matches $10/$30"),
  openai("gpt-4-0125-preview", 10, 10, 30, 128_000, "none", "developers.openai.com/api/docs/models/gpt-4-turbo-preview ($10/$30 per 1M; 128,000 window)"),
];

/**
 * Fallback when the model is unknown or absent: the cost model's seed prices (P_input 3.0,
 * P_cache 0.30, P_out 15.0 per 10^6, M 200,000: ./cost-defaults.ts) with the provider's own cache rules.
 */
export function fallbackPrice(provider: Provider): ModelPrice {
  const anthropic = provider === "anthropic";
  return {
    prefix: "",
    provider_family: anthropic ? "anthropic" : "openai",
    input_per_mtok: 3,
    cache_read_per_mtok: 0.3,
    cache_write_multiplier: anthropic ? 1.25 : 1,
    cache_write_1h_multiplier: anthropic ? 2 : 1,
    output_per_mtok: 15,
    context_window: 200_000,
    beta_windows: [],
    cache_ttl_seconds: anthropic ? ANTHROPIC_TTL : OPENAI_TTL,
    min_cache_tokens: 1024,
    prompt_cache: anthropic ? "anthropic-breakpoints" : "openai-prefix-128",
    long_context: null,
    source: "seed defaults of the cost model; cache rules of the provider",
  };
}
