/**
 * A session DO's SQL store over node:sqlite (tools/replay/sluice/create-memory-sql.ts) for unit
 * tests: a fresh database per call, closed when the calling test finishes.
 */
import { onTestFinished } from "vitest";
import { SessionStore } from "../../src/session/state";
import { createMemorySql } from "../../tools/replay/sluice/create-memory-sql";

/** A fresh store and its SQL handle; call inside a test. */
export function memorySession(): { sql: SqlStorage; store: SessionStore } {
  const { sql, close } = createMemorySql();
  onTestFinished(() => close());
  return { sql, store: new SessionStore(sql) };
}
