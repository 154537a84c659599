/**
 * Small JSON helpers for the emulator (pure): type guards for untrusted request bodies and a
 * stable stringify (sorted keys) used for identity hashing, so that key order — which the real
 * APIs ignore — never changes a cache key or a "was this block modified" comparison.
 */

/** A JSON object (not null, not an array). */
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

export function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Property `k` of `v` when `v` is an object, else undefined. */
export function prop(v: unknown, k: string): Json | undefined {
  return isObject(v) ? v[k] : undefined;
}

/** String property or undefined. */
export function str(v: unknown, k: string): string | undefined {
  const x = prop(v, k);
  return typeof x === "string" ? x : undefined;
}

/** Array property or undefined. */
export function arr(v: unknown, k: string): Json[] | undefined {
  const x = prop(v, k);
  return Array.isArray(x) ? x : undefined;
}

/** JSON with object keys sorted recursively, optionally dropping some keys at every level. */
export function stableStringify(v: unknown, drop: ReadonlySet<string> = NO_DROP): string {
  if (Array.isArray(v)) return "[" + v.map((x) => stableStringify(x, drop)).join(",") + "]";
  if (isObject(v)) {
    const keys = Object.keys(v).filter((k) => !drop.has(k) && v[k] !== undefined).sort();
    return "{" + keys.map((k) => JSON.stringify(k) + ":" + stableStringify(v[k], drop)).join(",") + "}";
  }
  return JSON.stringify(v ?? null);
}

const NO_DROP: ReadonlySet<string> = new Set();

/** Keys that mark caching only and never change a prompt's content identity. */
export const CACHE_MARKER_KEYS: ReadonlySet<string> = new Set(["cache_control", "prompt_cache_breakpoint"]);
