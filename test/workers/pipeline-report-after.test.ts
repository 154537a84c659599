/**
 * The after-the-answer report (src/gateway/compaction-pipeline.ts reportAfter), in workerd
 * through the real hook: per request ONE session RPC (`reportCalls`: the outcome held until the
 * answer ends, with its usage; the harness sends each request's report at once) and ONE index
 * RPC (`recordMany`: both updates), instead of four;
 * a step to roll back is still reported at once (before the session's next request); with no
 * upstream response (502) the outcome alone is recorded. RPC calls are observed through
 * wrapped deps (the DO namespace and the index), never product flags.
 */
import { describe, expect, it } from "vitest";
import { newTestId, testVars } from "./helpers";
import { compactVars, LITERAL_CONFIG, literalTwoCalls, observedDeps as observed, send, statsOf, MODEL_CUTTING_ADAPTER } from "./pipeline-harness";

const SMALL = '{"model":"claude-sonnet-4-5","max_tokens":64,"messages":[{"role":"user","content":"hi"}]}';

describe("one report per request after the answer", () => {
  it("a JSON answer with usage: a lease (decided here), then one reportCalls; one index batch [outcome, usage]; the DO holds both", async () => {
    const session = newTestId("report-one");
    const o = observed();
    await send(compactVars({}), "/anthropic/v1/messages", { "x-test-id": session, "x-sluice-session": session, "x-test-scenario": "usage:anthropic:json" }, SMALL, o.deps);
    expect(o.calls).toEqual(["lease", "reportCalls"]);
    expect(o.batches).toEqual([["outcome", "usage"]]);
    const stats = await statsOf(session);
    expect([stats.calls_log.length, stats.counters.unchanged, stats.counters.requests, stats.counters.usage_reports, stats.counters.usage_input_tokens]).toEqual([1, 1, 1, 1, 120]);
  });

  it("upstream unreachable (502): the held outcome is reported alone, once", async () => {
    const session = newTestId("report-502");
    const o = observed();
    const { res } = await send({ ...compactVars({}), ANTHROPIC_BASE_URL: testVars.UNREACHABLE_URL }, "/anthropic/v1/messages", { "x-sluice-session": session }, SMALL, o.deps);
    expect(res.status).toBe(502);
    expect(o.calls).toEqual(["lease", "reportCalls"]);
    expect(o.batches).toEqual([["outcome"]]);
    const stats = await statsOf(session);
    expect([stats.calls_log.length, stats.counters.unchanged, stats.counters.usage_reports]).toEqual([1, 1, undefined]);
  });

  it("a step to roll back is reported at once (reportOutcome), not held until the answer ends", async () => {
    const o = observed();
    const r = await literalTwoCalls(compactVars(LITERAL_CONFIG), { ...o.deps, adapterFor: () => MODEL_CUTTING_ADAPTER });
    expect(r.raw).toBe("skipped; reason=guarantee_check");
    // Call 1: nothing to roll back; call 2: its step failed the check and is rolled back at once.
    expect(o.calls).toEqual(["lease", "reportCalls", "lease", "step", "reportOutcome"]);
    expect(o.batches).toEqual([["outcome"], ["outcome"]]);
    expect([r.stats.counters.fail_open_guarantee_check, r.stats.steps]).toEqual([1, []]);
  });
});

describe("SessionIndex.recordMany", () => {
  it("validates every update first: one bad update → nothing written, the answer names its position and field", async () => {
    const { indexStub } = await import("./admin-seed");
    const idx = indexStub(newTestId("idx-many"));
    const usage = { kind: "usage", session_id: "s1", provider: "anthropic", at_ms: 1, input_tokens: 5, cache_read_input_tokens: 7, cache_creation_input_tokens: 0, output_tokens: 1 } as const;
    const bad = await idx.recordMany([usage, { ...usage, input_tokens: -1 }]);
    expect(bad).toEqual({ ok: false, error: "index update refused at 1.input_tokens: Too small: expected number to be >=0" });
    expect(await idx.get("s1")).toBe(null);
    expect(await idx.recordMany([usage, { ...usage, input_tokens: 2 }])).toEqual({ ok: true });
    const row = await idx.get("s1");
    expect([row?.cache_hit_ratio, (await idx.series()).series.filter((x) => x.labels.kind === "input").map((x) => x.value)]).toEqual([14 / 21, [7]]);
  });
});
