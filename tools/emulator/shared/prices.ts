/**
 * Model price table (data, pure). USD per million tokens; lookup by longest model-id prefix, so
 * dated ids (`claude-opus-4-20250514`, `gpt-4o-2024-08-06`) resolve to their family. Sources are
 * listed per row; unknown models get the documented defaults below and `known: false`.
 */

/** Anthropic cache multipliers on the base input price (platform.claude.com/docs/en/build-with-claude/prompt-caching#pricing). */
export const ANTHROPIC_RATIOS = { write5m: 1.25, write1h: 2, read: 0.1 } as const;

/** OpenAI cache-write multiplier from the GPT-5.6 family on (developers.openai.com/api/docs/guides/prompt-caching). */
export const OPENAI_WRITE_RATIO_56 = 1.25;

export interface AnthropicPrice {
  provider: "anthropic";
  /** Model-id prefix this row applies to. */
  prefix: string;
  input: number;
  output: number;
  /** Minimum cacheable prompt length in tokens. */
  minCacheTokens: number;
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
  known: boolean;
}

/**
 * Anthropic rows. Prices: platform.claude.com/docs/en/about-claude/pricing (Opus 4/4.1 $15/$75;
 * Opus 4.5/4.6 $5/$25; Sonnet 4.x $3/$15; Haiku 4.5 $1/$5; Haiku 3.5 $0.80/$4). Minimum cacheable
 * lengths: the prompt-caching doc as quoted in anthropics/anthropic-sdk-python#1194 (4096 Opus
 * 4.5/4.6 and Haiku 4.5; 1024 Sonnet 4.x, Opus 4/4.1, Sonnet 3.7; 2048 Haiku 3.5).
 */
export const ANTHROPIC_PRICES: readonly AnthropicPrice[] = [
  { provider: "anthropic", prefix: "claude-opus-4-6", input: 5, output: 25, minCacheTokens: 4096, known: true },
  { provider: "anthropic", prefix: "claude-opus-4-5", input: 5, output: 25, minCacheTokens: 4096, known: true },
  { provider: "anthropic", prefix: "claude-opus-4-1", input: 15, output: 75, minCacheTokens: 1024, known: true },
  { provider: "anthropic", prefix: "claude-opus-4", input: 15, output: 75, minCacheTokens: 1024, known: true },
  { provider: "anthropic", prefix: "claude-sonnet-4-6", input: 3, output: 15, minCacheTokens: 1024, known: true },
  { provider: "anthropic", prefix: "claude-sonnet-4-5", input: 3, output: 15, minCacheTokens: 1024, known: true },
  { provider: "anthropic", prefix: "claude-sonnet-4", input: 3, output: 15, minCacheTokens: 1024, known: true },
  { provider: "anthropic", prefix: "claude-3-7-sonnet", input: 3, output: 15, minCacheTokens: 1024, known: true },
  { provider: "anthropic", prefix: "claude-haiku-4-5", input: 1, output: 5, minCacheTokens: 4096, known: true },
  { provider: "anthropic", prefix: "claude-3-5-haiku", input: 0.8, output: 4, minCacheTokens: 2048, known: true },
];

/** Unknown Claude model: Sonnet-class price and minimum (the corpus's Claude Code sessions record no model). */
export const ANTHROPIC_DEFAULT: AnthropicPrice = { provider: "anthropic", prefix: "", input: 3, output: 15, minCacheTokens: 1024, known: false };

/**
 * OpenAI rows. Sources: developers.openai.com/api/docs/models/* and /pricing — gpt-4o $2.50/$1.25/$10,
 * gpt-4o-mini $0.15/$0.075/$0.60, GPT-5/5.1 (+codex) $1.25/$0.125/$10, gpt-5-mini $0.25/$0.025/$2,
 * gpt-4-turbo/1106 $10/$30 (no prompt caching: "enabled for all recent models, gpt-4o and newer"),
 * GPT-5.6 Sol $5/$0.50/$30, Terra $2/$0.20/$12, Luna $0.20/$0.02/$1.20 (rates from 2026-07-30,
 * docs.laozhang.ai/en/announcements/gpt-5-6-pricing-2026-07), writes 1.25× input.
 */
export const OPENAI_PRICES: readonly OpenAiPrice[] = [
  row("gpt-4o-mini", 0.15, 0.075, 0.6, "prefix-128"),
  row("gpt-4o", 2.5, 1.25, 10, "prefix-128"),
  row("gpt-4-turbo", 10, 10, 30, "none"),
  row("gpt-4-1106-preview", 10, 10, 30, "none"),
  row("gpt-4-0125-preview", 10, 10, 30, "none"),
  row("gpt-5-mini", 0.25, 0.025, 2, "prefix-128"),
  row("gpt-5.1", 1.25, 0.125, 10, "prefix-128"),
  row("gpt-5", 1.25, 0.125, 10, "prefix-128"),
  row("gpt-5.6-sol", 5, 0.5, 30, "breakpoints"),
  row("gpt-5.6-terra", 2, 0.2, 12, "breakpoints"),
  row("gpt-5.6-luna", 0.2, 0.02, 1.2, "breakpoints"),
  row("gpt-5.6", 5, 0.5, 30, "breakpoints"),
];

/** Unknown OpenAI model: GPT-5.1-class price with automatic 128-token caching and no write premium. */
export const OPENAI_DEFAULT: OpenAiPrice = { ...row("", 1.25, 0.125, 10, "prefix-128"), known: false };

function row(prefix: string, input: number, cachedInput: number, output: number, cache: OpenAiCacheKind): OpenAiPrice {
  const cacheWrite = cache === "breakpoints" ? input * OPENAI_WRITE_RATIO_56 : input;
  return { provider: "openai", prefix, input, cachedInput, cacheWrite, output, cache, known: true };
}

function longestPrefix<T extends { prefix: string }>(rows: readonly T[], model: string): T | undefined {
  let best: T | undefined;
  for (const r of rows) if (model.startsWith(r.prefix) && (!best || r.prefix.length > best.prefix.length)) best = r;
  return best;
}

/** Price row for a Claude model id (default row when unknown). */
export function anthropicPrice(model: string): AnthropicPrice {
  return longestPrefix(ANTHROPIC_PRICES, model) ?? ANTHROPIC_DEFAULT;
}

/**
 * Price row for an OpenAI model id. Unknown ids of the GPT-5.6+ generation (`gpt-5.7…`, `gpt-6…`)
 * get the default price but breakpoint caching with the 1.25× write premium.
 */
export function openaiPrice(model: string): OpenAiPrice {
  const hit = longestPrefix(OPENAI_PRICES, model);
  if (hit) return hit;
  const v = /^gpt-(\d+)(?:\.(\d+))?/.exec(model);
  if (v && (Number(v[1]) > 5 || (Number(v[1]) === 5 && Number(v[2] ?? 0) >= 6))) {
    return { ...OPENAI_DEFAULT, cache: "breakpoints", cacheWrite: OPENAI_DEFAULT.input * OPENAI_WRITE_RATIO_56 };
  }
  return OPENAI_DEFAULT;
}
