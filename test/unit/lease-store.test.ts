/**
 * LeaseStore (src/gateway/lease-store.ts): a lease is not usable while a step call of its
 * session is in flight (nested begin/end counted), drop forgets it, the holder token is the
 * given one or one random UUID made on first read, and the store is a bounded LRU (by entries,
 * and by the leaseWeight estimate).
 */
import { describe, expect, it } from "vitest";
import { EMPTY_LEDGER, type Ledger } from "../../src/core/policy/ledger";
import type { StepLease } from "../../src/core/policy/step-lease";
import { LeaseStore, MAX_LEASES, leaseWeight } from "../../src/gateway/lease-store";

const lease = (calls: number, ledger: Ledger = EMPTY_LEDGER): StepLease => ({ holder: "iso-A", expires_ms: 1_010_000, config_key: "compact {}", calls, last_activity_ms: 1_000_000, ledger });

describe("LeaseStore", () => {
  it("usable() is undefined while a step call is in flight; nested begin/end are counted", () => {
    const s = new LeaseStore("iso-A");
    expect(s.usable("s1")).toBeUndefined(); // none held
    s.set("s1", lease(1));
    expect(s.usable("s1")).toEqual(lease(1));
    s.begin("s1");
    expect(s.usable("s1")).toBeUndefined();
    s.begin("s1");
    s.end("s1");
    expect(s.usable("s1")).toBeUndefined(); // one call still in flight
    expect(s.usable("s2")).toBeUndefined();
    s.set("s2", lease(2));
    expect(s.usable("s2")).toEqual(lease(2)); // other sessions are not blocked
    s.end("s1");
    expect(s.usable("s1")).toEqual(lease(1));
    expect(s.size).toBe(2);
  });

  it("an end without a begin does not go negative (the next begin still blocks)", () => {
    const s = new LeaseStore("iso-A");
    s.set("s1", lease(1));
    s.end("s1");
    expect(s.usable("s1")).toEqual(lease(1));
    s.begin("s1");
    expect(s.usable("s1")).toBeUndefined();
    s.end("s1");
    expect(s.usable("s1")).toEqual(lease(1));
  });

  it("set replaces, drop forgets (also while in flight)", () => {
    const s = new LeaseStore("iso-A");
    s.set("s1", lease(1));
    s.set("s1", lease(5));
    expect([s.usable("s1")?.calls, s.size]).toEqual([5, 1]);
    s.begin("s1");
    s.drop("s1");
    s.end("s1");
    expect([s.usable("s1"), s.size]).toEqual([undefined, 0]);
    s.drop("nope"); // dropping a session without a lease is a no-op
    expect(s.size).toBe(0);
  });

  it("holder: the given token, or one random UUID made on first read and kept", () => {
    expect(new LeaseStore("iso-7").holder).toBe("iso-7");
    const a = new LeaseStore();
    const b = new LeaseStore();
    const first = a.holder;
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([a.holder, a.holder]).toEqual([first, first]);
    expect(b.holder).not.toBe(first);
  });

  it("bounded by entries: the least recently used session is forgotten (usable() counts as a use)", () => {
    expect(MAX_LEASES).toBe(256);
    const s = new LeaseStore("iso-A", 2);
    s.set("a", lease(1));
    s.set("b", lease(2));
    expect(s.usable("a")?.calls).toBe(1); // a is now the most recent
    s.set("c", lease(3));
    expect([s.size, s.usable("a")?.calls, s.usable("b"), s.usable("c")?.calls]).toEqual([2, 1, undefined, 3]);
    s.set("d", lease(4)); // a was used before c: a goes
    expect([s.usable("a"), s.usable("c")?.calls, s.usable("d")?.calls]).toEqual([undefined, 3, 4]);
  });

  it("bounded by estimated bytes: 200 per entry, 64 per first-seen time, 80 per step", () => {
    const entry = { pair_id: "t0", result_hash: "h", action: { kind: "drop_pair" as const }, step: 1, first_seen_ms: 0 };
    const ledger: Ledger = {
      entries: { "t0#h": entry, "t1#h": { ...entry, pair_id: "t1" } },
      first_seen: { t0: 0, t1: 0, t2: 0 },
      steps: [{ step: 1, tier: "micro", at_ms: 0, pair_count: 2, tokens_removed: 10, net_benefit_usd: 0 }],
    };
    expect(leaseWeight(lease(1, ledger))).toBe(2 * 200 + 3 * 64 + 80);
    expect(leaseWeight(lease(1))).toBe(0);
    const s = new LeaseStore("iso-A", 10, 1_000);
    s.set("a", lease(1, ledger)); // 672
    s.set("b", lease(2)); // 0
    expect(s.size).toBe(2);
    s.set("c", lease(3, ledger)); // 1,344 > 1,000: a goes
    expect([s.usable("a"), s.usable("b")?.calls, s.usable("c")?.calls]).toEqual([undefined, 2, 3]);
    s.set("d", lease(4, { ...ledger, entries: { ...ledger.entries, ...Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`x${i}#h`, entry])) } })); // 6 × 200 + 3 × 64 + 80 = 1,472 alone: not kept
    expect([s.usable("d"), s.size]).toEqual([undefined, 2]);
  });
});

describe("LeaseStore: reports of leased calls not sent yet", () => {
  const call = (now_ms: number) => ({ now_ms, model: "m", provider: "anthropic" as const, tier: "none" as const, first_seen: {} });
  const report = (now_ms: number) => ({ leased: call(now_ms), outcome: null, usage: null, estimated_input_tokens: 0 });

  it("a step call takes the calls of the kept reports, in order, and their reports no longer carry them", () => {
    const s = new LeaseStore("iso-A");
    const [r1, r2, other] = [report(1), report(2), report(3)];
    s.track("s1", r1);
    s.track("s1", r2);
    s.track("s2", other);
    expect(s.takeUnreported("s1")).toEqual([call(1), call(2)]);
    expect([r1.leased, r2.leased, other.leased]).toEqual([null, null, call(3)]);
    expect(s.takeUnreported("s1")).toEqual([]);
  });

  it("a report being sent is not taken any more; the others still are", () => {
    const s = new LeaseStore("iso-A");
    const [r1, r2] = [report(1), report(2)];
    s.track("s1", r1);
    s.track("s1", r2);
    s.sent("s1", [r1]);
    expect(s.takeUnreported("s1")).toEqual([call(2)]);
    expect(r1.leased).toEqual(call(1));
    s.track("s1", r1);
    s.sent("s1", [r1]);
    expect(s.takeUnreported("s1")).toEqual([]);
  });
});

describe("LeaseStore: a drop voids the leases of step calls in flight", () => {
  it("grant() keeps a lease unless the session's lease was dropped after its call began; calls begun after the drop are not voided", () => {
    const s = new LeaseStore("iso-A");
    const t1 = s.begin("s1");
    const t2 = s.begin("s1");
    s.drop("s1"); // e.g. a concurrent call's step rolled back
    const t3 = s.begin("s1");
    s.grant("s1", lease(1), t1);
    s.end("s1");
    s.grant("s1", lease(2), t2);
    s.end("s1");
    expect(s.size).toBe(0);
    s.grant("s1", lease(3), t3);
    s.end("s1");
    expect(s.usable("s1")).toEqual(lease(3));
    // Once nothing is in flight the drop is forgotten: a later call's lease is kept.
    s.drop("s1");
    const t4 = s.begin("s1");
    s.grant("s1", lease(4), t4);
    s.end("s1");
    expect(s.usable("s1")).toEqual(lease(4));
  });
});
