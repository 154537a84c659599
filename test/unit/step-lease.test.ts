/**
 * The step lease (src/core/policy/step-lease.ts) and its use of the core: leaseExpiry,
 * foreignLeaseHeld (the DO's hold rule, LEASE_SKEW_MS), configKey, leasedStep (null when expired,
 * under another key, or when the core would take a step; else the tier result) and advanceLease;
 * compact with `steps_held` (src/core/policy/compact.ts). The holder's decision is checked
 * against the DO's own formula (compact over stepContext) and against runStep
 * (src/do/run-step.ts) over node:sqlite: the holder and the DO decide the same.
 */
import { describe, expect, it } from "vitest";
import { compactionConfigSchema } from "../../src/config/schema";
import { MODEL_PRICES } from "../../src/core/cost/prices";
import { CORE_DEFAULTS, compact } from "../../src/core/policy/compact";
import { EMPTY_LEDGER, mergeLedger, type Ledger } from "../../src/core/policy/ledger";
import { stepContext, type SessionStepState } from "../../src/core/policy/step-context";
import { LEASE_SKEW_MS, advanceLease, configKey, foreignLeaseHeld, leaseExpiry, leasedStep, type StepLease } from "../../src/core/policy/step-lease";
import { TIER_REGISTRY } from "../../src/core/tiers/registry";
import type { TierContext } from "../../src/core/policy/types";
import type { ConversationView } from "../../src/core/view/types";
import { runStep } from "../../src/do/run-step";
import { SessionStore } from "../../src/do/session-store";
import { slimView, stepOutputOf } from "../../src/do/step-types";
import { createMemorySql } from "../../tools/replay/sluice/create-memory-sql";
import { lines, makeView, type MessageSpec } from "../support/make-view";

/** `n` turns, each one Bash build with a distinct 20,000-byte log (as test/unit/core-policy.test.ts). */
function readSession(n: number): ConversationView {
  const m: MessageSpec[] = [{ role: "user", text: "refactor" }];
  for (let i = 0; i < n; i++) {
    m.push({ role: "assistant", calls: [{ id: `t${i}`, tool: "Bash", input: { command: `make build-${i}` } }] });
    m.push({ role: "user", results: [{ id: `t${i}`, text: lines(20_000, `r${String.fromCharCode(97 + i)}`) }] });
  }
  return makeView({ outside_tokens: 1_000, messages: m });
}

const T0 = 1_000_000;
const KEY = configKey(CORE_DEFAULTS, "compact");
/** Step 1 over 12 turns truncates t0…t7 to 471 bytes each (core-policy.test.ts), removing 39,056 tokens. */
const TRUNCATED = Object.fromEntries([0, 1, 2, 3, 4, 5, 6, 7].map((i) => [`t${i}`, { kind: "truncate_result", head_bytes: 471 }]));
const step1 = compact(stepContext({ calls: 1, last_activity_ms: null, idle: false, complete: false, ledger: EMPTY_LEDGER }, readSession(12), CORE_DEFAULTS, T0, "c1"));
const LEDGER1: Ledger = mergeLedger(EMPTY_LEDGER, step1.ledger_additions);
const lease = (o: Partial<StepLease> = {}): StepLease => ({ holder: "iso-A", expires_ms: T0 + 10_000, config_key: KEY, calls: 1, last_activity_ms: T0, ledger: LEDGER1, ...o });
/** The DO's formula for the request after the lease's last one. */
const doDecides = (l: StepLease, view: ConversationView, now: number, id: string) => {
  const state: SessionStepState = { calls: l.calls + 1, last_activity_ms: l.last_activity_ms, idle: false, complete: false, ledger: l.ledger };
  return compact(stepContext(state, view, CORE_DEFAULTS, now, id));
};

describe("leaseExpiry", () => {
  it("now + step_lease_ms, cut to idle_seconds when that is shorter", () => {
    expect(leaseExpiry(T0, 10_000, 300)).toBe(1_010_000);
    expect(leaseExpiry(T0, 10_000, 10)).toBe(1_010_000); // equal bounds
    expect(leaseExpiry(T0, 10_000, 4)).toBe(1_004_000); // 4 s idle < 10 s lease
    expect(leaseExpiry(T0, 0, 300)).toBe(T0);
  });
});

