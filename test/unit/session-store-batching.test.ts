/**
 * The session store's write-back (src/session/state.ts) and multi-row writes
 * (src/session/state.ts, sumDeltas in src/admin/metrics-catalog.ts), over node:sqlite with a
 * statement counter: exact rows stored and exact statement counts.
 */
import { describe, expect, it } from "vitest";
import { sumDeltas } from "../../src/admin/metrics-catalog";
import { MAX_BOUND_PARAMETERS, execRows } from "../../src/session/state";
import { SessionStore } from "../../src/session/state";
import { createMemorySql } from "../../tools/replay/sluice/create-memory-sql";

/** A memory SqlStorage that records every statement's SQL text and bound-parameter count. */
function countingSql() {
  const mem = createMemorySql();
  const log: { sql: string; params: number }[] = [];
  const sql = {
    exec: (q: string, ...b: unknown[]) => {
      log.push({ sql: q.trim().split(/\s+/).slice(0, 3).join(" "), params: b.length });
      return (mem.sql.exec as (q: string, ...b: unknown[]) => unknown)(q, ...b);
    },
  } as unknown as SqlStorage;
  return { sql, log, close: mem.close };
}

describe("execRows", () => {
  it("writes 120 two-column rows in 3 statements of at most 100 parameters", () => {
    const { sql, log, close } = countingSql();
    sql.exec("CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)");
    log.length = 0;
    const rows = Array.from({ length: 120 }, (_, i) => [`k${i}`, i] as [string, number]);
    execRows(sql, "INSERT INTO t (k, v) VALUES ", "", rows);
    expect(log.map((l) => l.params)).toEqual([100, 100, 40]);
    expect(sql.exec<{ n: number; s: number }>("SELECT COUNT(*) AS n, SUM(v) AS s FROM t").one()).toEqual({ n: 120, s: 7140 });
    close();
  });

  it("splits three-column rows at 33 per statement, and runs nothing for no rows", () => {
    const { sql, log, close } = countingSql();
    sql.exec("CREATE TABLE t (a INTEGER, b INTEGER, c INTEGER)");
    log.length = 0;
    execRows(sql, "INSERT INTO t (a, b, c) VALUES ", "", []);
    expect(log).toEqual([]);
    execRows(sql, "INSERT INTO t (a, b, c) VALUES ", "", Array.from({ length: 34 }, (_, i) => [i, i, i]));
    expect([MAX_BOUND_PARAMETERS, log.map((l) => l.params)]).toEqual([100, [99, 3]]);
    close();
  });
});

describe("SessionStore write-back", () => {
  it("buffers setMeta and add until flush, then writes one statement per table", () => {
    const { sql, log, close } = countingSql();
    const store = new SessionStore(sql);
    log.length = 0;
    store.setMeta("calls", 3);
    store.setMeta("model", "claude-x");
    store.add("requests", 1);
    store.add("requests", 2);
    store.add("tokens_saved", 0); // ignored
    store.add("compacted", 1);
    expect([store.getMeta("calls"), store.getMetaNumber("calls"), store.getMeta("missing")]).toEqual(["3", 3, null]);
    expect(log).toEqual([{ sql: "SELECT json_group_object(key, value)", params: 2 }]); // the snapshot (without the 2 large keys), read once
    store.flush();
    expect(log.slice(1)).toEqual([{ sql: "INSERT INTO meta", params: 4 }, { sql: "INSERT INTO counters", params: 4 }]);
    expect(store.counters()).toEqual({ compacted: 1, requests: 3 });
    close();
  });

  it("adds counter deltas in SQL (never overwrites), skips rewriting an unchanged meta value", () => {
    const { sql, log, close } = countingSql();
    const store = new SessionStore(sql);
    store.add("requests", 5);
    store.setMeta("idle", 0);
    store.flush();
    sql.exec("UPDATE counters SET value = 100 WHERE name = 'requests'"); // someone else's write between two units
    store.add("requests", 1);
    store.setMeta("idle", 0); // same value: nothing to write
    log.length = 0;
    store.flush();
    expect(log.map((l) => l.sql)).toEqual(["INSERT INTO counters"]);
    expect(store.counters()).toEqual({ requests: 101 });
    close();
  });

  it("reads state written by others after a flush (the snapshot is dropped), and init forgets buffered writes", () => {
    const { sql, close } = countingSql();
    const store = new SessionStore(sql);
    expect(store.getMeta("memory")).toBe(null);
    store.flush();
    sql.exec("INSERT INTO meta (key, value) VALUES ('memory', '{}')");
    expect(store.getMeta("memory")).toBe("{}");
    store.setMeta("calls", 9);
    store.add("requests", 1);
    store.init();
    store.flush();
    expect([store.getMeta("calls"), store.counters()]).toEqual([null, {}]);
    close();
  });
});

describe("SessionStore reads", () => {
  it("counterValues: stored plus pending, 0 when absent, one SELECT; large meta values stay out of the snapshot", () => {
    const { sql, log, close } = countingSql();
    const store = new SessionStore(sql);
    store.add("a", 2);
    store.flush();
    store.add("a", 3);
    store.add("b", 1);
    sql.exec("INSERT INTO meta (key, value) VALUES ('memory', 'M'), ('calls', '4')");
    log.length = 0;
    expect(store.counterValues(["a", "b", "c"])).toEqual({ a: 5, b: 1, c: 0 });
    expect([store.getMeta("calls"), store.getMeta("memory"), store.getMeta("memory")]).toEqual(["4", "M", "M"]);
    expect(log.map((l) => [l.sql, l.params])).toEqual([
      ["SELECT name, value", 3], ["SELECT json_group_object(key, value)", 2], ["SELECT value FROM", 1], ["SELECT value FROM", 1],
    ]);
    close();
  });
});

describe("sumDeltas", () => {
  it("sums deltas of the same series, keeps first-seen order and zero sums", () => {
    expect(sumDeltas([
      { family: "f", suffix: "", labels: { a: "1" }, delta: 2 },
      { family: "g", suffix: "_bucket", labels: { le: "0.1" }, delta: 0 },
      { family: "f", suffix: "", labels: { a: "1" }, delta: 3 },
      { family: "f", suffix: "", labels: { a: "2" }, delta: 1 },
      { family: "f", suffix: "_sum", labels: { a: "1" }, delta: 0.5 },
    ])).toEqual([
      ["f", "", '{"a":"1"}', 5],
      ["g", "_bucket", '{"le":"0.1"}', 0],
      ["f", "", '{"a":"2"}', 1],
      ["f", "_sum", '{"a":"1"}', 0.5],
    ]);
  });
});
