/**
 * What one model call does to the session's state (src/do/session-calls.ts), over node:sqlite
 * (tools/replay/sluice/create-memory-sql.ts) and the real SessionStore: beginCall returns the
 * state before the call and writes calls, last activity, cleared marks, config and the request
 * count; recordLeasedCall counts the call (calls, requests, leased_requests), moves the last
 * activity only forward, keeps the first first-seen time of a pair (INSERT OR IGNORE), and clears
 * the idle and complete marks only while now < call.now_ms + idle_seconds × 1000.
 */
import { describe, expect, it } from "vitest";
import { compactionConfigSchema } from "../../src/config/schema";
import { EMPTY_LEDGER, type Ledger } from "../../src/core/policy/ledger";
import { beginCall, recordLeasedCall } from "../../src/do/session-calls";
import type { LeasedCall } from "../../src/do/step-types";
import { memorySession } from "../support/memory-session";

const T0 = 1_000_000;

function session() {
  const { sql, store } = memorySession();
  /** The meta table as stored (flushes first). */
  const meta = () => {
    store.flush();
    return Object.fromEntries(sql.exec<{ key: string; value: string }>("SELECT key, value FROM meta ORDER BY key").toArray().map((r) => [r.key, r.value]));
  };
  const seen = () => Object.fromEntries(sql.exec<{ pair_id: string; first_seen_ms: number }>("SELECT pair_id, first_seen_ms FROM pairs_seen ORDER BY pair_id").toArray().map((r) => [r.pair_id, r.first_seen_ms]));
  return { sql, store, meta, seen };
}
const call = (now_ms: number, o: Partial<LeasedCall> = {}): LeasedCall => ({ now_ms, model: "claude-sonnet-4-5", provider: "anthropic", tier: "micro", first_seen: {}, ...o });

describe("beginCall", () => {
  it("a call whose own lease ask recorded its activity is decided from the activity before it (previous_activity_ms)", () => {
    const { store, meta } = session();
    const config = compactionConfigSchema.parse({});
    store.setMeta("calls", 2);
    store.setMeta("last_activity_ms", T0); // moved there by the call's lease ask
    expect(beginCall(store, { now_ms: T0, model: "claude-x", provider: "anthropic", config, previous_activity_ms: T0 - 400_000 }, EMPTY_LEDGER).last_activity_ms).toBe(T0 - 400_000);
    expect([meta().calls, meta().last_activity_ms]).toEqual(["3", String(T0)]);
  });

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

describe("recordLeasedCall", () => {
  it("counts the call, moves the activity only forward, records first-seen times keeping the first", () => {
    const { sql, store, meta, seen } = session();
    beginCall(store, { now_ms: T0, model: "claude-x", provider: "anthropic", config: compactionConfigSchema.parse({}) }, EMPTY_LEDGER);
    store.flush();

    recordLeasedCall(store, sql, call(T0 + 2_000, { tier: "time_based", first_seen: { t5: T0 + 2_000 } }), T0 + 2_500);
    expect(meta()).toMatchObject({ calls: "2", last_activity_ms: String(T0 + 2_000), last_tier: "time_based", model: "claude-sonnet-4-5", first_seen_ms: String(T0) });
    expect(store.counters()).toEqual({ leased_requests: 1, requests: 2 });
    expect(seen()).toEqual({ t5: T0 + 2_000 });

    // An older call reported later (another isolate's batch): counted, the activity stays.
    recordLeasedCall(store, sql, call(T0 + 1_000, { model: null, first_seen: { t5: T0 + 1_000, t6: T0 + 1_000 } }), T0 + 3_000);
    expect(meta()).toMatchObject({ calls: "3", last_activity_ms: String(T0 + 2_000), last_tier: "micro", model: "" });
    expect(store.counters()).toEqual({ leased_requests: 2, requests: 3 });
    expect(seen()).toEqual({ t5: T0 + 2_000, t6: T0 + 1_000 });

    // A call at the same ms as the last activity: nothing to move.
    recordLeasedCall(store, sql, call(T0 + 2_000), T0 + 3_000);
    expect(meta()).toMatchObject({ calls: "4", last_activity_ms: String(T0 + 2_000) });
  });

  it("on a new session (no meta yet): first call, activity and first seen from the call", () => {
    const { sql, store, meta } = session();
    recordLeasedCall(store, sql, call(T0), T0 + 10);
    expect(meta()).toEqual({ calls: "1", complete: "0", first_seen_ms: String(T0), idle: "0", last_activity_ms: String(T0), last_tier: "micro", model: "claude-sonnet-4-5", provider: "anthropic" });
    expect(store.counters()).toEqual({ leased_requests: 1, requests: 1 });
  });

  describe("the idle and complete marks", () => {
    /** A session whose both alarms fired, with `config` stored as the DO stores it; one leased call at T0 reported at `now`. */
    const marksAfter = (config: Record<string, unknown> | null, now: number) => {
      const { sql, store, meta } = session();
      if (config !== null) store.setMeta("config", JSON.stringify(config));
      store.setMeta("last_activity_ms", T0 - 1_000);
      store.setMeta("idle", 1);
      store.setMeta("complete", 1);
      store.flush();
      recordLeasedCall(store, sql, call(T0), now);
      const m = meta();
      return [m.idle, m.complete];
    };
    it("idle_seconds 60: cleared up to call + 59,999 ms, kept from call + 60,000 ms", () => {
      expect(marksAfter({ idle_seconds: 60 }, T0)).toEqual(["0", "0"]);
      expect(marksAfter({ idle_seconds: 60 }, T0 + 59_999)).toEqual(["0", "0"]);
      expect(marksAfter({ idle_seconds: 60 }, T0 + 60_000)).toEqual(["1", "1"]);
      expect(marksAfter({ idle_seconds: 60 }, T0 + 600_000)).toEqual(["1", "1"]);
    });
    it("no config stored: the default idle_seconds (300)", () => {
      expect(marksAfter(null, T0 + 299_999)).toEqual(["0", "0"]);
      expect(marksAfter(null, T0 + 300_000)).toEqual(["1", "1"]);
    });
    it("a report before the call's own time (DO clock behind): cleared", () => {
      expect(marksAfter({ idle_seconds: 60 }, T0 - 5_000)).toEqual(["0", "0"]);
    });
  });
});
