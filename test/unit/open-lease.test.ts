/**
 * A lease asked for alone (src/do/open-lease.ts, "lease first"), over node:sqlite
 * (tools/replay/sluice/create-memory-sql.ts) and the real SessionStore: a new session gets a
 * lease with 0 calls, its last activity at the ask's time and the empty ledger; an existing one
 * its calls, last activity and stored ledger; the caller's unreported calls are recorded first;
 * the config is stored (the alarms read it); and no lease is granted where the DO's own step
 * must decide — disabled, idle or complete marks, an HTTP engine, leases off, another holder's
 * lease in force.
 */
import { describe, expect, it } from "vitest";
import { compactionConfigSchema, type CompactionConfig } from "../../src/config/schema";
import { EMPTY_LEDGER } from "../../src/core/policy/ledger";
import { configKey, LEASE_SKEW_MS } from "../../src/core/policy/step-lease";
import { saveAdditions } from "../../src/do/ledger-sql";
import { openLease, type LeaseInput } from "../../src/do/open-lease";
import { nextAlarm } from "../../src/do/session-alarms";
import { memorySession } from "../support/memory-session";

const T0 = 1_000_000;
const session = memorySession;
const CONFIG: CompactionConfig = compactionConfigSchema.parse({ step_lease_ms: 10_000, idle_seconds: 300 });
const ask = (o: Partial<LeaseInput> = {}): LeaseInput => ({ session_id: "s1", config: CONFIG, mode: "compact", now_ms: T0, lease_holder: "iso-a", ...o });

describe("openLease", () => {
  it("a new session: 0 calls, last activity = the ask's time, the empty ledger, until now + step_lease_ms; the holder and config stored", () => {
    const { sql, store } = session();
    const lease = openLease(store, sql, ask());
    expect(lease).toEqual({ holder: "iso-a", expires_ms: T0 + 10_000, config_key: configKey(CONFIG, "compact"), calls: 0, last_activity_ms: T0, ledger: EMPTY_LEDGER });
    expect([store.getMeta("lease_holder"), store.getMeta("lease_expires_ms"), store.getMeta("config"), store.getMeta("last_activity_ms")]).toEqual(["iso-a", String(T0 + 10_000), JSON.stringify(CONFIG), String(T0)]);
    // Not a call yet (its report or step counts it), but the session is active from now: the idle alarm is timed from here.
    expect([store.getMetaNumber("calls"), nextAlarm(store, store.getMetaNumber("last_activity_ms"))]).toEqual([0, { kind: "idle", at_ms: T0 + 300_000 }]);
  });

  it("a granted ask records the request's activity (never backwards), so the idle alarm cannot fire under the lease; a refused one records none", () => {
    const { sql, store } = session();
    store.setMeta("calls", 3);
    store.setMeta("last_activity_ms", T0 - 295_000);
    const lease = openLease(store, sql, ask())!;
    // The lease carries the activity before the request (its own decision sees 295 s of idle); the session's moves to T0.
    expect([lease.last_activity_ms, store.getMeta("last_activity_ms"), nextAlarm(store, T0).at_ms]).toEqual([T0 - 295_000, String(T0), T0 + 300_000]);
    store.setMeta("last_activity_ms", T0 + 2_000); // a later call's report came first
    openLease(store, sql, ask({ now_ms: T0 + 1_000 }));
    expect(store.getMeta("last_activity_ms")).toBe(String(T0 + 2_000));
    store.setMeta("disabled", 1);
    expect(openLease(store, sql, ask({ now_ms: T0 + 9_000 }))).toBeNull();
    expect(store.getMeta("last_activity_ms")).toBe(String(T0 + 2_000));
  });

  it("an existing session: its calls, last activity and ledger; the caller's unreported calls recorded first", () => {
    const { sql, store } = session();
    store.setMeta("calls", 4);
    store.setMeta("last_activity_ms", T0 - 5_000);
    saveAdditions(sql, { entries: [{ pair_id: "t1", result_hash: "h1", action: { kind: "drop_pair" }, step: 1, first_seen_ms: T0 - 9_000 }], first_seen: { t1: T0 - 9_000 }, step: { step: 1, tier: "micro", at_ms: T0 - 8_000, pair_count: 1, tokens_removed: 900, net_benefit_usd: 0.01 } }, { tokens_before: 2_000, tokens_after: 1_100, correlation_id: "c1" });
    store.flush();
    const unreported = { now_ms: T0 - 1_000, model: "claude-sonnet-4-5", provider: "anthropic" as const, tier: "micro" as const, first_seen: { t2: T0 - 1_000 } };
    const lease = openLease(store, sql, ask({ leased_calls: [unreported] }))!;
    expect([lease.calls, lease.last_activity_ms, store.getMeta("last_activity_ms")]).toEqual([5, T0 - 1_000, String(T0)]);
    expect(lease.ledger).toEqual({
      entries: { "t1#h1": { pair_id: "t1", result_hash: "h1", action: { kind: "drop_pair" }, step: 1, first_seen_ms: T0 - 9_000 } },
      first_seen: { t1: T0 - 9_000, t2: T0 - 1_000 },
      steps: [{ step: 1, tier: "micro", at_ms: T0 - 8_000, pair_count: 1, tokens_removed: 900, net_benefit_usd: 0.01 }],
    });
    store.flush();
    expect(store.counters()).toEqual({ requests: 1, leased_requests: 1 });
  });

  it("no lease where the DO's step must decide: disabled, idle or complete marks, an HTTP engine, leases off", () => {
    for (const [key, value] of [["disabled", 1], ["idle", 1], ["complete", 1]] as const) {
      const { sql, store } = session();
      store.setMeta(key, value);
      expect([key, openLease(store, sql, ask())]).toEqual([key, null]);
    }
    const { sql, store } = session();
    expect(openLease(store, sql, ask({ config: { ...CONFIG, step_lease_ms: 0 } }))).toBeNull();
    expect(openLease(store, sql, ask({ config: { ...CONFIG, engine: "local", endpoint: "http://127.0.0.1:9" } }))).toBeNull();
    expect(store.getMeta("lease_holder")).toBeNull();
  });

  it("another holder's lease in force (skew margin included) refuses; the same holder, or one past its end, is granted", () => {
    const { sql, store } = session();
    expect(openLease(store, sql, ask({ lease_holder: "iso-a" }))?.holder).toBe("iso-a");
    expect(openLease(store, sql, ask({ lease_holder: "iso-b", now_ms: T0 + 10_000 + LEASE_SKEW_MS - 1 }))).toBeNull();
    expect(openLease(store, sql, ask({ lease_holder: "iso-a", now_ms: T0 + 5_000 }))?.expires_ms).toBe(T0 + 15_000);
    expect(openLease(store, sql, ask({ lease_holder: "iso-b", now_ms: T0 + 15_000 + LEASE_SKEW_MS }))?.holder).toBe("iso-b");
  });
});
