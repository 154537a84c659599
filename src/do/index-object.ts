/**
 * Session index Durable Object (thin shell, SQLite-backed; DESIGN §9): one shard of the index
 * (INDEX_SHARDS instances, named by ../admin/index-shards.ts indexShardName; a session's updates
 * always reach the shard of its id), each holding its recent sessions (one summary row each, at
 * most MAX_INDEX_SESSIONS, oldest activity pruned first) and its share of the metric series. The
 * per-session SessionObject stays the source of truth; the index only makes listing and
 * metrics one read per shard. The gateway calls `recordMany` in waitUntil (batched); the admin
 * routes read every shard and merge (../admin/sharded-index.ts, `sessionIndexOf`).
 */
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../config/env";
import { indexUpdateSchema, type IndexUpdate } from "../admin/index-update";
import { deltasOf, METRICS, sumDeltas, type StoredSeries } from "../admin/metrics-catalog";
import { foldStandAsideRows } from "../admin/bound-stand-aside";
import { execRows } from "../session/state";
import { cacheHitRatio, totalsOf, type IndexTotals, type SessionSummary } from "../admin/summarize-index";
import type { SampleSuffix } from "../admin/render-exposition";
import { sessionLabel } from "../admin/session-label";
import { indexShardName } from "../admin/index-shards";
import { shardedIndex, type IndexShard, type ShardedIndex } from "../admin/sharded-index";
import type { LengthRow } from "../core/cost/session-lengths";
import { ledgerBucketOf, sumLedgerRows, type LedgerTotals } from "../admin/ledger-report";
import { LEDGER_FIELDS, type LedgerMode } from "../session/contract";

/** The whole sharded index over the SESSION_INDEX namespace. */
export function sessionIndexOf(ns: DurableObjectNamespace<SessionIndex>): ShardedIndex {
  return shardedIndex((i) => ns.get(ns.idFromName(indexShardName(i))) as unknown as IndexShard);
}

/** Rows kept per shard. Our bound: 10k rows × ~300 bytes ≈ 3 MB per shard, far below a DO's SQLite size limit. */
export const MAX_INDEX_SESSIONS = 10_000;

export type RecordResult = { ok: true } | { ok: false; error: string };

const SCHEMA = `
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY, provider TEXT, model TEXT, turns INTEGER NOT NULL DEFAULT 0, calls INTEGER NOT NULL DEFAULT 0,
  requests INTEGER NOT NULL DEFAULT 0, compacted INTEGER NOT NULL DEFAULT 0, fail_open INTEGER NOT NULL DEFAULT 0,
  tokens_original REAL NOT NULL DEFAULT 0, tokens_sent REAL NOT NULL DEFAULT 0, tokens_saved REAL NOT NULL DEFAULT 0,
  usd_saved REAL NOT NULL DEFAULT 0, net_usd_saved REAL NOT NULL DEFAULT 0, usage_input REAL NOT NULL DEFAULT 0, usage_cache_read REAL NOT NULL DEFAULT 0,
  usage_cache_write REAL NOT NULL DEFAULT 0, last_tier TEXT, last_outcome TEXT, last_activity_ms INTEGER,
  disabled INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS sessions_by_activity ON sessions (last_activity_ms);
CREATE TABLE IF NOT EXISTS series (family TEXT NOT NULL, suffix TEXT NOT NULL, labels TEXT NOT NULL, value REAL NOT NULL,
  PRIMARY KEY (family, suffix, labels));
CREATE TABLE IF NOT EXISTS ledger_hours (hour_ms INTEGER NOT NULL, mode TEXT NOT NULL, name TEXT NOT NULL, value REAL NOT NULL,
  PRIMARY KEY (hour_ms, mode, name));
`;

/**
 * Columns added to `sessions` after its first release, each with its definition: a shard created
 * before one of them gets it (ALTER TABLE ADD COLUMN) when its object starts, and its rows read
 * the column's default until their next update.
 */
