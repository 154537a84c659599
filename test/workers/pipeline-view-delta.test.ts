/**
 * Step views sent as deltas (src/do/view-delta.ts through src/gateway/compaction-pipeline.ts),
 * in workerd through the real hook: the second call of a session goes to `stepDelta` and
 * forwards exactly the bytes (and header) a gateway without deltas forwards; when the DO lost
 * its base (evicted) it answers need_full and the whole view follows in `step`.
 */
import { evictDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SentViews } from "../../src/gateway/sent-views";
import { compactVars, LITERAL_CONFIG, literalTwoCalls, observedDeps, sessionStub } from "./pipeline-harness";

const VARS = compactVars(LITERAL_CONFIG);

describe("step views as deltas", () => {
  it("call 2 goes as a delta and forwards what a gateway without deltas forwards, byte for byte", async () => {
    const o = observedDeps();
    const withDelta = await literalTwoCalls(VARS, { ...o.deps, sentViews: new SentViews() });
    expect(o.calls).toEqual(["step", "reportCall", "stepDelta", "reportCall"]);
    const p = observedDeps();
    const without = await literalTwoCalls(VARS, { ...p.deps, sentViews: new SentViews(0) }); // remembers nothing: always the whole view
    expect(p.calls).toEqual(["step", "reportCall", "step", "reportCall"]);
    expect(withDelta.raw).toBe("compact; tier=time_based; step=1; pairs_removed=1; tokens_before=14443; tokens_after=7388");
    expect([without.raw, without.forwarded]).toEqual([withDelta.raw, withDelta.forwarded]);
    expect([withDelta.stats.counters, withDelta.stats.steps.length]).toEqual([without.stats.counters, 1]);
  });

  it("the DO was evicted between the calls: need_full, then the whole view, same result", async () => {
    const o = observedDeps();
    const r = await literalTwoCalls(VARS, { ...o.deps, sentViews: new SentViews() }, {}, async (session) => { await evictDurableObject(sessionStub(session)); });
    expect(o.calls).toEqual(["step", "reportCall", "stepDelta", "step", "reportCall"]);
    expect(r.raw).toBe("compact; tier=time_based; step=1; pairs_removed=1; tokens_before=14443; tokens_after=7388");
    expect([r.stats.calls, r.stats.counters.requests, r.stats.counters.compacted]).toEqual([2, 2, 1]);
  });
});
