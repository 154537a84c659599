/**
 * The emulator's view of the model price table (pure). The numbers live in one place,
 * src/core/cost/prices.ts (with a source per row), shared with Sluice's own cost model; this
 * module only adapts a row to the shape billing needs. USD per million tokens. Unknown models get
 * the defaults below and `known: false` (the response then carries `x-emulator-warning`).
 */
import { matchPriceRow, windowWithBetas } from "../../../src/core/cost/find-model-price";
import { fallbackPrice, MODEL_PRICES, type BetaWindow, type LongContextPrice, type ModelPrice } from "../../../src/core/cost/prices";

export interface AnthropicPrice {
  provider: "anthropic";
  /** Model-id prefix of the row (empty for the default). */
  prefix: string;
  input: number;
  output: number;
  /** Price of a cache read (not always 0.1× input: Fable 5.1+ 0.025×, Opus/Sonnet 5.5 0.05×). */
  cacheRead: number;
  /** 5-minute and 1-hour cache write prices as multiples of `input`. */
  write5mRatio: number;
  write1hRatio: number;
  /** Minimum cacheable prompt length in tokens. */
  minCacheTokens: number;
  /** Rates for prompts above a size (Haiku 5.5, Sonnet 4/4.5 with the 1M beta), or null. */
  longContext: LongContextPrice | null;
  /** Context window without a beta, and the betas that extend it (`anthropicWindow`). */
  contextWindow: number;
  betaWindows: readonly BetaWindow[];
  /** False for the default row used for unknown models. */
  known: boolean;
}

/** How an OpenAI model caches: no caching, automatic 128-token prefix caching, or GPT-5.6 breakpoints. */
export type OpenAiCacheKind = "none" | "prefix-128" | "breakpoints";

export interface OpenAiPrice {
  provider: "openai";
  prefix: string;
  input: number;
  /** Price of a cache read (cached input); unused when `cache` is "none". */
  cachedInput: number;
  /** Price of a cache write; equals `input` (no premium) before GPT-5.6. */
  cacheWrite: number;
  output: number;
  cache: OpenAiCacheKind;
  /** Rates above a prompt size (GPT-6.x above 272K input tokens; writes at `cacheWrite / input` times its input), or null. */
  longContext: LongContextPrice | null;
  /** Context window, tokens: a prompt over it is refused (`context_length_exceeded`). */
  contextWindow: number;
  known: boolean;
}

function toAnthropic(row: ModelPrice, known: boolean): AnthropicPrice {
  return {
    provider: "anthropic",
    prefix: row.prefix,
    input: row.input_per_mtok,
    output: row.output_per_mtok,
    cacheRead: row.cache_read_per_mtok,
    write5mRatio: row.cache_write_multiplier,
    write1hRatio: row.cache_write_1h_multiplier,
    minCacheTokens: row.min_cache_tokens,
    longContext: row.long_context,
    contextWindow: row.context_window,
    betaWindows: row.beta_windows,
    known,
  };
}

const OPENAI_CACHE: Record<string, OpenAiCacheKind> = { "openai-prefix-128": "prefix-128", "openai-breakpoints": "breakpoints", none: "none" };

function toOpenAi(row: ModelPrice, known: boolean): OpenAiPrice {
  return {
    provider: "openai",
    prefix: row.prefix,
    input: row.input_per_mtok,
    cachedInput: row.cache_read_per_mtok,
    cacheWrite: row.input_per_mtok * row.cache_write_multiplier,
    output: row.output_per_mtok,
    cache: OPENAI_CACHE[row.prompt_cache] ?? "prefix-128",
    longContext: row.long_context,
    contextWindow: row.context_window,
    known,
  };
}

/** Anthropic rows of the shared table. */
export const ANTHROPIC_PRICES: readonly AnthropicPrice[] = MODEL_PRICES.filter((r) => r.provider_family === "anthropic").map((r) => toAnthropic(r, true));
/** OpenAI rows of the shared table. */
export const OPENAI_PRICES: readonly OpenAiPrice[] = MODEL_PRICES.filter((r) => r.provider_family === "openai").map((r) => toOpenAi(r, true));

/** Unknown Claude model: the cost model's seed row (Sonnet-class $3/$15, 1024-token minimum). */
export const ANTHROPIC_DEFAULT: AnthropicPrice = toAnthropic(fallbackPrice("anthropic"), false);

/** Unknown OpenAI model: the GPT-5.1 row's price with automatic 128-token caching and no write premium. */
export const OPENAI_DEFAULT: OpenAiPrice = { ...toOpenAi(matchPriceRow("gpt-5.1")!, false), prefix: "" };

/** Price row for a Claude model id (default row when unknown). */
export function anthropicPrice(model: string): AnthropicPrice {
  const row = matchPriceRow(model);
  return row && row.provider_family === "anthropic" ? toAnthropic(row, true) : ANTHROPIC_DEFAULT;
}

/**
 * Price row for an OpenAI model id. Unknown ids of the GPT-5.6+ generation (`gpt-5.7…`, `gpt-6…`)
 * get the default price but breakpoint caching with the 1.25× write premium.
 */
export function openaiPrice(model: string): OpenAiPrice {
  const row = matchPriceRow(model);
  if (row && row.provider_family === "openai") return toOpenAi(row, true);
  const v = /^gpt-(\d+)(?:\.(\d+))?/.exec(model);
  if (v && (Number(v[1]) > 5 || (Number(v[1]) === 5 && Number(v[2] ?? 0) >= 6))) {
    return { ...OPENAI_DEFAULT, cache: "breakpoints", cacheWrite: OPENAI_DEFAULT.input * 1.25 };
  }
  return OPENAI_DEFAULT;
}

/**
 * The context window of an Anthropic price row with the request's `anthropic-beta` values (a beta
 * such as `context-1m-2025-08-07` extends Sonnet 4 / 4.5 to 1M), tokens. Same rule as Sluice's
 * own (src/core/cost/find-model-price.ts windowWithBetas).
 */
export function anthropicWindow(p: AnthropicPrice, betas: readonly string[]): number {
  return windowWithBetas({ context_window: p.contextWindow, beta_windows: p.betaWindows }, betas);
}