const ADDED_SESSION_COLUMNS: readonly (readonly [string, string])[] = [["net_usd_saved", "REAL NOT NULL DEFAULT 0"]];

/** Adds to an existing `sessions` table the ADDED_SESSION_COLUMNS it lacks. */
function migrateSessions(sql: SqlStorage): void {
  const have = new Set(sql.exec<{ name: string }>("PRAGMA table_info(sessions)").toArray().map((c) => c.name));
  for (const [name, definition] of ADDED_SESSION_COLUMNS) {
    if (!have.has(name)) sql.exec(`ALTER TABLE sessions ADD COLUMN ${name} ${definition}`);
  }
}

type Row = Omit<SessionSummary, "label" | "disabled" | "cache_hit_ratio"> & { disabled: number; usage_input: number; usage_cache_read: number; usage_cache_write: number };

export class SessionIndex extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(SCHEMA);
    migrateSessions(ctx.storage.sql);
  }

  /**
   * Adds a batch of updates (the gateway's index buffer: every request's outcome and usage that
   * ended within one window, ../gateway/index-buffer.ts) in one transaction: one upsert of the session row per update, and every metric delta summed by
   * series and written with multi-row upserts (src/session/state.ts). All are validated first;
   * if one is invalid nothing is written and the answer names its field.
   */
  async recordMany(updates: IndexUpdate[]): Promise<RecordResult> {
    const valid: IndexUpdate[] = [];
    for (const [i, update] of updates.entries()) {
      const parsed = indexUpdateSchema.safeParse(update);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const where = [...(updates.length > 1 ? [String(i)] : []), ...issue.path.map(String)].join(".");
        return { ok: false, error: `index update refused at ${where || "(root)"}: ${issue.message}` };
      }
      valid.push(parsed.data);
    }
    const sql = this.ctx.storage.sql;
    this.ctx.storage.transactionSync(() => {
      let added = false;
      for (const u of valid) added = this.upsertSession(u) || added;
      execRows(
        sql,
        "INSERT INTO series (family, suffix, labels, value) VALUES ",
        " ON CONFLICT(family, suffix, labels) DO UPDATE SET value = value + excluded.value",
        sumDeltas(valid.flatMap(deltasOf)),
      );
      execRows(
        sql,
        "INSERT INTO ledger_hours (hour_ms, mode, name, value) VALUES ",
        " ON CONFLICT(hour_ms, mode, name) DO UPDATE SET value = value + excluded.value",
        ledgerRows(valid),
      );
      if (added) this.prune();
      if (valid.some((u) => u.kind === "outcome" && u.stand_aside !== undefined)) this.boundStandAside();
    });
    return { ok: true };
  }

  /** Folds the stand-aside series beyond the most counted types per provider and reason into `type="other"` (../admin/bound-stand-aside.ts). */
  private boundStandAside(): void {
    const sql = this.ctx.storage.sql;
    const family = METRICS.standAside.name;
    const rows = sql.exec<{ labels: string; value: number }>("SELECT labels, value FROM series WHERE family = ? AND suffix = ''", family).toArray()
      .map((r) => ({ labels_json: r.labels, labels: JSON.parse(r.labels) as Record<string, string>, value: r.value }));
    const fold = foldStandAsideRows(rows);
    for (const labels of fold.drop) sql.exec("DELETE FROM series WHERE family = ? AND suffix = '' AND labels = ?", family, labels);
    for (const o of fold.other) {
      sql.exec("INSERT INTO series (family, suffix, labels, value) VALUES (?, '', ?, ?) ON CONFLICT(family, suffix, labels) DO UPDATE SET value = value + excluded.value", family, o.labels_json, o.add);
    }
  }

  /** The savings ledger's sums per mode over the hour buckets that start in [since_ms, until_ms) (../admin/ledger-report.ts). */
  async ledgerWindow(since_ms: number, until_ms: number): Promise<Partial<Record<LedgerMode, LedgerTotals>>> {
    return sumLedgerRows(this.ctx.storage.sql.exec<{ mode: string; name: string; value: number }>(
      "SELECT mode, name, SUM(value) AS value FROM ledger_hours WHERE hour_ms >= ? AND hour_ms < ? GROUP BY mode, name", since_ms, until_ms,
    ).toArray());
  }

  /**
   * Upserts the session row of one update; true when the row is new. A ledger update adds its
   * net saving (without_usd − with_usd, USD, negative when the call cost more) to the row.
   */
  private upsertSession(u: IndexUpdate): boolean {
    const sql = this.ctx.storage.sql;
    const isNew = sql.exec("SELECT 1 FROM sessions WHERE id = ?", u.session_id).toArray().length === 0;
    if (u.kind === "outcome") {
      sql.exec(
        `INSERT INTO sessions (id, provider, model, turns, calls, requests, compacted, fail_open, tokens_original, tokens_sent, tokens_saved, usd_saved, last_tier, last_outcome, last_activity_ms)
         VALUES (?1, ?2, ?3, ?4, COALESCE(?5, 0), 1, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)
         ON CONFLICT(id) DO UPDATE SET provider = excluded.provider, model = COALESCE(excluded.model, model),
           turns = MAX(turns, excluded.turns), calls = COALESCE(?5, calls), requests = requests + 1,
           compacted = compacted + excluded.compacted, fail_open = fail_open + excluded.fail_open,
           tokens_original = tokens_original + excluded.tokens_original, tokens_sent = tokens_sent + excluded.tokens_sent,
           tokens_saved = tokens_saved + excluded.tokens_saved, usd_saved = usd_saved + excluded.usd_saved,
           last_tier = excluded.last_tier, last_outcome = excluded.last_outcome,
           last_activity_ms = MAX(COALESCE(last_activity_ms, 0), excluded.last_activity_ms)`,
        u.session_id, u.provider, u.model, u.turns, u.calls, u.outcome === "compacted" ? 1 : 0, u.outcome === "fail_open" ? 1 : 0,
        u.tokens_original, u.tokens_sent, u.tokens_saved, u.usd_saved, u.tier, u.outcome, u.at_ms,
      );
    } else if (u.kind === "ledger") {
      sql.exec(
        `INSERT INTO sessions (id, provider, net_usd_saved, last_activity_ms) VALUES (?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET net_usd_saved = net_usd_saved + excluded.net_usd_saved,
           last_activity_ms = MAX(COALESCE(last_activity_ms, 0), excluded.last_activity_ms)`,
        u.session_id, u.provider, u.without_usd - u.with_usd, u.at_ms,
      );
    } else {
      sql.exec(
        `INSERT INTO sessions (id, provider, usage_input, usage_cache_read, usage_cache_write, last_activity_ms) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET usage_input = usage_input + excluded.usage_input,
           usage_cache_read = usage_cache_read + excluded.usage_cache_read, usage_cache_write = usage_cache_write + excluded.usage_cache_write,
           last_activity_ms = MAX(COALESCE(last_activity_ms, 0), excluded.last_activity_ms)`,
        u.session_id, u.provider, u.input_tokens, u.cache_read_input_tokens, u.cache_creation_input_tokens, u.at_ms,
      );
    }
    return isNew;
  }

  /** Marks a session (kill switch mirror of the session DO's own flag), creating its row if needed. */
  async setDisabled(id: string, disabled: boolean): Promise<void> {
    this.ctx.storage.sql.exec(
      "INSERT INTO sessions (id, disabled) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET disabled = excluded.disabled",
      id, disabled ? 1 : 0,
    );
    this.prune();
  }

  /**
   * Histogram of the model-call counts of the sessions last active before `before_ms` (epoch ms):
   * the finished sessions whose lengths set the cost model's remaining-calls table
   * (../core/cost/session-lengths.ts), as [calls, sessions] rows by ascending calls. A session's
   * length is the more of the calls Sluice saw and its history's turns + 1, as the step counts
   * the calls so far (../core/policy/step-context.ts): one that reached Sluice mid-way is as long
   * as its history.
   */
  async lengths(before_ms: number): Promise<LengthRow[]> {
    return this.ctx.storage.sql.exec<{ calls: number; n: number }>(
      "SELECT MAX(calls, turns + 1) AS calls, COUNT(*) AS n FROM sessions WHERE calls > 0 AND last_activity_ms < ? GROUP BY 1 ORDER BY 1", before_ms,
    ).toArray().map((r) => [r.calls, r.n] as const);
  }

  /** Most recently active sessions first (never-active ones last), at most `limit`. */
  async list(limit: number): Promise<SessionSummary[]> {
    const rows = this.ctx.storage.sql.exec<Row>(
      "SELECT * FROM sessions ORDER BY last_activity_ms IS NULL, last_activity_ms DESC, id LIMIT ?", limit,
    ).toArray();
    return rows.map(toSummary);
  }

  /** One session's summary row, or null. */
  async get(id: string): Promise<SessionSummary | null> {
    const row = this.ctx.storage.sql.exec<Row>("SELECT * FROM sessions WHERE id = ?", id).toArray()[0];
    return row ? toSummary(row) : null;
  }

  /** Global totals for the dashboard. */
  async totals(): Promise<IndexTotals> {
    return totalsOf(this.storedSeries(), this.count());
  }

  /** The stored metric series and the session count (for /admin/metrics). */
  async series(): Promise<{ series: StoredSeries[]; sessions: number }> {
    return { series: this.storedSeries(), sessions: this.count() };
  }

  private storedSeries(): StoredSeries[] {
    return this.ctx.storage.sql.exec<{ family: string; suffix: string; labels: string; value: number }>("SELECT family, suffix, labels, value FROM series ORDER BY family, suffix, labels")
      .toArray()
      .map((r) => ({ family: r.family, suffix: r.suffix as SampleSuffix, labels: JSON.parse(r.labels) as Record<string, string>, value: r.value }));
  }

  private count(): number {
    return this.ctx.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM sessions").one().n;
  }

  /** Drops the rows with the oldest activity beyond MAX_INDEX_SESSIONS. */
  private prune(): void {
    const over = this.count() - MAX_INDEX_SESSIONS;
    if (over > 0) {
      this.ctx.storage.sql.exec("DELETE FROM sessions WHERE id IN (SELECT id FROM sessions ORDER BY last_activity_ms IS NULL, last_activity_ms ASC LIMIT ?)", over);
    }
  }
}