describe("foreignLeaseHeld", () => {
  const held = { holder: "iso-A", expires_ms: T0 };
  it("never for the holder itself, nor for no holder", () => {
    expect(LEASE_SKEW_MS).toBe(1_000);
    expect(foreignLeaseHeld(held, "iso-A", T0 - 1)).toBe(false);
    expect(foreignLeaseHeld({ holder: null, expires_ms: T0 }, "iso-B", T0 - 1)).toBe(false);
    expect(foreignLeaseHeld({ holder: "", expires_ms: T0 }, "iso-B", T0 - 1)).toBe(false);
    expect(foreignLeaseHeld({ holder: "", expires_ms: T0 }, undefined, T0 - 1)).toBe(false);
  });
  it("for another isolate until expiry + LEASE_SKEW_MS (exclusive)", () => {
    expect(foreignLeaseHeld(held, "iso-B", T0 - 5_000)).toBe(true);
    expect(foreignLeaseHeld(held, "iso-B", T0)).toBe(true);
    expect(foreignLeaseHeld(held, "iso-B", T0 + LEASE_SKEW_MS - 1)).toBe(true);
    expect(foreignLeaseHeld(held, "iso-B", T0 + LEASE_SKEW_MS)).toBe(false);
    expect(foreignLeaseHeld(held, undefined, T0 + 999)).toBe(true); // a caller that takes no lease
    expect(foreignLeaseHeld(held, undefined, T0 + 1_000)).toBe(false);
  });
});

describe("configKey", () => {
  it("the mode and the config JSON", () => {
    expect(configKey({ a: 1 }, "compact")).toBe('compact {"a":1}');
    expect(configKey(CORE_DEFAULTS, "measure")).not.toBe(KEY);
    expect(configKey({ ...CORE_DEFAULTS, idle_seconds: 301 }, "compact")).not.toBe(KEY);
    expect(configKey({ ...CORE_DEFAULTS }, "compact")).toBe(KEY);
  });
});

describe("leasedStep", () => {
  const v13 = readSession(13);
  it("a request that takes no step: the tier result, exactly as the DO's formula gives it", () => {
    // calls 2 → R = 8: step 2 (t8) does not pay.
    const r = leasedStep(lease(), KEY, v13, CORE_DEFAULTS, T0 + 5_000, "c2");
    expect(r).not.toBeNull();
    expect(r!.plan.actions).toEqual(TRUNCATED);
    expect(r).toMatchObject({ tier: "none", step: null, memory: null, cost_estimate: 0, skipped: { tier: "micro", reason: "not_positive" } });
    expect([r!.tokens_original, r!.tokens_before, r!.tokens_after]).toEqual([v13.est_tokens, v13.est_tokens - 39_056, v13.est_tokens - 39_056]);
    expect(r!.ledger_additions).toEqual({ entries: [], first_seen: { t12: T0 + 5_000 }, step: null });
    expect(r).toEqual(doDecides(lease(), v13, T0 + 5_000, "c2"));
    // Last ms of the lease: still decided.
    expect(leasedStep(lease(), KEY, v13, CORE_DEFAULTS, T0 + 9_999, "c2")).toEqual(doDecides(lease(), v13, T0 + 9_999, "c2"));
  });
  it("null at expiry and under another config key", () => {
    expect(leasedStep(lease(), KEY, v13, CORE_DEFAULTS, T0 + 10_000, "c2")).toBeNull();
    expect(leasedStep(lease(), configKey(CORE_DEFAULTS, "measure"), v13, CORE_DEFAULTS, T0 + 5_000, "c2")).toBeNull();
  });
  it("null when the core would take a step (the DO takes it)", () => {
    // Empty ledger: step 1 over 12 turns.
    const fresh = lease({ ledger: EMPTY_LEDGER });
    expect(doDecides(fresh, readSession(12), T0 + 5_000, "c2").step).toMatchObject({ step: 1, pair_ids: ["t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7"] });
    expect(leasedStep(fresh, KEY, readSession(12), CORE_DEFAULTS, T0 + 5_000, "c2")).toBeNull();
    // 399 calls → R = 200: step 2 (t8) pays.
    const long = lease({ calls: 399 });
    expect(doDecides(long, v13, T0 + 5_000, "c2").step).toMatchObject({ step: 2, pair_ids: ["t8"], tokens_removed: 4_882 });
    expect(leasedStep(long, KEY, v13, CORE_DEFAULTS, T0 + 5_000, "c2")).toBeNull();
  });
});

describe("advanceLease", () => {
  it("one call more, the later activity, the request's first-seen times; entries and input untouched", () => {
    const l = lease();
    const before = structuredClone(l);
    const r = leasedStep(l, KEY, readSession(13), CORE_DEFAULTS, T0 + 5_000, "c2")!;
    const next = advanceLease(l, T0 + 5_000, r);
    expect(next).toEqual({ ...l, calls: 2, last_activity_ms: T0 + 5_000, ledger: { entries: LEDGER1.entries, first_seen: { ...LEDGER1.first_seen, t12: T0 + 5_000 }, steps: LEDGER1.steps } });
    expect(Object.keys(next.ledger.first_seen)).toEqual(["t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9", "t10", "t11", "t12"]);
    expect(l).toEqual(before);
    // An older request (reordered) does not move the activity back.
    expect(advanceLease(next, T0 + 1_000, r)).toMatchObject({ calls: 3, last_activity_ms: T0 + 5_000 });
  });
});

