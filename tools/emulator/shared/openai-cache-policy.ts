/**
 * OpenAI cache parameters per request (pure): which cache model applies, entry TTLs, and which
 * blocks are breakpoints on GPT-5.6+.
 *
 * - Before GPT-5.6: automatic prefix caching (shared/prefix128-cache.ts); entries live 5 min after
 *   last use ("in-memory" retention clears caches after 5–10 minutes of inactivity), 24 h with
 *   `prompt_cache_retention: "24h"` (developers.openai.com/api/docs/guides/prompt-caching).
 * - GPT-5.6+: breakpoints (shared/breakpoint-cache.ts). One implicit breakpoint on the latest user
 *   or tool message unless `prompt_cache_options.mode` is "explicit"; explicit
 *   `prompt_cache_breakpoint` markers, the latest 3 (implicit mode) or 4 (explicit mode) written;
 *   TTL `prompt_cache_options.ttl`, default "30m" (docs.rs async-openai PromptCacheOptionsParam;
 *   openai/codex#35300 quoting OpenAI's GPT-5.6 migration guide).
 */
import { isObject, prop, str, type Json } from "./json";
import { HOUR_MS, MINUTE_MS } from "./prompt-block";

export const IN_MEMORY_TTL_MS = 5 * MINUTE_MS;
export const EXTENDED_TTL_MS = 24 * HOUR_MS;
export const BREAKPOINT_DEFAULT_TTL_MS = 30 * MINUTE_MS;

/** Entry TTL for automatic prefix caching. */
export function prefixCacheTtl(body: Json): number {
  return str(body, "prompt_cache_retention") === "24h" ? EXTENDED_TTL_MS : IN_MEMORY_TTL_MS;
}

function ttlOf(v: string | undefined, fallback: number): number {
  if (v === "12h") return 12 * HOUR_MS;
  if (v === "30m") return 30 * MINUTE_MS;
  return fallback;
}

/** Per-block candidate flags produced by a segmenter before breakpoint selection. */
export interface BreakpointCandidate {
  /** The block is a user or tool message/output (candidate for the implicit breakpoint). */
  userOrTool: boolean;
  /** The block carries an explicit `prompt_cache_breakpoint` (its own TTL string if given). */
  explicit: { ttl: string | undefined } | null;
}

/** TTL per block (null = not a breakpoint) for GPT-5.6+ breakpoint caching. */
export function selectBreakpoints(body: Json, candidates: readonly BreakpointCandidate[]): (number | null)[] {
  const opts = prop(body, "prompt_cache_options");
  const explicitMode = isObject(opts) && opts.mode === "explicit";
  const requestTtl = ttlOf(str(opts, "ttl"), BREAKPOINT_DEFAULT_TTL_MS);
  const out: (number | null)[] = candidates.map(() => null);
  const explicit = candidates.flatMap((c, i) => (c.explicit ? [i] : []));
  for (const i of explicit.slice(-(explicitMode ? 4 : 3))) out[i] = ttlOf(candidates[i]!.explicit!.ttl, requestTtl);
  if (!explicitMode) {
    for (let i = candidates.length - 1; i >= 0; i--) {
      if (candidates[i]!.userOrTool) {
        out[i] ??= requestTtl;
        break;
      }
    }
  }
  return out;
}

/** Explicit breakpoint marker on any content part of `parts`, if present. */
export function explicitMarker(parts: Json | undefined): { ttl: string | undefined } | null {
  if (!Array.isArray(parts)) return null;
  for (const p of parts) {
    const m = prop(p, "prompt_cache_breakpoint");
    if (isObject(m)) return { ttl: str(m, "ttl") };
  }
  return null;
}