function toSummary(r: Row): SessionSummary {
  return {
    id: r.id, label: sessionLabel(r.id, r.model), provider: r.provider, model: r.model, turns: r.turns, calls: r.calls, requests: r.requests,
    compacted: r.compacted, fail_open: r.fail_open, tokens_original: r.tokens_original, tokens_sent: r.tokens_sent,
    tokens_saved: r.tokens_saved, usd_saved: r.usd_saved, net_usd_saved: r.net_usd_saved,
    cache_hit_ratio: cacheHitRatio(r.usage_input, r.usage_cache_read, r.usage_cache_write),
    last_tier: r.last_tier, last_outcome: r.last_outcome, last_activity_ms: r.last_activity_ms, disabled: r.disabled === 1,
  };
}

/** The ledger updates of a batch as hour-bucket rows [hour_ms, mode, field, sum] (zero sums left out). */
function ledgerRows(updates: readonly IndexUpdate[]): [number, string, string, number][] {
  const rows = new Map<string, [number, string, string, number]>();
  for (const u of updates) {
    if (u.kind !== "ledger") continue;
    const hour = ledgerBucketOf(u.at_ms);
    for (const f of LEDGER_FIELDS) {
      if (u[f] === 0) continue;
      const key = `${hour}\u0000${u.mode}\u0000${f}`;
      const row = rows.get(key);
      if (row) row[3] += u[f];
      else rows.set(key, [hour, u.mode, f, u[f]]);
    }
  }
  return [...rows.values()];
}
