/**
 * Key search over a session's stored tier map (pure; DESIGN §7): the reference index maps
 * short keys (file paths, commands, error lines, tool names) to where they appeared. The stored
 * map is read back through a zod schema (it crossed a storage boundary), and a query matches
 * keys case-insensitively by substring, optionally restricted to one kind.
 */
import { z } from "zod";
import type { ReferenceEntry, TierMap } from "../core/memory/build-tier-map";
import { hashText } from "../core/hash";
import { normalisePath } from "../core/engine/read-tool-call";

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
    pair_ids: z.array(z.string()).optional(),
  })),
  summaries: z.array(z.object({ covers: int, text: z.string() })).optional(),
}) satisfies z.ZodType<TierMap>;

export interface MemorySearch {
  q: string;
  kind: (typeof REFERENCE_KINDS)[number] | null;
  /** Matches in key order, at most MATCHES_MAX. */
  matches: ReferenceEntry[];
  /** Matches found before the cap. */
  total: number;
}

/**
 * Reference entries of `kind` (any when null) that match `q`: an error line or a tool name
 * containing it (case-insensitive); a path or command whose key is the hash of `q` as given (a
 * path normalised), since the step facts key those by hash (src/core/facts/step-facts.ts).
 */
export function searchMemory(map: TierMap, q: string, kind: MemorySearch["kind"]): MemorySearch {
  const needle = q.toLowerCase();
  const pathKey = hashText(normalisePath(q));
  const commandKey = hashText(`sh:${q}`);
  const matches = (e: ReferenceEntry): boolean =>
    e.kind === "path" ? q === "" || e.key === pathKey : e.kind === "command" ? q === "" || e.key === commandKey : e.key.toLowerCase().includes(needle);
  const all = Object.values(map.reference).filter((e) => (kind === null || e.kind === kind) && matches(e));
  return { q, kind, matches: all.slice(0, MATCHES_MAX), total: all.length };
}
