import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { readIndexShards, readSessionStates } from "../../tools/load/read-do-state";
import { indexShardOf } from "../../src/admin/index-shards";
import { loadSqlite } from "../../tools/shared/load-sqlite";

const ROOT = fileURLToPath(new URL("../..", import.meta.url).href);
const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

/** A wrangler-dev-like persist dir holding one SessionObject file per `sessions` row (and miniflare's metadata.sqlite). */
function persistDir(sessions: { file: string; meta: Record<string, string>; requests?: number; reports?: number }[]): string {
  const root = mkdtempSync(join(tmpdir(), "sluice-do-state-"));
  dirs.push(root);
  const dir = join(root, "v3", "do", "sluice-SessionObject");
  mkdirSync(dir, { recursive: true });
  const { DatabaseSync } = loadSqlite();
  new DatabaseSync(join(dir, "metadata.sqlite")).close();
  for (const s of sessions) {
    const db = new DatabaseSync(join(dir, s.file));
    db.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); CREATE TABLE counters (name TEXT PRIMARY KEY, value REAL NOT NULL);");
    for (const [k, v] of Object.entries(s.meta)) db.prepare("INSERT INTO meta VALUES (?, ?)").run(k, v);
    if (s.requests !== undefined) db.prepare("INSERT INTO counters VALUES ('requests', ?)").run(s.requests);
    if (s.reports !== undefined) db.prepare("INSERT INTO counters VALUES ('reports', ?)").run(s.reports);
    db.close();
  }
  return root;
}

describe("readSessionStates (the load run's DO consistency check)", () => {
  it("reads each SessionObject file's session_id, calls, requests and reports, skipping metadata.sqlite", () => {
    const root = persistDir([
      { file: "a.sqlite", meta: { session_id: "s-1", calls: "12" }, requests: 12, reports: 11 },
      { file: "b.sqlite", meta: {} },
    ]);
    const rows = readSessionStates(root).sort((x, y) => String(x.session_id).localeCompare(String(y.session_id)));
    expect(rows).toEqual([
      // Two tables and their primary-key indexes, one 4 KiB page each, plus the schema page.
      { session_id: null, calls: 0, requests: 0, reports: 0, bytes: 5 * 4096 },
      { session_id: "s-1", calls: 12, requests: 12, reports: 11, bytes: 5 * 4096 },
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
