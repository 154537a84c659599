/**
 * The sharded session index as one object (pure over injected stubs): writes split by the
 * session's shard (one `recordMany` per shard a batch touches), reads of one session go to its
 * shard, list and metrics read every shard in parallel and merge (./index-shards.ts). The
 * gateway's index buffer and the admin routes use it in place of a single index stub.
 */
import type { IndexUpdate } from "./index-update";
import { INDEX_SHARDS, indexShardOf, mergeSeries, mergeSummaries, splitByShard } from "./index-shards";
import type { StoredSeries } from "./metrics-catalog";
import { totalsOf, type IndexTotals, type SessionSummary } from "./summarize-index";
import { mergeLengthRows } from "./session-lengths";
import type { LengthRow } from "../core/cost/session-lengths";
import { emptyTotals, type LedgerTotals } from "./ledger-report";
import { LEDGER_FIELDS, type LedgerMode } from "../session/contract";

/** What one index object (src/do/index-object.ts SessionIndex) answers. */
export interface IndexShard {
  recordMany(updates: IndexUpdate[]): Promise<unknown>;
  list(limit: number): Promise<SessionSummary[]>;
  get(id: string): Promise<SessionSummary | null>;
  series(): Promise<{ series: StoredSeries[]; sessions: number }>;
  setDisabled(id: string, disabled: boolean): Promise<void>;
  /** Histogram of the model-call counts of sessions last active before `before_ms` (epoch ms), i.e. finished: [calls, sessions] rows. */
  lengths(before_ms: number): Promise<LengthRow[]>;
  /** The savings ledger's sums per mode over [since_ms, until_ms), in whole hour buckets (src/admin/ledger-report.ts). */
  ledgerWindow(since_ms: number, until_ms: number): Promise<Partial<Record<LedgerMode, LedgerTotals>>>;
}

/** The whole index: the IndexShard calls over every shard, plus global totals. */
export interface ShardedIndex extends IndexShard {
  totals(): Promise<IndexTotals>;
}

/**
 * One JSON log line for a batch a shard refused (src/do/index-object.ts RecordResult `ok: false`:
 * an update that does not match the index's schema refuses the whole batch, so it must not pass
 * silently). Counts and the schema message only, never prompt text.
 */
function logRefused(result: unknown, shard: number, updates: number): void {
  const r = result as { ok?: unknown; error?: unknown } | null;
  if (r === null || typeof r !== "object" || r.ok !== false) return;
  console.error(JSON.stringify({ event: "sluice_index_refused", shard, updates, error: String(r.error) }));
}

/** The index over `shards` objects; `shard(i)` is the stub of shard i (src/admin/index-shards.ts indexShardName). */
export function shardedIndex(shard: (i: number) => IndexShard, shards = INDEX_SHARDS): ShardedIndex {
  const all = () => Array.from({ length: shards }, (_, i) => shard(i));
  const series = async () => {
    const parts = await Promise.all(all().map((s) => s.series()));
    return { series: mergeSeries(parts.map((p) => p.series)), sessions: parts.reduce((n, p) => n + p.sessions, 0) };
  };
  return {
    recordMany: (updates) =>
      Promise.all([...splitByShard(updates, shards)].map(async ([i, batch]) => {
        const result = await shard(i).recordMany(batch);
        logRefused(result, i, batch.length);
        return result;
      })),
    list: async (limit) => mergeSummaries(await Promise.all(all().map((s) => s.list(limit))), limit),
    get: (id) => shard(indexShardOf(id, shards)).get(id),
    series,
    totals: async () => {
      const s = await series();
      return totalsOf(s.series, s.sessions);
    },
    setDisabled: (id, disabled) => shard(indexShardOf(id, shards)).setDisabled(id, disabled),
    lengths: async (before_ms) => mergeLengthRows(await Promise.all(all().map((s) => s.lengths(before_ms)))),
    ledgerWindow: async (since, until) => {
      const out: Partial<Record<LedgerMode, LedgerTotals>> = {};
      for (const part of await Promise.all(all().map((s) => s.ledgerWindow(since, until)))) {
        for (const [mode, t] of Object.entries(part) as [LedgerMode, LedgerTotals][]) {
          const sum = (out[mode] ??= emptyTotals());
          for (const f of LEDGER_FIELDS) sum[f] += t[f];
        }
      }
      return out;
    },
  };
}
