/**
 * SQL storage of one session's state (shell over `ctx.storage.sql`, DESIGN §6). Tables hold
 * counts, sizes, ids, hashes and prices only — never conversation text — except `archive`,
 * which is written only when the operator turns `archive_removed` on (DESIGN invariant 7).
 * State lives in rows, not one blob: a single storage value is size-capped.
 */

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
CREATE TABLE IF NOT EXISTS calls (
  seq INTEGER PRIMARY KEY, at_ms INTEGER NOT NULL, tokens_original INTEGER NOT NULL, tokens_sent INTEGER NOT NULL,
  tier TEXT NOT NULL, outcome TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS archive (call_id TEXT NOT NULL, chunk INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (call_id, chunk));
CREATE TABLE IF NOT EXISTS memory (tier TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (tier, key));
`;

/** Thin typed wrapper over the session's SQLite database. */
export class SessionStore {
  constructor(private readonly sql: SqlStorage) {
    this.init();
  }

  /** Creates the tables if missing (at construction, and after `deleteAll` dropped them). */
  init(): void {
    this.sql.exec(SCHEMA);
  }

  getMeta(key: string): string | null {
    const row = this.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0];
    return row ? row.value : null;
  }
  getMetaNumber(key: string, fallback = 0): number {
    const v = this.getMeta(key);
    return v === null ? fallback : Number(v);
  }
  setMeta(key: string, value: string | number): void {
    this.sql.exec("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", key, String(value));
  }

  add(name: string, delta: number): void {
    if (delta === 0) return;
    this.sql.exec("INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = value + excluded.value", name, delta);
  }
  counters(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const r of this.sql.exec<{ name: string; value: number }>("SELECT name, value FROM counters ORDER BY name")) out[r.name] = r.value;
    return out;
  }

  /** First-seen time of each pair id (ms), recording `now` for ids not seen before. */
  firstSeen(ids: readonly string[], now: number): Record<string, number> {
    const out: Record<string, number> = {};
    for (const id of ids) {
      this.sql.exec("INSERT OR IGNORE INTO pairs_seen (pair_id, first_seen_ms) VALUES (?, ?)", id, now);
      const row = this.sql.exec<{ first_seen_ms: number }>("SELECT first_seen_ms FROM pairs_seen WHERE pair_id = ?", id).toArray()[0];
      out[id] = row ? row.first_seen_ms : now;
    }
    return out;
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
