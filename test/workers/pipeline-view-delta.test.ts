/**
 * Step views sent as deltas (src/do/view-delta.ts through src/gateway/compaction-pipeline.ts),
 * in workerd through the real hook: the second call of a session goes to `stepDelta` and
 * forwards exactly the bytes (and header) a gateway without deltas forwards; when the DO lost
 * its base (evicted) it answers need_full and the whole view follows in `step`.
 */
import { evictDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SentViews } from "../../src/gateway/sent-views";
import { newTestId, utf8 } from "./helpers";
import { compactVars, LITERAL_CONFIG, literalTwoCalls, logText, observedDeps, send, sessionStub, statsOf } from "./pipeline-harness";

/** The literal conversation grown to `n` tool rounds (each a 300-line log), ending with a user turn. */
function literalAnthropicTurns(n: number): Record<string, unknown> {
  const messages: Record<string, unknown>[] = [{ role: "user", content: "Run the checks." }];
  for (let i = 0; i < n; i++) {
    messages.push({ role: "assistant", content: [{ type: "tool_use", id: `toolu_${i}`, name: "shell", input: { cmd: `make t${i}` } }] });
    messages.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_${i}`, content: logText(`t${i}`, 300) }] });
  }
  messages.push({ role: "assistant", content: [{ type: "text", text: "Ran them." }] }, { role: "user", content: "Next." });
  return { model: "claude-sonnet-4-5", max_tokens: 1024, tools: [{ name: "shell", description: "stub", input_schema: { type: "object" } }], messages };
}

/** Leases off: with one, call 1 asks for a lease alone and sends no view (pipeline-step-lease.test.ts), so call 2 would have no base. */
const VARS = compactVars({ ...LITERAL_CONFIG, step_lease_ms: 0 });

describe("step views as deltas", () => {
  it("call 2 goes as a delta and forwards what a gateway without deltas forwards, byte for byte", async () => {
    const o = observedDeps();
    const withDelta = await literalTwoCalls(VARS, { ...o.deps, sentViews: new SentViews() });
    expect(o.calls).toEqual(["step", "reportCalls", "stepDelta", "reportCalls"]);
    const p = observedDeps();
    const without = await literalTwoCalls(VARS, { ...p.deps, sentViews: new SentViews(0) }); // remembers nothing: always the whole view
    expect(p.calls).toEqual(["step", "reportCalls", "step", "reportCalls"]);
    expect(withDelta.raw).toBe("compact; tier=time_based; step=1; pairs_removed=1; tokens_before=14443; tokens_after=7388");
    expect([without.raw, without.forwarded]).toEqual([withDelta.raw, withDelta.forwarded]);
    expect([withDelta.stats.counters, withDelta.stats.steps.length]).toEqual([without.stats.counters, 1]);
  });

  it("the DO was evicted between the calls: need_full, then the whole view, same result", async () => {
    const o = observedDeps();
    const r = await literalTwoCalls(VARS, { ...o.deps, sentViews: new SentViews() }, {}, async (session) => { await evictDurableObject(sessionStub(session)); });
    expect(o.calls).toEqual(["step", "reportCalls", "stepDelta", "step", "reportCalls"]);
    expect(r.raw).toBe("compact; tier=time_based; step=1; pairs_removed=1; tokens_before=14443; tokens_after=7388");
    expect([r.stats.calls, r.stats.counters.requests, r.stats.counters.compacted]).toEqual([2, 2, 1]);
  });

  it("two gateway isolates alternating on one session: each one's deltas find their own base in the DO (no step leases)", async () => {
    const session = newTestId("two-isolates");
    const [a, b] = [new SentViews(), new SentViews()];
    const o = observedDeps();
    const headers = { "x-test-id": session, "x-sluice-session": session };
    const bodies = [1, 2, 3, 4].map((n) => utf8(JSON.stringify(literalAnthropicTurns(n))));
    const forwarded: string[] = [];
    for (const [i, views] of [a, b, a, b].entries()) {
      // Leases off: a holder would decide its own calls without the DO (pipeline-step-lease.test.ts).
      const r = await send(compactVars({ ...LITERAL_CONFIG, step_lease_ms: 0 }), "/anthropic/v1/messages", headers, bodies[i]!, { ...o.deps, sentViews: views });
      forwarded.push(r.res.headers.get("x-sluice-compaction") ?? "");
    }
    // Calls 1 and 2: each isolate's first view goes whole; calls 3 and 4: deltas against each isolate's own last view.
    expect(o.calls).toEqual(["step", "reportCalls", "step", "reportCalls", "stepDelta", "reportCalls", "stepDelta", "reportCalls"]);
    expect(forwarded.every((h) => h.startsWith("compact; "))).toBe(true);
    expect((await statsOf(session)).calls).toBe(4);
  });
});
