/**
 * Breakpoint prompt cache (pure except for the store it is given): Anthropic's model, also used
 * for OpenAI's GPT-5.6+ explicit/implicit breakpoints.
 *
 * Rules (Anthropic: platform.claude.com/docs/en/build-with-claude/prompt-caching):
 * 1. Entries exist only at breakpoints: a request writes the prefix ending at each breakpoint
 *    whose prefix is at least `minTokens` long.
 * 2. Reads: from each breakpoint the system looks back at most `lookbackBlocks` block boundaries
 *    (20 for Anthropic, the breakpoint itself included) for a live entry; the longest hit wins.
 *    OpenAI GPT-5.6 has no lookback limit but considers only the latest 80 breakpoints written in
 *    the conversation (`matchBreakpoints`: openai SDK 6.49 PromptCacheOptions, "For cache
 *    matching, OpenAI considers up to the latest 80 breakpoints in the conversation, without a
 *    content-block lookback limit").
 * 3. A hit refreshes its entry's TTL from `now`; an entry is live while `now < expiresAt`.
 * 4. Tokens between the read point and each written breakpoint are cache writes, bucketed by the
 *    TTL of the breakpoint that ends them; the rest is uncached input.
 */
import { HOUR_MS, type PromptBlock } from "./prompt-block";

export interface CacheEntry {
  /** Epoch ms after which the entry is gone. */
  expiresAt: number;
  /** Lifetime given on write, reapplied on every hit. */
  ttlMs: number;
}

/** Prefix hash → entry. One store per API key (prefix hashes already include the model). */
export type CacheStore = Map<string, CacheEntry>;

export interface BreakpointCacheOptions {
  /** Block boundaries examined per breakpoint, the breakpoint included (Anthropic: 20). */
  lookbackBlocks: number;
  /** Minimum prefix length, in tokens, for a breakpoint to be written. */
  minTokens: number;
  /** Only the latest this many entries along the prompt (written breakpoints, live or not) are matched; absent: all. */
  matchBreakpoints?: number;
}

export interface BreakpointCacheResult {
  total: number;
  /** Tokens read from the cache. */
  read: number;
  /** Tokens written with a TTL under one hour. */
  write5m: number;
  /** Tokens written with a TTL of one hour or more. */
  write1h: number;
  /** total − read − writes. */
  uncached: number;
}

/** Applies one request to the store at time `now` and returns its token split. */
export function applyBreakpointCache(
  blocks: readonly PromptBlock[],
  store: CacheStore,
  now: number,
  opts: BreakpointCacheOptions,
): BreakpointCacheResult {
  const cum: number[] = [];
  let t = 0;
  for (const b of blocks) cum.push((t += b.tokens));
  const total = t;
  const live = (i: number) => {
    const e = store.get(blocks[i]!.prefixHash);
    return e !== undefined && now < e.expiresAt;
  };
  const breakpoints = blocks.flatMap((b, i) => (b.breakpointTtlMs === null ? [] : [i]));
  // The entries a read may match: every one, or the latest `matchBreakpoints` along the prompt.
  const lastBp = breakpoints.length === 0 ? -1 : breakpoints[breakpoints.length - 1]!;
  const stored = opts.matchBreakpoints === undefined ? null : blocks.flatMap((b, i) => (i <= lastBp && store.has(b.prefixHash) ? [i] : []));
  const matchable = stored === null ? null : new Set(stored.slice(-opts.matchBreakpoints!));

  // 1. Read: longest live entry within the lookback window of any breakpoint.
  let readIdx = -1;
  for (const bp of breakpoints) {
    const floor = Math.max(0, bp - opts.lookbackBlocks + 1);
    for (let j = bp; j >= floor && j > readIdx; j--) {
      if (live(j) && (matchable === null || matchable.has(j))) {
        readIdx = j;
        break;
      }
    }
  }
  if (readIdx >= 0) {
    const e = store.get(blocks[readIdx]!.prefixHash)!;
    e.expiresAt = now + e.ttlMs;
  }
  const read = readIdx >= 0 ? cum[readIdx]! : 0;

  // 2. Write: every breakpoint past the read point whose prefix reaches the minimum.
  let covered = read;
  let write5m = 0;
  let write1h = 0;
  for (const bp of breakpoints) {
    if (bp <= readIdx || cum[bp]! < opts.minTokens) continue;
    const ttl = blocks[bp]!.breakpointTtlMs!;
    const written = cum[bp]! - covered;
    if (ttl >= HOUR_MS) write1h += written;
    else write5m += written;
    covered = cum[bp]!;
    store.set(blocks[bp]!.prefixHash, { expiresAt: now + ttl, ttlMs: ttl });
  }
  return { total, read, write5m, write1h, uncached: total - read - write5m - write1h };
}
