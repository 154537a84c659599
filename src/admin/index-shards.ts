/**
 * The session index, sharded (pure): INDEX_SHARDS index objects, a session's updates always go
 * to the shard of its id's hash, and the admin reads merge the shards. One index object serves
 * on the order of a thousand requests a second (Cloudflare's documented soft limit per Durable
 * Object); sharding divides the fan-in of every isolate's index batches by INDEX_SHARDS
 * (docs/operations.md, "Scale").
 *
 * Merging is exact: a session lives in one shard, so list rows never collide (rows of the same
 * id, possible only for data written before sharding, keep the most recent), and every stored
 * series is a sum of deltas (./metrics-catalog.ts), so the global total of a series is the sum of
 * the shards' totals.
 */
import { hashText } from "../core/hash";
import type { IndexUpdate } from "./index-update";
import type { StoredSeries } from "./metrics-catalog";
import type { SessionSummary } from "./summarize-index";

/** Index objects. 16: at 1,000 requests/s a shard receives well under 100 RPCs/s (docs/operations.md, "Scale"). Changing it re-homes sessions (their old rows stay readable until pruned). */
export const INDEX_SHARDS = 16;

/** Shard of a session id: the first 32 bits of its 64-bit content hash (../core/hash.ts) modulo `shards`. */
export function indexShardOf(sessionId: string, shards = INDEX_SHARDS): number {
  return Number.parseInt(hashText(sessionId).slice(0, 8), 16) % shards;
}

/**
 * Name of shard `i` (`env.SESSION_INDEX.idFromName(...)`). Shard 0 keeps the single index's name
 * ("index"), so what a deployment recorded before sharding stays in the merged reads.
 */
export function indexShardName(i: number): string {
  return i === 0 ? "index" : `index-${i}`;
}

/** `updates` grouped by shard, in first-seen order within each (shard → updates). */
export function splitByShard(updates: readonly IndexUpdate[], shards = INDEX_SHARDS): Map<number, IndexUpdate[]> {
  const out = new Map<number, IndexUpdate[]>();
  for (const u of updates) {
    const i = indexShardOf(u.session_id, shards);
    const list = out.get(i);
    if (list) list.push(u);
    else out.set(i, [u]);
  }
  return out;
}

/** The shards' most recent sessions as one list: most recent activity first (never-active last, then by id), one row per id, at most `limit`. */
export function mergeSummaries(lists: readonly (readonly SessionSummary[])[], limit: number): SessionSummary[] {
  const byId = new Map<string, SessionSummary>();
  for (const s of lists.flat()) {
    const seen = byId.get(s.id);
    if (!seen || (s.last_activity_ms ?? -1) > (seen.last_activity_ms ?? -1)) byId.set(s.id, s);
  }
  return [...byId.values()]
    .sort((a, b) => (a.last_activity_ms === null ? 1 : 0) - (b.last_activity_ms === null ? 1 : 0) || (b.last_activity_ms ?? 0) - (a.last_activity_ms ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, limit);
}

/** The shards' stored series summed by (family, suffix, labels), ordered like one index's read (family, suffix, labels JSON). */
export function mergeSeries(parts: readonly (readonly StoredSeries[])[]): StoredSeries[] {
  const byKey = new Map<string, StoredSeries>();
  for (const s of parts.flat()) {
    const key = `${s.family}\u0000${s.suffix}\u0000${JSON.stringify(s.labels)}`;
    const seen = byKey.get(key);
    if (seen) seen.value += s.value;
    else byKey.set(key, { ...s, labels: { ...s.labels } });
  }
  const order = (s: StoredSeries) => [s.family, s.suffix, JSON.stringify(s.labels)] as const;
  return [...byKey.values()].sort((a, b) => {
    const [x, y] = [order(a), order(b)];
    for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
    return 0;
  });
}
