/**
 * The prompt-cache regime a request runs under (pure): whether the provider caches its prefix,
 * how long a cached prefix lives without use, and what writing it again costs — from the
 * model's price row (./prices.ts) and the request's own cache facts (../facts/cache-facts.ts).
 * The cost model prices a step's rewrite at this write price and takes the cache as cold (the
 * step's rewrite free) once the session has been idle this long (../policy/take-step.ts).
 *
 * Rules, per the row's `prompt_cache` kind:
 * 1. `none` (models before gpt-4o): nothing is cached; every input token is plain input.
 * 2. `anthropic-breakpoints`: the lifetime and the write price are those of the request's last
 *    marker — it ends the stretch a step rewrites (everything from the first edit to the previous
 *    call's end) — 1 hour and 2× input for `ttl: "1h"`, else 5 minutes and 1.25×
 *    (platform.claude.com pricing: "5m cache writes", "1h cache writes"; prompt-caching: "The
 *    cache has a 5-minute lifetime"). A 1-hour marker after a 5-minute one is refused by the API,
 *    so the last marker has the shortest TTL. A request without any marker is priced as a
 *    5-minute one: the API caches nothing for it, but pricing it uncached (every removed token
 *    saving full input on every later call) would change the decisions on every marker-less
 *    fixture the pipeline tests replay; docs/dev/decisions/cost-regime-ttl.md.
 * 3. `openai-prefix-128` (automatic caching before GPT-5.6): cached, no write fee; 5 minutes
 *    (in-memory retention "typically clears caches within 5 to 10 minutes of inactivity": the
 *    lower bound) or 24 hours with `prompt_cache_retention: "24h"` (OpenAI prompt-caching guide).
 * 4. `openai-breakpoints` (GPT-5.6+): writes at the row's 1.25×; `prompt_cache_options.ttl`
 *    ("30m", the only value the API takes) or the row's 30-minute default; in explicit mode a
 *    request without a `prompt_cache_breakpoint` caches nothing (openai SDK 6.49
 *    PromptCacheOptions: "If there are no explicit breakpoints, the request does not use prompt
 *    caching").
 * Without cache facts (a view built without its bytes) the row's defaults apply (cached, the
 * row's TTL and 5-minute write multiple).
 */
import type { CacheFacts } from "../facts/cache-facts";
import type { ModelPrice } from "./prices";

/** How the provider caches one request's prefix. */
export interface CacheRegime {
  /** The provider caches this request's prefix (false: every input token is billed as plain input). */
  cached: boolean;
  /** Seconds a cached prefix lives without use: idle at least this long, the rewrite a step causes is free. 0 when nothing is cached. */
  ttl_seconds: number;
  /** Price of a cache write as a multiple of the input price (1 when nothing is cached: the tokens are plain input either way). */
  write_multiplier: number;
  /** USD per 10^6 tokens a later call pays for a token it reads from the cache (the input price when nothing is cached). */
  read_per_mtok: number;
}

const FIVE_MINUTES_S = 300;
const ONE_HOUR_S = 3_600;
const DAY_S = 86_400;

/** The regime of a request to `price`'s model with cache facts `cache` (module header); `cache` absent: the row's defaults. */
export function cacheRegime(price: ModelPrice, cache: CacheFacts | null | undefined): CacheRegime {
  const uncached: CacheRegime = { cached: false, ttl_seconds: 0, write_multiplier: 1, read_per_mtok: price.input_per_mtok };
  const cached = (ttl_seconds: number, write_multiplier: number): CacheRegime => ({ cached: true, ttl_seconds, write_multiplier, read_per_mtok: price.cache_read_per_mtok });
  switch (price.prompt_cache) {
    case "none":
      return uncached;
    case "anthropic-breakpoints": {
      if (!cache || cache.markers.length === 0) return cached(price.cache_ttl_seconds, price.cache_write_multiplier);
      const last = cache.marker_ttls?.[cache.marker_ttls.length - 1];
      const hour = last !== undefined ? last >= ONE_HOUR_S * 1000 : cache.ttl_ms !== null && cache.ttl_ms >= ONE_HOUR_S * 1000;
      return hour ? cached(ONE_HOUR_S, price.cache_write_1h_multiplier) : cached(FIVE_MINUTES_S, price.cache_write_multiplier);
    }
    case "openai-prefix-128":
      return cached(cache?.openai?.retention === "24h" ? DAY_S : price.cache_ttl_seconds, price.cache_write_multiplier);
    case "openai-breakpoints": {
      const o = cache?.openai;
      if (o && o.mode === "explicit" && o.breakpoints.length === 0) return uncached;
      return cached(o?.ttl_ms != null ? o.ttl_ms / 1000 : price.cache_ttl_seconds, price.cache_write_multiplier);
    }
    default: {
      const never: never = price.prompt_cache;
      throw new Error(`unknown prompt cache kind ${String(never)}`);
    }
  }
}