describe("compact with steps_held", () => {
  const ctxOf = (view: ConversationView, calls: number, o: Partial<TierContext> = {}): TierContext => ({
    ...stepContext({ calls, last_activity_ms: T0, idle: false, complete: false, ledger: LEDGER1 }, view, CORE_DEFAULTS, T0 + 5_000, "c2"), ...o,
  });
  it("a tier that would step: the none tier's re-applied ledger, skipped lease_held", () => {
    const c = ctxOf(readSession(13), 400); // micro would take step 2
    expect(compact(c).step).not.toBeNull();
    const held = compact({ ...c, steps_held: true });
    expect(held.plan.actions).toEqual(TRUNCATED);
    expect(held).toMatchObject({ tier: "none", step: null, memory: null, cost_estimate: 0, skipped: { tier: "micro", reason: "lease_held" } });
    expect(held.ledger_additions).toEqual({ entries: [], first_seen: { t12: T0 + 5_000 }, step: null });
    expect(held).toEqual({ ...TIER_REGISTRY.none.compact(c), skipped: { tier: "micro", reason: "lease_held" } });
  });
  it("auto selected (context ≥ 70 %): also held, no memory and no media strip", () => {
    const c = ctxOf(readSession(13), 2, { pressure: { turn_count: 14, context_pct_used: 0.75, idle_seconds: 0, session_complete: false } });
    expect(compact({ ...c, steps_held: true })).toMatchObject({ tier: "none", skipped: { tier: "auto", reason: "lease_held" }, plan: { actions: TRUNCATED } });
  });
  it("none selected: unchanged behaviour", () => {
    const c = ctxOf(readSession(13), 2, { pressure: { turn_count: 1, context_pct_used: 0.3, idle_seconds: 0, session_complete: false } });
    const plain = compact(c);
    expect(plain).toMatchObject({ tier: "none", skipped: null, plan: { actions: TRUNCATED } });
    expect(compact({ ...c, steps_held: true })).toEqual(plain);
  });
});

describe("runStep grants the lease, the holder and the DO decide the same, other isolates are held", () => {
  it("step 1 with a lease; request 2 decided alike by holder and DO; iso-B held until expiry + skew", async () => {
    const config = compactionConfigSchema.parse({});
    const key = configKey(config, "compact");
    const { sql, close } = createMemorySql();
    const store = new SessionStore(sql);
    const deps = { store, sql, env: {} };
    const input = (view: ConversationView, now_ms: number, id: string, lease_holder?: string) => ({ session_id: "s", view: slimView(view), config, mode: "compact" as const, correlation_id: id, now_ms, lease_holder });

    const out1 = await runStep(deps, input(readSession(12), T0, "c1", "iso-A"));
    expect([out1.tier, out1.step, out1.plan.actions]).toEqual(["micro", 1, TRUNCATED]);
    const l1 = out1.lease!;
    expect({ ...l1, ledger: null }).toEqual({ holder: "iso-A", expires_ms: T0 + 10_000, config_key: key, calls: 1, last_activity_ms: T0, ledger: null });
    expect(l1.ledger).toEqual(LEDGER1);

    // Request 2: the holder's own decision, then the DO's for the same request.
    const v13 = readSession(13);
    const mine = leasedStep(l1, key, slimView(v13), config, T0 + 5_000, "c2")!;
    const out2 = await runStep(deps, input(v13, T0 + 5_000, "c2", "iso-A"));
    const { lease: l2, ...rest2 } = out2;
    expect(rest2).toEqual(stepOutputOf(mine));
    expect(rest2).toMatchObject({ tier: "micro", skipped: "not_positive", step: null, pairs_removed: 8 });
    expect(l2).toEqual({ ...advanceLease(l1, T0 + 5_000, mine), expires_ms: T0 + 15_000 });

    // Another isolate within the lease (+ skew): no step, no lease.
    const out3 = await runStep(deps, input(readSession(13), T0 + 15_999, "c3", "iso-B"));
    expect([out3.tier, out3.skipped, out3.step, out3.lease, out3.plan.actions]).toEqual(["micro", "lease_held", null, undefined, TRUNCATED]);
    expect(store.counters().steps_held).toBe(1);
    // After expiry + skew it gets its own lease.
    const out4 = await runStep(deps, input(readSession(13), T0 + 16_000, "c4", "iso-B"));
    expect([out4.skipped, out4.lease?.holder, out4.lease?.expires_ms, out4.lease?.calls]).toEqual(["not_positive", "iso-B", T0 + 26_000, 4]);
    expect([store.getMeta("lease_holder"), store.getMeta("lease_expires_ms"), store.counters().steps_held]).toEqual(["iso-B", String(T0 + 26_000), 1]);
    close();
  });
});
