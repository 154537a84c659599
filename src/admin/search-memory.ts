/**
 * Key search over a session's stored tier map (pure; DESIGN §7): the reference index maps
 * short keys (file paths, commands, error lines, tool names) to where they appeared. The stored
 * map is read back through a zod schema (it crossed a storage boundary), and a query matches
 * keys case-insensitively by substring, optionally restricted to one kind.
 */
import { z } from "zod";
import type { ReferenceEntry, TierMap } from "../core/memory/build-tier-map";

/** Longest query accepted (characters): the longest key is KEY_MAX_CHARS = 160 (build-tier-map.ts). */
export const QUERY_MAX_CHARS = 200;
/** Most matches returned by one search (our bound; a full map is available without `q`). */
export const MATCHES_MAX = 200;

export const REFERENCE_KINDS = ["path", "command", "error", "tool"] as const;

const int = z.number().int().min(0);
const referenceEntry = z.object({
  kind: z.enum(REFERENCE_KINDS),
  key: z.string(),
  pair_ids: z.array(z.string()),
  first_message: int,
  last_message: int,
  count: int,
});

/** The stored tier map's schema (mirrors TierMap in src/core/memory/build-tier-map.ts). */
export const tierMapSchema = z.object({
  working: z.object({ from_message: int, from_turn: int, turns: int }),
  reference: z.record(z.string(), referenceEntry),
  archival: z.array(z.object({
    from_turn: int, to_turn: int, from_message: int, to_message: int, tool_calls: int,
    tool_counts: z.record(z.string(), int), errors: int, est_tokens: z.number().min(0),
  })),
}) satisfies z.ZodType<TierMap>;

export interface MemorySearch {
  q: string;
  kind: (typeof REFERENCE_KINDS)[number] | null;
  /** Matches in key order, at most MATCHES_MAX. */
  matches: ReferenceEntry[];
  /** Matches found before the cap. */
  total: number;
}

/** Reference entries whose key contains `q` (case-insensitive), of `kind` when given. */
export function searchMemory(map: TierMap, q: string, kind: MemorySearch["kind"]): MemorySearch {
  const needle = q.toLowerCase();
  const all = Object.values(map.reference).filter((e) => (kind === null || e.kind === kind) && e.key.toLowerCase().includes(needle));
  return { q, kind, matches: all.slice(0, MATCHES_MAX), total: all.length };
}
