/**
 * Step leases (src/core/policy/step-lease.ts, src/gateway/decide-leased.ts) in workerd through
 * the real hook: a session's calls that take no new step go without a step call and forward
 * exactly what the DO-decided path forwards; another isolate takes no step while a lease is
 * held (`skipped=lease_held`); a rolled-back step, a changed config and an admin disable in the
 * same isolate end the lease; an admin disable reaches another isolate's lease when it ends.
 * Each "isolate" is its own LeaseStore (and SentViews) injected through the deps; a manual clock
 * moves 1 s per call unless a test says otherwise.
 */
import { describe, expect, it } from "vitest";
import { LeaseStore, leaseStore } from "../../src/gateway/lease-store";
import { SentViews } from "../../src/gateway/sent-views";
import type { PipelineDeps } from "../../src/gateway/compaction-pipeline";
import { AUTH, adminAppFor, envWith } from "./admin-seed";
import { newTestId, utf8 } from "./helpers";
import { ReportBuffer } from "../../src/gateway/report-buffer";
import { compactVars, LITERAL_CONFIG, logText, manualClock, MODEL_CUTTING_ADAPTER, observedDeps, send, sendNoWait, statsOf, upstreamBodies } from "./pipeline-harness";

/** A conversation of `n` tool rounds (300-line logs), ending with a user turn: under LITERAL_CONFIG, micro steps at n = 4, 6, 7, 8. */
function turns(n: number): Uint8Array {
  const messages: Record<string, unknown>[] = [{ role: "user", content: "Run the checks." }];
  for (let i = 0; i < n; i++) {
    messages.push({ role: "assistant", content: [{ type: "tool_use", id: `toolu_${i}`, name: "shell", input: { cmd: `make t${i}` } }] });
    messages.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_${i}`, content: logText(`t${i}`, 300) }] });
  }
  messages.push({ role: "assistant", content: [{ type: "text", text: "Ran them." }] }, { role: "user", content: "Next." });
  return utf8(JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 1024, tools: [{ name: "shell", description: "stub", input_schema: { type: "object" } }], messages }));
}

const PATH = "/anthropic/v1/messages";
const HEADERS_OF = (session: string) => ({ "x-test-id": session, "x-sluice-session": session });

/** The x-sluice-compaction headers the DO-decided path gives for turns(1..8) (measured once with step_lease_ms 0; the lease run must give the same). */
const EXPECTED = [
  "compact; tier=none; step=none; pairs_removed=0; tokens_before=3130; tokens_after=3130",
  "compact; tier=none; step=none; pairs_removed=0; tokens_before=6157; tokens_after=6157",
  "compact; tier=none; step=none; pairs_removed=0; tokens_before=9184; tokens_after=9184",
  "compact; tier=micro; step=1; pairs_removed=3; tokens_before=12211; tokens_after=3493",
  "compact; tier=micro; step=none; skipped=not_positive; pairs_removed=3; tokens_before=15238; tokens_after=6520",
  "compact; tier=micro; step=2; pairs_removed=5; tokens_before=18265; tokens_after=3735",
  "compact; tier=micro; step=3; pairs_removed=7; tokens_before=21292; tokens_after=950",
  "compact; tier=micro; step=4; pairs_removed=8; tokens_before=24319; tokens_after=1071",
];

/** Sends turns(n) for each n to one session, 1 s apart; returns the headers, the bytes the upstream got, the RPCs made and the session's stats. */
async function run(config: Record<string, unknown>, ns: number[], deps: (i: number) => Partial<PipelineDeps>) {
  const session = newTestId("lease");
  const clock = manualClock();
  const o = observedDeps();
  const headers: string[] = [];
  for (const [i, n] of ns.entries()) {
    clock.advance(1_000);
    const r = await send(compactVars(config), PATH, HEADERS_OF(session), turns(n), { ...o.deps, now: clock.now, ...deps(i) });
    headers.push(r.res.headers.get("x-sluice-compaction") ?? "");
  }
  return { session, clock, o, headers, bodies: await upstreamBodies(session), stats: await statsOf(session) };
}

const stepsOf = (s: Awaited<ReturnType<typeof statsOf>>) => s.steps.map((x) => [x.step, x.tier, x.pairs_removed, x.tokens_before, x.tokens_after]);

describe("step lease", () => {
  it("calls that take no new step go without a step call and forward byte for byte what the DO-decided path forwards", async () => {
    const ns = [1, 2, 3, 4, 5, 6, 7, 8];
    const [isoA, isoB] = [new LeaseStore("iso-a"), new LeaseStore("iso-b")];
    const leased = await run(LITERAL_CONFIG, ns, () => ({ leases: isoA }));
    const direct = await run({ ...LITERAL_CONFIG, step_lease_ms: 0 }, ns, () => ({ leases: isoB }));
    expect(direct.headers).toEqual(EXPECTED);
    expect(leased.headers).toEqual(EXPECTED);
    expect(leased.bodies).toEqual(direct.bodies);
    // Call 1 asked the DO for a lease alone (no view); calls 1, 2, 3 and 5 were decided under it; 4, 6, 7, 8 would step, so they
    // went to the DO — call 4 with the whole view (none had been sent), the later ones as deltas.
    expect(leased.o.calls).toEqual(["lease", "reportCalls", "reportCalls", "reportCalls", "step", "reportCalls", "reportCalls", "stepDelta", "reportCalls", "stepDelta", "reportCalls", "stepDelta", "reportCalls"]);
    expect(direct.o.calls.filter((c) => c === "step" || c === "stepDelta")).toHaveLength(8);
    const { leased_requests, ...rest } = leased.stats.counters;
    expect([leased_requests, rest]).toEqual([4, direct.stats.counters]);
    expect([leased.stats.calls, leased.stats.calls_log.length]).toEqual([8, 8]);
    expect(stepsOf(leased.stats)).toEqual(stepsOf(direct.stats));
    expect(stepsOf(leased.stats)).toEqual([[1, "micro", 3, 12211, 3466], [2, "micro", 2, 18265, 3690], [3, "micro", 2, 21292, 887], [4, "micro", 1, 24319, 999]]);
  });

  it("while one isolate holds the lease another takes no step (skipped=lease_held); once it has ended, it may", async () => {
    const a = { leases: new LeaseStore("iso-a"), sentViews: new SentViews() };
    const b = { leases: new LeaseStore("iso-b"), sentViews: new SentViews() };
    const session = newTestId("lease-two");
    const clock = manualClock();
    const o = observedDeps();
    const call = async (n: number, iso: typeof a) => {
      const r = await send(compactVars(LITERAL_CONFIG), PATH, HEADERS_OF(session), turns(n), { ...o.deps, now: clock.now, ...iso });
      return r.res.headers.get("x-sluice-compaction");
    };
    clock.advance(1_000);
    expect(await call(3, a)).toBe(EXPECTED[2]); // a holds the lease until +10 s
    clock.advance(1_000);
    expect(await call(4, b)).toBe("compact; tier=micro; step=none; skipped=lease_held; pairs_removed=0; tokens_before=12211; tokens_after=12211");
    expect(await call(4, a)).toBe(EXPECTED[3]); // the holder takes the step (through the DO) and its lease is renewed
    clock.advance(11_000); // past a's lease and the 1 s skew margin
    expect(await call(5, b)).toBe(EXPECTED[4]); // b gets the lease now; the ledger a built is re-applied
    clock.advance(1_000);
    expect(await call(6, a)).toBe("compact; tier=micro; step=none; skipped=lease_held; pairs_removed=3; tokens_before=18265; tokens_after=9547");
    // a asks for a lease alone and gets it; b's ask is refused (a holds one), so b steps with its view (held); a's step sends its
    // first view whole; past a's lease b's ask is granted; then a's is refused and its step goes as a delta against its own view.
    expect(o.calls.filter((c) => c !== "reportCalls")).toEqual(["lease", "lease", "step", "step", "lease", "lease", "stepDelta"]);
    const stats = await statsOf(session);
    expect([stats.calls, stats.counters.steps_held, stats.counters.leased_requests, stepsOf(stats)]).toEqual([5, 2, 2, [[1, "micro", 3, 12211, 3466]]]);
  });

  it("a step rolled back (its edit failed the check) ends the lease: the next call asks the DO", async () => {
    const leases = new LeaseStore("iso-a");
    const r = await run(LITERAL_CONFIG, [1, 2, 3, 4, 5], () => ({ leases, adapterFor: () => MODEL_CUTTING_ADAPTER }));
    expect(r.headers.slice(3)).toEqual(["skipped; reason=guarantee_check", "skipped; reason=guarantee_check"]);
    // Call 4's step is rolled back at once (reportOutcome) and its lease dropped; call 5 asks for a lease again, would step under
    // it, so goes to the DO, which tries again and rolls back again.
    expect(r.o.calls).toEqual(["lease", "reportCalls", "reportCalls", "reportCalls", "step", "reportOutcome", "lease", "stepDelta", "reportOutcome"]);
    expect([r.stats.calls, r.stats.counters.fail_open_guarantee_check, r.stats.steps]).toEqual([5, 2, []]);
  });

  it("a call under another config asks the DO, and the lease it gets carries the new config", async () => {
    const leases = new LeaseStore("iso-a");
    const session = newTestId("lease-config");
    const clock = manualClock();
    const o = observedDeps();
    for (const config of [LITERAL_CONFIG, { ...LITERAL_CONFIG, head_chars: 150 }, { ...LITERAL_CONFIG, head_chars: 150 }]) {
      clock.advance(1_000);
      await send(compactVars(config), PATH, HEADERS_OF(session), turns(2), { ...o.deps, now: clock.now, leases });
    }
    expect(o.calls).toEqual(["lease", "reportCalls", "lease", "reportCalls", "reportCalls"]);
    expect(leases.usable(session)?.config_key).toContain('"head_chars":150');
  });

  it("an admin disable ends this isolate's lease at once, another isolate's when it ends", async () => {
    const clock = manualClock();
    const disable = (session: string) => adminAppFor(newTestId("idx-lease")).request(`/admin/sessions/${session}/disable`, { method: "POST", headers: AUTH }, envWith());
    const call = async (session: string, n: number, deps: Partial<PipelineDeps>) => {
      const r = await send(compactVars(LITERAL_CONFIG), PATH, HEADERS_OF(session), turns(n), { now: clock.now, ...deps });
      return r.res.headers.get("x-sluice-compaction");
    };
    // This isolate (the module's lease store, which the admin route clears).
    const here = newTestId("lease-disable-here");
    clock.advance(1_000);
    await call(here, 2, {});
    expect(leaseStore.usable(here)).toBeDefined();
    expect((await disable(here)).status).toBe(200);
    expect(leaseStore.usable(here)).toBeUndefined();
    clock.advance(1_000);
    expect(await call(here, 3, {})).toBe("off; reason=session_disabled");
    // Another isolate decides alone until its lease ends (step_lease_ms: docs/config.md "Step lease").
    const there = newTestId("lease-disable-there");
    const other = new LeaseStore("iso-other");
    await call(there, 2, { leases: other });
    expect((await disable(there)).status).toBe(200);
    clock.advance(1_000);
    expect(await call(there, 3, { leases: other })).toBe(EXPECTED[2]);
    clock.advance(10_000);
    expect(await call(there, 3, { leases: other })).toBe("off; reason=session_disabled");
  });

  it("reports of calls answered within one window go in one reportCalls per session, in order", async () => {
    const reports = new ReportBuffer(200);
    const leases = new LeaseStore("iso-a");
    const o = observedDeps();
    const [a, b] = [newTestId("lease-batch-a"), newTestId("lease-batch-b")];
    const pending: (() => Promise<void>)[] = [];
    for (const n of [2, 3]) {
      const sent = await Promise.all([a, b].map((session) => sendNoWait(compactVars(LITERAL_CONFIG), PATH, HEADERS_OF(session), turns(n), { ...o.deps, leases, reports })));
      for (const s of sent) {
        await s.res.arrayBuffer();
        pending.push(s.settled);
      }
    }
    await Promise.all(pending.map((settled) => settled()));
    expect(o.calls).toEqual(["lease", "lease", "reportCalls", "reportCalls"]);
    for (const session of [a, b]) {
      const stats = await statsOf(session);
      expect([stats.calls, stats.counters.requests, stats.counters.leased_requests, stats.calls_log.map((c) => c.tokens_original)]).toEqual([2, 2, 2, [6157, 9184]]);
    }
  });
});

describe("step lease: the DO's step sees the holder's calls not reported yet", () => {
  /**
   * turns(1) at +1 s (a lease until +11 s), turns(2) at +10 s (decided under the lease; its
   * report waits in the buffer), then the third call (`third`: [turns, ms later]). With
   * idle_seconds 10 the DO path (step_lease_ms 0) sees 1 s of idleness before the third call;
   * the lease path must too, whether the unreported call reaches the DO with a lease ask or a step.
   */
  async function quick(config: Record<string, unknown>, third: readonly [number, number] = [3, 1_000], o = observedDeps()) {
    const session = newTestId("lease-unreported");
    const clock = manualClock();
    const deps = { ...o.deps, leases: new LeaseStore("iso-a"), reports: new ReportBuffer(2_000), now: clock.now };
    const headers: string[] = [];
    const pending: (() => Promise<void>)[] = [];
    for (const [n, at] of [[1, 1_000], [2, 9_000], third] as const) {
      clock.advance(at);
      const s = await sendNoWait(compactVars(config), PATH, HEADERS_OF(session), turns(n), deps);
      await s.res.arrayBuffer();
      headers.push(s.res.headers.get("x-sluice-compaction") ?? "");
      pending.push(s.settled);
    }
    await Promise.all(pending.map((settled) => settled()));
    const stats = await statsOf(session);
    return { headers, bodies: await upstreamBodies(session), stats };
  }

  it("a stepping call under the lease carries the unreported call in its step (idle time from the leased call)", async () => {
    const config = { ...LITERAL_CONFIG, idle_seconds: 10 };
    const direct = await quick({ ...config, step_lease_ms: 0 }, [4, 500]);
    const o = observedDeps();
    const leased = await quick(config, [4, 500], o);
    expect(direct.headers).toEqual([EXPECTED[0], EXPECTED[1], EXPECTED[3]]);
    expect(leased.headers).toEqual(direct.headers);
    expect(leased.bodies).toEqual(direct.bodies);
    // turns(4) at +10.5 s is still under the lease but would step: it goes to the DO with its whole view and call 2's call.
    expect(o.calls).toEqual(["lease", "step", "reportCalls"]);
    const { leased_requests, ...rest } = leased.stats.counters;
    expect([leased_requests, rest]).toEqual([2, direct.stats.counters]);
    expect([leased.stats.calls, leased.stats.counters.requests, leased.stats.calls_log.length]).toEqual([3, 3, 3]);
  });

  it("a call after the lease ended asks for a lease with the unreported call, and is decided as on the DO path", async () => {
    const config = { ...LITERAL_CONFIG, idle_seconds: 10 };
    const direct = await quick({ ...config, step_lease_ms: 0 });
    const leased = await quick(config);
    expect(direct.headers).toEqual([EXPECTED[0], EXPECTED[1], EXPECTED[2]]);
    expect(leased.headers).toEqual(direct.headers);
    expect(leased.bodies).toEqual(direct.bodies);
    // The second call (leased) was carried by the third call's lease ask, and its report did not count it again; all three
    // were decided under a lease (the first and third asked for it alone).
    const { leased_requests, ...rest } = leased.stats.counters;
    expect([leased_requests, rest]).toEqual([3, direct.stats.counters]);
    expect([leased.stats.calls, leased.stats.counters.requests, leased.stats.calls_log.length]).toEqual([3, 3, 3]);
  });
});

describe("step lease: a lease ask records the request's activity", () => {
  /**
   * Isolate a: turns(1) at +1 s, turns(2) at +296 s (its lease ended long ago: a lease ask; the
   * report waits in a's buffer). Isolate b: turns(3) at +308 s, past a's lease and the skew margin.
   * On the DO path call 2's step recorded its activity, so call 3 sees 12 s of idle time, not
   * 307 s (which would make it a cache-cold time_based step); the lease ask must record it too.
   */
  async function calls(config: Record<string, unknown>) {
    const session = newTestId("lease-ask-activity");
    const clock = manualClock();
    // a's reports wait 3 s (real time): call 2's has not reached the DO when call 3 asks.
    const a = { leases: new LeaseStore("iso-a"), sentViews: new SentViews(), reports: new ReportBuffer(3_000), now: clock.now };
    const b = { leases: new LeaseStore("iso-b"), sentViews: new SentViews(), reports: new ReportBuffer(0), now: clock.now };
    const headers: string[] = [];
    const pending: (() => Promise<void>)[] = [];
    for (const [n, at, iso] of [[1, 1_000, a], [2, 295_000, a], [3, 12_000, b]] as const) {
      clock.advance(at);
      const s = await sendNoWait(compactVars(config), PATH, HEADERS_OF(session), turns(n), iso);
      await s.res.arrayBuffer();
      headers.push(s.res.headers.get("x-sluice-compaction") ?? "");
      pending.push(s.settled);
    }
    return { headers, bodies: await upstreamBodies(session), settle: () => Promise.all(pending.map((settled) => settled())) };
  }

  it("another isolate's call after it is decided from that activity, as on the DO path", async () => {
    const direct = await calls({ ...LITERAL_CONFIG, step_lease_ms: 0 });
    const leased = await calls(LITERAL_CONFIG);
    expect(direct.headers).toEqual([EXPECTED[0], EXPECTED[1], EXPECTED[2]]);
    expect(leased.headers).toEqual(direct.headers);
    expect(leased.bodies).toEqual(direct.bodies);
    await Promise.all([direct.settle(), leased.settle()]);
  });
});

describe("step lease: a rolled-back step and a concurrent call of the same isolate", () => {
  it("the lease a concurrent call brings back after the rollback (it holds the rolled-back step) is not kept", async () => {
    const session = newTestId("lease-rollback-race");
    const clock = manualClock();
    const o = observedDeps();
    const leases = new LeaseStore("iso-a");
    const deps = { ...o.deps, now: clock.now, leases };
    clock.advance(1_000);
    await send(compactVars(LITERAL_CONFIG), PATH, HEADERS_OF(session), turns(3), deps); // the lease
    clock.advance(1_000);
    // Both would step, so both go to the DO; the first one's edit fails the check and its step is rolled back.
    const [bad, good] = await Promise.all([
      sendNoWait(compactVars(LITERAL_CONFIG), PATH, HEADERS_OF(session), turns(4), { ...deps, adapterFor: () => MODEL_CUTTING_ADAPTER }),
      sendNoWait(compactVars(LITERAL_CONFIG), PATH, HEADERS_OF(session), turns(4), deps),
    ]);
    for (const s of [bad, good]) await s.res.arrayBuffer();
    await Promise.all([bad.settled(), good.settled()]);
    expect(bad.res.headers.get("x-sluice-compaction")).toBe("skipped; reason=guarantee_check");
    // The second call re-applied step 1 and took step 2 before the rollback reached the DO; step 1 is gone from the DO.
    const doSteps = (await statsOf(session)).steps.map((x) => x.step);
    expect(doSteps).toEqual([2]);
    // No lease this isolate keeps holds the rolled-back step (its local decisions would re-apply it; the DO's do not).
    const leaseSteps = (leases.usable(session)?.ledger.steps ?? []).map((x) => x.step);
    expect(leaseSteps.filter((n) => !doSteps.includes(n))).toEqual([]);
  });
});
