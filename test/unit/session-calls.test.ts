/**
 * What one model call does to the session's state (src/session/run-step.ts), over node:sqlite
 * (tools/replay/sluice/create-memory-sql.ts) and the real SessionStore: beginCall returns the
 * state before the call and writes calls, last activity, cleared marks, config and the request
 * count.
 */
import { describe, expect, it } from "vitest";
import { compactionConfigSchema } from "../../src/config/schema";
import { EMPTY_LEDGER, type Ledger } from "../../src/core/policy/ledger";
import { beginCall } from "../../src/session/run-step";
import { memorySession } from "../support/memory-session";

const T0 = 1_000_000;

function session() {
  const { sql, store } = memorySession();
  /** The meta table as stored (flushes first). */
  const meta = () => {
    store.flush();
    return Object.fromEntries(sql.exec<{ key: string; value: string }>("SELECT key, value FROM meta ORDER BY key").toArray().map((r) => [r.key, r.value]));
  };
  return { sql, store, meta };
}

describe("beginCall", () => {
  it("first call: the state before it, then calls, activity, cleared marks, model, config, first seen, one request", () => {
    const { store, meta } = session();
    const config = compactionConfigSchema.parse({ idle_seconds: 60 });
    const ledger: Ledger = { ...EMPTY_LEDGER, first_seen: { t0: 5 } };
    expect(beginCall(store, { now_ms: T0, model: "claude-x", provider: "anthropic", config }, ledger)).toEqual({ calls: 1, last_activity_ms: null, idle: false, complete: false, ledger });
    expect(meta()).toEqual({ calls: "1", complete: "0", config: JSON.stringify(config), first_seen_ms: String(T0), idle: "0", last_activity_ms: String(T0), model: "claude-x", provider: "anthropic" });
    expect(store.counters()).toEqual({ requests: 1 });
  });

  it("a later call after both alarms: returns the marks set and the previous activity, then clears them", () => {
    const { store, meta } = session();
    const config = compactionConfigSchema.parse({});
    beginCall(store, { now_ms: T0, model: "claude-x", provider: "anthropic", config }, EMPTY_LEDGER);
    store.setMeta("idle", 1);
    store.setMeta("complete", 1);
    store.flush();
    expect(beginCall(store, { now_ms: T0 + 5_000, model: null, provider: "openai-chat", config }, EMPTY_LEDGER)).toEqual({ calls: 2, last_activity_ms: T0, idle: true, complete: true, ledger: EMPTY_LEDGER });
    expect(meta()).toMatchObject({ calls: "2", last_activity_ms: String(T0 + 5_000), idle: "0", complete: "0", first_seen_ms: String(T0), model: "", provider: "openai-chat" });
    expect(store.counters()).toEqual({ requests: 2 });
  });
});
