/**
 * How much of the cached prefix a step's edit leaves readable (pure), on a provider that caches
 * only at breakpoints and reads back a bounded distance from them (Anthropic).
 *
 * Anthropic writes a cache entry only where a `cache_control` breakpoint ends a prefix, and a
 * request reads the longest live entry found by looking back at most 20 blocks from each of its
 * own breakpoints (platform.claude.com prompt caching; src/core/cache/diagnose-break.ts
 * LOOKBACK_BLOCKS). A client such as Claude Code moves its trailing breakpoint to the newest
 * message on every call, so entries exist near the end of the history (where recent calls ended)
 * and at its fixed breakpoints (tools, system, any message it marks every time) — not at every
 * message. A step that edits message e therefore keeps readable:
 * 1. everything before e when e lies within the look-back of the request's last breakpoint (an
 *    entry a recent call wrote just before e is found);
 * 2. else the prefix through the last fixed message breakpoint before e (its own entry), or
 *    only the tools and system when they carry a breakpoint, or nothing at all.
 * What is not readable is written again at the write price: the cost model's K
 * (./enumerate-cut-points.ts, ./net-benefit.ts term ②). Counted in messages (a message holds one
 * block or more), so the look-back is never under-stated. OpenAI caches every prefix (no reach
 * limit): there an edit keeps everything before it.
 */
import type { CacheFacts } from "../facts/cache-facts";
import type { PromptCacheKind } from "./prices";

/** Anthropic's look-back from a breakpoint, blocks (prompt caching doc), counted here in messages. */
export const LOOKBACK_MESSAGES = 20;

/** Where an edit leaves the cached prefix readable (module header). */
export interface CacheReach {
  /** Edits at or after this message index keep every message before them readable (rule 1). */
  lookback_from: number;
  /** Fixed message breakpoints (every marked message but the last), ascending: the prefix through each stays readable for a later edit (rule 2). */
  anchors: number[];
  /** Tokens outside the history (tools, system) an edit before `lookback_from` makes the next request write again: all of them when neither carries a breakpoint, else 0. */
  outside_rewritten: number;
}

/**
 * The reach of a request with `messages` history messages and `outside_tokens` outside them, or
 * null when edits keep everything before them readable (OpenAI, no cache facts, no breakpoint).
 */
export function cacheReach(kind: PromptCacheKind, cache: CacheFacts | null | undefined, messages: number, outside_tokens: number): CacheReach | null {
  if (kind !== "anthropic-breakpoints" || !cache || cache.markers.length === 0) return null;
  const positions = cache.markers.map((m) => (m === "auto" ? messages - 1 : m)).filter((m): m is number => typeof m === "number");
  if (positions.length === 0) return null;
  const last = Math.max(...positions);
  const member = cache.markers.includes("tools") || cache.markers.includes("system");
  return {
    lookback_from: Math.max(0, last - LOOKBACK_MESSAGES + 1),
    anchors: [...new Set(positions.filter((p) => p < last))].sort((a, b) => a - b),
    outside_rewritten: member ? 0 : outside_tokens,
  };
}

/** The first message a step editing message `first_edit` makes the next request write again: `first_edit` itself, or earlier (module header). */
export function rewriteFrom(reach: CacheReach | null, first_edit: number): number {
  if (reach === null || first_edit >= reach.lookback_from) return first_edit;
  let from = 0;
  for (const a of reach.anchors) if (a < first_edit) from = a + 1;
  return from;
}
