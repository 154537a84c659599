/**
 * Reads the session Durable Objects' state straight from `wrangler dev`'s local persistence
 * (Node shell, wrangler-dev-only): each SessionObject is one SQLite file under
 * `<persist>/v3/do/<script>-SessionObject/`, read through the session's own typed state
 * (src/session/state.ts, src/session/session-record.ts: its session id and call count). Used by the load run to check that every session counted exactly
 * the calls sent, without an admin route, and to show how the session index's writes spread over
 * its shards (`SessionIndex` files). Read after wrangler exited (files flushed).
 */
import { readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { loadSqlite } from "../shared/load-sqlite";
import { indexShardOf } from "../../src/admin/index-shards";
import { StateTx } from "../../src/session/state";
import { RECORD } from "../../src/session/session-record";
import { createMemorySql } from "../replay/sluice/create-memory-sql";

export interface SessionRow {
  session_id: string | null;
  /** Step calls the session counted. */
  calls: number;
  /** Report calls the session counted. */
  reports: number;
  /** Size of the object's SQLite database as of its latest commit, bytes (page_count × page_size: what the session stores, in whole pages). */
  bytes: number;
}

/** Every SessionObject's session id, call count, `reports` counter and file size. */
export function readSessionStates(persistDir: string, script = "sluice"): SessionRow[] {
  return mapObjects(persistDir, `${script}-SessionObject`, (db, file) => {
    const { sql, close } = createMemorySql(file);
    try {
      const tx = new StateTx(sql);
      const record = tx.get(RECORD);
      return { session_id: record.session_id, calls: record.calls, reports: tx.counterValues(["reports"]).reports, bytes: dbBytes(db) };
    } finally {
      close();
    }
  });
}

type Db = InstanceType<ReturnType<typeof loadSqlite>["DatabaseSync"]>;

/** `read` over every Durable Object SQLite file of `className` (opened read-only, closed after); [] when the class made none. */
function mapObjects<T>(persistDir: string, className: string, read: (db: Db, file: string) => T): T[] {
  const dir = join(persistDir, "v3", "do", className);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    // metadata.sqlite is miniflare's alarm table, not a Durable Object.
    .filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite")
    .map((f) => {
      const db = new (loadSqlite().DatabaseSync)(join(dir, f), { readOnly: true });
      try {
        return read(db, join(dir, f));
      } finally {
        db.close();
      }
    });
}

/** One index shard's rows as read from its SQLite file (the shard is the one every row's session id hashes to). */
export interface IndexShardRow {
  /** Shard number (src/admin/index-shards.ts indexShardOf), or null when the file's rows hash to different shards (a routing fault). */
  shard: number | null;
  sessions: number;
  /** Outcome updates recorded (sum of the rows' `requests`). */
  requests: number;
}

/** Every SessionIndex object's session count and recorded requests, by shard, restricted to `ids`. */
export function readIndexShards(persistDir: string, ids: ReadonlySet<string>, script = "sluice"): IndexShardRow[] {
  return mapObjects(persistDir, `${script}-SessionIndex`, (db) => {
    const rows = (db.prepare("SELECT id, requests FROM sessions").all() as { id: string; requests: number }[]).filter((r) => ids.has(r.id));
    const shards = new Set(rows.map((r) => indexShardOf(r.id)));
    return { shard: shards.size === 1 ? [...shards][0]! : null, sessions: rows.length, requests: rows.reduce((a, r) => a + r.requests, 0) };
  })
    .filter((r) => r.sessions > 0)
    .sort((a, b) => (a.shard ?? -1) - (b.shard ?? -1));
}

/** Bytes of the database as of its latest commit (page_count × page_size: WAL pages included, the WAL's preallocated slack not). */
function dbBytes(db: Db): number {
  const pages = (db.prepare("PRAGMA page_count").get() as { page_count: number }).page_count;
  const size = (db.prepare("PRAGMA page_size").get() as { page_size: number }).page_size;
  return pages * size;
}
