import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { readIndexShards, readSessionStates } from "../../tools/load/read-do-state";
import { indexShardOf } from "../../src/admin/index-shards";
import { loadSqlite } from "../../tools/shared/load-sqlite";
import { SessionDb, StateTx } from "../../src/session/state";
import { RECORD, type SessionRecord } from "../../src/session/session-record";

const ROOT = fileURLToPath(new URL("../..", import.meta.url).href);
const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

/** A wrangler-dev-like persist dir holding one SessionObject file per `sessions` row (and miniflare's metadata.sqlite). */
function persistDir(sessions: { file: string; record: Partial<SessionRecord>; reports?: number }[]): string {
  const root = mkdtempSync(join(tmpdir(), "sluice-do-state-"));
  dirs.push(root);
  const dir = join(root, "v3", "do", "sluice-SessionObject");
  mkdirSync(dir, { recursive: true });
  const { DatabaseSync } = loadSqlite();
  new DatabaseSync(join(dir, "metadata.sqlite")).close();
  for (const s of sessions) {
    const db = new DatabaseSync(join(dir, s.file));
    // The SqlStorage subset the session's state uses, over this file (statements run at once, as the DO's do).
    const sql = { exec: (q: string, ...b: (string | number | null)[]) => {
      const rows = b.length === 0 && q.includes(";") ? (db.exec(q), []) : db.prepare(q).all(...b);
      return { toArray: () => rows, [Symbol.iterator]: () => rows[Symbol.iterator]() };
    } } as unknown as SqlStorage;
    new SessionDb(sql);
    const tx = new StateTx(sql);
    if (Object.keys(s.record).length > 0) tx.update(RECORD, s.record);
    if (s.reports !== undefined) tx.add("reports", s.reports);
    tx.commit();
    db.close();
  }
  return root;
}

describe("readSessionStates (the load run's DO consistency check)", () => {
  it("reads each SessionObject file's session id, calls and reports, skipping metadata.sqlite", () => {
    const root = persistDir([
      { file: "a.sqlite", record: { session_id: "s-1", calls: 12 }, reports: 11 },
      { file: "b.sqlite", record: {} },
    ]);
    const rows = readSessionStates(root).sort((x, y) => String(x.session_id).localeCompare(String(y.session_id)));
    expect(rows).toEqual([
      // bytes: the closed file's size, which is its page count × page size.
      { session_id: null, calls: 0, reports: 0, bytes: statSync(join(root, "v3", "do", "sluice-SessionObject", "b.sqlite")).size },
      { session_id: "s-1", calls: 12, reports: 11, bytes: statSync(join(root, "v3", "do", "sluice-SessionObject", "a.sqlite")).size },
    ]);
  });

  it("is empty when the instance made no SessionObject (compaction off)", () => {
    const root = mkdtempSync(join(tmpdir(), "sluice-do-state-"));
    dirs.push(root);
    expect(readSessionStates(root)).toEqual([]);
  });

  it("readIndexShards: per SessionIndex file the shard its rows hash to, the sessions and requests of the given ids; mixed shards → null", () => {
    const root = mkdtempSync(join(tmpdir(), "sluice-do-state-"));
    dirs.push(root);
    const dir = join(root, "v3", "do", "sluice-SessionIndex");
    mkdirSync(dir, { recursive: true });
    const { DatabaseSync } = loadSqlite();
    // Ids grouped by shard: the first two share a shard, the third is in another.
    const ids = Array.from({ length: 200 }, (_, i) => `load-s${i}`);
    const a = ids[0]!;
    const same = ids.find((id) => id !== a && indexShardOf(id) === indexShardOf(a))!;
    const other = ids.find((id) => indexShardOf(id) !== indexShardOf(a))!;
    const file = (name: string, rows: [string, number][]) => {
      const db = new DatabaseSync(join(dir, name));
      db.exec("CREATE TABLE sessions (id TEXT PRIMARY KEY, requests INTEGER NOT NULL)");
      for (const [id, n] of rows) db.prepare("INSERT INTO sessions VALUES (?, ?)").run(id, n);
      db.close();
    };
    file("x.sqlite", [[a, 12], [same, 3], ["not-sent", 99]]);
    file("y.sqlite", [[other, 7]]);
    file("z.sqlite", [[a, 1], [other, 1]]);
    const rows = readIndexShards(root, new Set([a, same, other]));
    expect(rows).toEqual([
      { shard: null, sessions: 2, requests: 2 },
      ...[{ shard: indexShardOf(a), sessions: 2, requests: 15 }, { shard: indexShardOf(other), sessions: 1, requests: 7 }].sort((p, q) => p.shard - q.shard),
    ]);
  });
});

describe("loadSqlite", () => {
  it("loads node:sqlite without its ExperimentalWarning and lets other warnings through", () => {
    const code = [
      'import { loadSqlite } from "./tools/shared/load-sqlite.ts";',
      'const db = new (loadSqlite().DatabaseSync)(":memory:");',
      'console.log(JSON.stringify(db.prepare("SELECT 1 + 1 AS two").get()));',
      'process.emitWarning("other warning", "ExperimentalWarning");',
    ].join("\n");
    const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], { cwd: ROOT, encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe('{"two":2}');
    expect(r.stderr).not.toMatch(/SQLite/);
    expect(r.stderr).toMatch(/ExperimentalWarning: other warning/);
  });
});
