/**
 * Applies the right OpenAI cache model for a model's price row (pure except for the store):
 * none (models before gpt-4o), automatic 128-token prefix caching, or GPT-5.6+ breakpoints.
 */
import { applyBreakpointCache, type CacheStore } from "./breakpoint-cache";
import type { Json } from "./json";
import { prefixCacheTtl } from "./openai-cache-policy";
import { applyPrefixCache, OPENAI_MIN_CACHE_TOKENS } from "./prefix128-cache";

/** GPT-5.6+: the latest breakpoints of a conversation a read considers (openai SDK 6.49 PromptCacheOptions). */
export const OPENAI_MATCHED_BREAKPOINTS = 80;
import type { OpenAiPrice } from "./prices";
import { totalTokens, type PromptBlock } from "./prompt-block";

export interface OpenAiCacheResult {
  total: number;
  /** cached_tokens */
  cached: number;
  /** cache_write_tokens (GPT-5.6+ only; 0 before). */
  written: number;
}

export function applyOpenAiCache(blocks: readonly PromptBlock[], price: OpenAiPrice, body: Json, store: CacheStore, now: number): OpenAiCacheResult {
  switch (price.cache) {
    case "none":
      return { total: totalTokens(blocks), cached: 0, written: 0 };
    case "prefix-128": {
      const r = applyPrefixCache(blocks, store, now, prefixCacheTtl(body));
      return { total: r.total, cached: r.cached, written: 0 };
    }
    case "breakpoints": {
      const r = applyBreakpointCache(blocks, store, now, { lookbackBlocks: Number.POSITIVE_INFINITY, minTokens: OPENAI_MIN_CACHE_TOKENS, matchBreakpoints: OPENAI_MATCHED_BREAKPOINTS });
      return { total: r.total, cached: r.read, written: r.write5m + r.write1h };
    }
    default: {
      const never: never = price.cache;
      throw new Error(`unknown cache kind ${String(never)}`);
    }
  }
}
