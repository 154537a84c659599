/**
 * An in-memory stand-in for the Durable Object `SqlStorage` (Node only, I/O-free): the subset
 * the session store uses — `exec(query, ...bindings)` returning a cursor with `toArray()`,
 * `one()` and iteration, and a multi-statement `exec(query)` without bindings (the schema) —
 * over `node:sqlite`'s DatabaseSync (Node ≥ 22.5). Both are SQLite, so the same SQL runs
 * unchanged. `node:sqlite` is experimental on Node 22: its one-time ExperimentalWarning is
 * filtered out when the module is loaded (../../shared/load-sqlite.ts), every other warning still prints.
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import { loadSqlite } from "../../shared/load-sqlite";

type SqlValue = string | number | null | ArrayBuffer;
type Row = Record<string, SqlValue>;

/** A cursor over rows already read (the DO cursor's used subset). */
class MemoryCursor<T extends Row> implements Iterable<T> {
  constructor(private readonly rows: T[]) {}
  toArray(): T[] {
    return this.rows;
  }
  one(): T {
    if (this.rows.length !== 1) throw new Error(`Expected exactly one result from SQL query, but got ${this.rows.length}.`);
    return this.rows[0]!;
  }
  [Symbol.iterator](): Iterator<T> {
    return this.rows[Symbol.iterator]();
  }
  get rowsRead(): number {
    return this.rows.length;
  }
}

/** True when `query` holds more than one statement (a `;` followed by more SQL). */
function isMultiStatement(query: string): boolean {
  return query.trim().replace(/;$/, "").includes(";");
}

/** A fresh in-memory database (or the SQLite file at `path`, read-only) and its SqlStorage facade; `close()` frees it. */
export function createMemorySql(path?: string): { sql: SqlStorage; close: () => void } {
  const db: DatabaseSync = path === undefined ? new (loadSqlite().DatabaseSync)(":memory:") : new (loadSqlite().DatabaseSync)(path, { readOnly: true });
  const statements = new Map<string, StatementSync>();
  const exec = (query: string, ...bindings: SqlValue[]) => {
    if (bindings.length === 0 && isMultiStatement(query)) {
      db.exec(query);
      return new MemoryCursor<Row>([]);
    }
    let st = statements.get(query);
    if (!st) {
      st = db.prepare(query);
      statements.set(query, st);
    }
    return new MemoryCursor(st.all(...(bindings as (string | number | null)[])) as Row[]);
  };
  // The facade implements the subset of SqlStorage listed in the header; the rest is never called.
  return { sql: { exec } as unknown as SqlStorage, close: () => db.close() };
}
