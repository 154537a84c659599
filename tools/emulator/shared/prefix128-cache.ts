/**
 * OpenAI automatic prefix cache before GPT-5.6 (pure except for the store it is given).
 *
 * Rules (developers.openai.com/api/docs/guides/prompt-caching; OpenAI cookbook "Prompt Caching 201"):
 * 1. Only prompts of at least 1024 tokens are cached; every such request caches its whole prefix
 *    (no breakpoints, no write fee).
 * 2. A hit is the longest cached prefix shared with this prompt, reported in increments of 128
 *    tokens: cached = ⌊common / 128⌋ × 128, and 0 when common < 1024.
 * 3. Entries live `ttlMs` after their last use (in-memory retention: cleared after 5–10 minutes
 *    of inactivity; the emulator uses 5 minutes, or 24 h with `prompt_cache_retention: "24h"`).
 * The emulator matches at block boundaries (a message, an item, a tool), not inside a block.
 */
import type { CacheStore } from "./breakpoint-cache";
import type { PromptBlock } from "./prompt-block";

/** Minimum prompt length, and granularity of hits (tokens). */
export const OPENAI_MIN_CACHE_TOKENS = 1024;
export const OPENAI_CACHE_INCREMENT = 128;

export interface PrefixCacheResult {
  total: number;
  /** Tokens served from the cache (prompt_tokens_details.cached_tokens). */
  cached: number;
}

/** Applies one request to the store at time `now`. */
export function applyPrefixCache(blocks: readonly PromptBlock[], store: CacheStore, now: number, ttlMs: number): PrefixCacheResult {
  let total = 0;
  for (const b of blocks) total += b.tokens;
  if (total < OPENAI_MIN_CACHE_TOKENS) return { total, cached: 0 };

  let common = 0;
  let t = 0;
  for (const b of blocks) {
    t += b.tokens;
    const e = store.get(b.prefixHash);
    if (e !== undefined && now < e.expiresAt) common = t;
  }
  const cached = common >= OPENAI_MIN_CACHE_TOKENS ? Math.floor(common / OPENAI_CACHE_INCREMENT) * OPENAI_CACHE_INCREMENT : 0;

  for (const b of blocks) store.set(b.prefixHash, { expiresAt: now + ttlMs, ttlMs });
  return { total, cached };
}
