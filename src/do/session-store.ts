/**
 * SQL storage of one session's state (shell over `ctx.storage.sql`, DESIGN §6). Tables hold
 * counts, sizes, ids, hashes and prices only — never conversation text — except `archive`,
 * which is written only when the operator turns `archive_removed` on (DESIGN invariant 7).
 * State lives in rows, not one blob: a single storage value is size-capped.
 */
import { execRows } from "./exec-rows";
import { CACHE_BREAKS_SCHEMA } from "./cache-breaks";
import { REMOVALS_SCHEMA } from "./removal-log";

/** Largest archive chunk: 64 Ki UTF-16 code units (≤ 192 KiB as UTF-8), far below the DO SQLite 2 MB row cap. */
export const ARCHIVE_CHUNK_CHARS = 64 * 1024;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value REAL NOT NULL);
CREATE TABLE IF NOT EXISTS ledger (
  pair_key TEXT PRIMARY KEY, pair_id TEXT NOT NULL, result_hash TEXT NOT NULL,
  action TEXT NOT NULL, step INTEGER NOT NULL, decided_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS pairs_seen (pair_id TEXT PRIMARY KEY, first_seen_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS steps (
  step INTEGER PRIMARY KEY, tier TEXT NOT NULL, at_ms INTEGER NOT NULL, pairs_removed INTEGER NOT NULL,
  tokens_before INTEGER NOT NULL, tokens_after INTEGER NOT NULL, cost_usd REAL NOT NULL, correlation_id TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS step_terms (step INTEGER PRIMARY KEY, terms TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS calls (
  seq INTEGER PRIMARY KEY, at_ms INTEGER NOT NULL, tokens_original INTEGER NOT NULL, tokens_sent INTEGER NOT NULL,
  tier TEXT NOT NULL, outcome TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS archive (call_id TEXT NOT NULL, chunk INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (call_id, chunk));
CREATE TABLE IF NOT EXISTS memory (tier TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (tier, key));
${CACHE_BREAKS_SCHEMA}
${REMOVALS_SCHEMA}
`;

/** Meta values that can be large (the memory tier map, precomputed engine verdicts): read on demand, never in the snapshot. */
const LARGE_META_KEYS: ReadonlySet<string> = new Set(["memory", "precomputed_verdicts" /* ./precompute-verdicts.ts META_KEY */]);

/**
 * Typed wrapper over the session's SQLite database, with write-back for the two small
 * key/value tables (`meta`, `counters`), which the hot path touches ~30 times per request:
 * - reads come from one snapshot of `meta` (a single SELECT, taken on the first read after a
 *   flush) overlaid with the writes not yet flushed;
 * - `setMeta` and `add` are buffered and written by `flush()` as one multi-row upsert per
 *   table (counters add their deltas in SQL, so a flush never loses a concurrent count);
 * - every unit of work (runStep, each DO method; recordOutcome and recordUsage leave it to
 *   their caller, which flushes once per batch) ends with `flush()`, which also drops the
 *   snapshot, so state written between units by anyone else is read fresh.
 * This turns ~30 statements per request into ~3 (a small `sql.exec` costs 8–16 µs in workerd:
 * ./exec-rows.ts).
 */
export class SessionStore {
  private snapshot: Map<string, string> | null = null;
  private readonly metaWrites = new Map<string, string>();
  private readonly counterDeltas = new Map<string, number>();

  constructor(private readonly sql: SqlStorage) {
    this.init();
  }

  /** Creates the tables if missing (at construction, and after `deleteAll` dropped them); forgets buffered state. */
  init(): void {
    this.sql.exec(SCHEMA);
    this.snapshot = null;
    this.metaWrites.clear();
    this.counterDeltas.clear();
  }

  getMeta(key: string): string | null {
    const pending = this.metaWrites.get(key);
    if (pending !== undefined) return pending;
    if (LARGE_META_KEYS.has(key)) return this.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0]?.value ?? null;
    if (this.snapshot === null) {
      // One row for the whole snapshot (rows cost more than their bytes: ~15 µs each in workerd).
      const row = this.sql.exec<{ j: string | null }>(`SELECT json_group_object(key, value) AS j FROM meta WHERE key NOT IN (${[...LARGE_META_KEYS].map(() => "?").join(", ")})`, ...LARGE_META_KEYS).one();
      this.snapshot = new Map(Object.entries(JSON.parse(row.j ?? "{}") as Record<string, string>));
    }
    return this.snapshot.get(key) ?? null;
  }
  getMetaNumber(key: string, fallback = 0): number {
    const v = this.getMeta(key);
    return v === null ? fallback : Number(v);
  }
  /** A JSON meta value (its shape is the writer's: not validated), or null when absent, empty or not JSON. */
  getMetaJson<T>(key: string): T | null {
    const raw = this.getMeta(key);
    if (raw === null || raw === "") return null;
    try {
      return JSON.parse(raw) as T;
    } catch {
      return null;
    }
  }
  /** Buffers `meta[key] = value` (written by the next flush); a value equal to the current one is not rewritten. */
  setMeta(key: string, value: string | number): void {
    const v = String(value);
    if (this.getMeta(key) === v && !this.metaWrites.has(key)) return;
    this.metaWrites.set(key, v);
  }

  /** Buffers `counters[name] += delta` (0 is ignored). */
  add(name: string, delta: number): void {
    if (delta === 0) return;
    this.counterDeltas.set(name, (this.counterDeltas.get(name) ?? 0) + delta);
  }
  /** The current values of `names` (stored plus not yet flushed; 0 when absent), with one SELECT. */
  counterValues(names: readonly string[]): Record<string, number> {
    const out: Record<string, number> = {};
    for (const n of names) out[n] = this.counterDeltas.get(n) ?? 0;
    const rows = this.sql.exec<{ name: string; value: number }>(`SELECT name, value FROM counters WHERE name IN (${names.map(() => "?").join(", ")})`, ...names);
    for (const r of rows) out[r.name] = (out[r.name] ?? 0) + r.value;
    return out;
  }

  /** All counters, by name (flushes first). */
  counters(): Record<string, number> {
    this.flush();
    const out: Record<string, number> = {};
    for (const r of this.sql.exec<{ name: string; value: number }>("SELECT name, value FROM counters ORDER BY name")) out[r.name] = r.value;
    return out;
  }

  /** Writes the buffered meta values and counter deltas (one multi-row statement per table: ./exec-rows.ts), then drops the snapshot. */
  flush(): void {
    execRows(this.sql, "INSERT INTO meta (key, value) VALUES ", " ON CONFLICT(key) DO UPDATE SET value = excluded.value", [...this.metaWrites]);
    execRows(this.sql, "INSERT INTO counters (name, value) VALUES ", " ON CONFLICT(name) DO UPDATE SET value = value + excluded.value", [...this.counterDeltas]);
    this.metaWrites.clear();
    this.counterDeltas.clear();
    this.snapshot = null;
  }

  /** Stores `text` for `callId` in chunks (replacing any earlier copy). */
  putArchive(callId: string, text: string): void {
    this.sql.exec("DELETE FROM archive WHERE call_id = ?", callId);
    for (let i = 0, chunk = 0; i < text.length || chunk === 0; i += ARCHIVE_CHUNK_CHARS, chunk++) {
      this.sql.exec("INSERT INTO archive (call_id, chunk, data) VALUES (?, ?, ?)", callId, chunk, text.slice(i, i + ARCHIVE_CHUNK_CHARS));
    }
  }
  getArchive(callId: string): string | null {
    const rows = this.sql.exec<{ data: string }>("SELECT data FROM archive WHERE call_id = ? ORDER BY chunk", callId).toArray();
    return rows.length === 0 ? null : rows.map((r) => r.data).join("");
  }
}
