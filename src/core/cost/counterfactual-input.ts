/**
 * The savings ledger's pricing (pure): what the provider bills for a call's input, split into
 * uncached input, cache reads and cache writes, and what it would have billed for a body Sluice
 * did not send (the counterfactual), from that body's size, the prefix it shares with the
 * session's previous body of the same world, the time since it, and the session's cache use.
 *
 * The counterfactual cache model, per the price row's `prompt_cache` kind (./prices.ts):
 * - the previous body's prefix is in the cache when the gap is under `cache_ttl_seconds`
 *   (entries live that long after their last use; the previous call used them) and the
 *   session uses the cache;
 * - `anthropic-breakpoints` / `openai-breakpoints`: the breakpoint sits on the newest block (the
 *   client moves it on every call), so the shared prefix is read when it reaches
 *   `min_cache_tokens`, and the rest is written at `cache_write_multiplier` when the whole body
 *   reaches it (platform.claude.com prompt caching: "minimum cacheable prompt length"; below it
 *   nothing is cached);
 * - `openai-prefix-128`: a body of at least `min_cache_tokens` (1,024) reads the shared prefix
 *   in whole 128-token increments, and pays plain input for the rest (no write fee;
 *   developers.openai.com prompt-caching guide);
 * - `none`, or a session that does not use the cache: everything is plain input.
 * Above a row's long-context size every token is billed at the long-context rates.
 * The same pricing applies to what the provider reported, so both sides of the ledger are
 * priced alike.
 */
import type { ModelPrice } from "./prices";

/** Input tokens of one call as the provider bills them (provider tokens). */
export interface InputSplit {
  /** Uncached input tokens (base price). */
  input: number;
  /** Tokens read from the prompt cache. */
  cache_read: number;
  /** Tokens written to the prompt cache (at `cache_write_multiplier`). */
  cache_write: number;
}

/** What the counterfactual needs to know of one body. */
export interface CounterfactualCall {
  /** Provider tokens of the whole body. */
  total_tokens: number;
  /** Provider tokens of the prefix it shares with the session's previous body (0 when none). */
  shared_tokens: number;
  /** Seconds since the previous body was sent, or null for the session's first call. */
  gap_seconds: number | null;
  /** Whether the session uses the prompt cache (it reported a cache read or write, or marks breakpoints). */
  caching: boolean;
}

/** OpenAI's automatic cache reports hits in whole increments of this many tokens. */
export const PREFIX_CACHE_INCREMENT = 128;

/**
 * The split the provider would bill for `c` under `price`'s cache rules (module header). Tokens
 * in, tokens out; shared tokens above the total count as the total.
 */
export function counterfactualSplit(c: CounterfactualCall, price: ModelPrice): InputSplit {
  const total = Math.max(0, c.total_tokens);
  const plain: InputSplit = { input: total, cache_read: 0, cache_write: 0 };
  if (!c.caching || price.prompt_cache === "none") return plain;
  const live = c.gap_seconds !== null && c.gap_seconds < price.cache_ttl_seconds;
  const shared = live ? Math.min(total, Math.max(0, c.shared_tokens)) : 0;
  const min = price.min_cache_tokens;
  if (price.prompt_cache === "openai-prefix-128") {
    const read = total >= min && shared >= min ? Math.floor(shared / PREFIX_CACHE_INCREMENT) * PREFIX_CACHE_INCREMENT : 0;
    return { input: total - read, cache_read: read, cache_write: 0 };
  }
  const read = shared >= min ? shared : 0;
  const write = total >= min ? total - read : 0;
  return { input: total - read - write, cache_read: read, cache_write: write };
}

/**
 * USD of an input split at `price`: input at `input_per_mtok`, reads at `cache_read_per_mtok`,
 * writes at `input_per_mtok × cache_write_multiplier`; when the prompt (all three) exceeds the
 * row's long-context size, input and reads at the long-context rates (writes at the multiple of
 * the long-context input price).
 */
export function inputCostUsd(s: InputSplit, price: ModelPrice): number {
  const lc = price.long_context !== null && s.input + s.cache_read + s.cache_write > price.long_context.above_prompt_tokens ? price.long_context : null;
  const input = lc ? lc.input_per_mtok : price.input_per_mtok;
  const read = lc ? lc.cache_read_per_mtok : price.cache_read_per_mtok;
  return (s.input * input + s.cache_read * read + s.cache_write * input * price.cache_write_multiplier) / 1e6;
}

/**
 * Our estimate of a body's tokens scaled to the provider's count: `estimated × ratio`, where
 * `ratio` is the session's calibration (provider-reported ÷ estimated input tokens over its
 * reports; 1 before any). One function, so a better calibration can replace it.
 */
export function toProviderTokens(estimated: number, ratio: number | null): number {
  return estimated * (ratio !== null && Number.isFinite(ratio) && ratio > 0 ? ratio : 1);
}

/** Which body went upstream for a call. */
export type Forwarded = "edited" | "measured" | "original";

/** One priced call of the savings ledger. */
export interface LedgerCall {
  /** USD of the input the provider reported for the body that went (inputCostUsd of its usage). */
  actual_usd: number;
  /** The client's body as the provider's cache would see it (./ledger-tokens.ts gives the tokens). */
  original: CounterfactualCall;
  /** The body Sluice sent or, measuring, would have sent. */
  sent: CounterfactualCall;
  /** `edited`: Sluice's body went (compact mode); `measured`: the client's went, Sluice's would have differed (measure mode); `original`: the client's went and nothing differed. */
  forwarded: Forwarded;
}

/**
 * The input cost of one call without and with Sluice, USD. The side that went upstream is the
 * provider's own bill (`actual_usd`: a step's cache writes are in it); the other side is the
 * body that did not go, priced with the session's cache behaviour (counterfactualSplit):
 * - edited: without = cost(original), with = actual;
 * - measured: without = actual, with = cost(sent);
 * - original: both = actual.
 */
export function ledgerCosts(c: LedgerCall, price: ModelPrice): { without_usd: number; with_usd: number } {
  if (c.forwarded === "edited") return { without_usd: inputCostUsd(counterfactualSplit(c.original, price), price), with_usd: c.actual_usd };
  if (c.forwarded === "measured") return { without_usd: c.actual_usd, with_usd: inputCostUsd(counterfactualSplit(c.sent, price), price) };
  return { without_usd: c.actual_usd, with_usd: c.actual_usd };
}
