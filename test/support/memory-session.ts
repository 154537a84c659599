/**
 * A session's state over node:sqlite (tools/replay/sluice/create-memory-sql.ts) for unit tests of
 * the pure parts' shells: a fresh database per call, closed when the calling test finishes, and
 * one unit of work over it (src/session/state.ts StateTx; what it writes is read back by the same
 * object). Behaviour of the session itself is tested in workerd (test/workers/session-boundary.test.ts).
 */
import { onTestFinished } from "vitest";
import { SessionDb, StateTx } from "../../src/session/state";
import { createMemorySql } from "../../tools/replay/sluice/create-memory-sql";

/** A fresh database with the session's tables, and one unit of work over it; call inside a test. */
export function memorySession(): { sql: SqlStorage; tx: StateTx } {
  const { sql, close } = createMemorySql();
  onTestFinished(() => close());
  new SessionDb(sql);
  return { sql, tx: new StateTx(sql) };
}
