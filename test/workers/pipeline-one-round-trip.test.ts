/**
 * One step, one round trip (src/gateway/compaction-pipeline.ts), in workerd through the real
 * hook: per request exactly ONE session RPC before the forward (`step`) and ONE after the answer
 * (`report`: the outcome with its usage), and ONE index update batch; a step to roll back is
 * reported at once and is never re-applied; an admin disable takes effect on the session's very
 * next request; every fail-open writes one JSON log line. RPC calls are observed through wrapped
 * deps (the DO namespace and the index), never product flags.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/http/app";
import { newTestId, testVars } from "./helpers";
import { compactionHeader, compactVars, E, LITERAL_BODY, LITERAL_CONFIG, literalTwoCalls, manualClock, observedDeps as observed, send, statsOf, MODEL_CUTTING_ADAPTER, upstreamBodies } from "./pipeline-harness";

const SMALL = '{"model":"claude-sonnet-4-5","max_tokens":64,"messages":[{"role":"user","content":"hi"}]}';
const PATH = "/anthropic/v1/messages";

afterEach(() => vi.restoreAllMocks());

describe("one RPC before the forward, one after the answer", () => {
  it("a JSON answer with usage: step, then one report; one index batch [outcome, usage, ledger]; the DO holds both", async () => {
    const session = newTestId("report-one");
    const o = observed();
    await send(compactVars({}), PATH, { "x-test-id": session, "x-sluice-session": session, "x-test-scenario": "usage:anthropic:json" }, SMALL, o.deps);
    // The test's vars are not the Durable Object's own env: its first step answers config_unknown and the config goes once
    // (src/session/contract.ts); a deployment's session knows its config, and so does this one from now on.
    expect(o.calls).toEqual(["step", "step", "report"]);
    const again = observed();
    await send(compactVars({}), PATH, { "x-test-id": session, "x-sluice-session": session, "x-test-scenario": "usage:anthropic:json" }, SMALL, again.deps);
    expect(again.calls).toEqual(["step", "report"]);
    expect(o.batches).toEqual([["outcome", "usage", "ledger"]]);
    const stats = await statsOf(session);
    expect([stats.calls, stats.calls_log.length, stats.counters.unchanged, stats.counters.requests, stats.counters.usage_reports, stats.counters.usage_input_tokens]).toEqual([2, 2, 2, 2, 2, 240]);
  });

  it("upstream unreachable (502): the outcome is reported alone, once", async () => {
    const session = newTestId("report-502");
    const o = observed();
    const { res } = await send({ ...compactVars({}), ANTHROPIC_BASE_URL: testVars.UNREACHABLE_URL }, PATH, { "x-sluice-session": session }, SMALL, o.deps);
    expect(res.status).toBe(502);
    expect(o.calls).toEqual(["step", "step", "report"]); // the config goes once (first test)
    expect(o.batches).toEqual([["outcome", "ledger"]]);
    const stats = await statsOf(session);
    expect([stats.calls_log.length, stats.counters.unchanged, stats.counters.usage_reports]).toEqual([1, 1, undefined]);
  });
});

describe("a step that failed the check", () => {
  it("is reported at once and never re-applied: the next request takes a new step 1 over the same pairs", async () => {
    const o = observed();
    const r = await literalTwoCalls(compactVars(LITERAL_CONFIG), { ...o.deps, adapterFor: () => MODEL_CUTTING_ADAPTER });
    expect(r.raw).toBe("skipped; reason=guarantee_check");
    // Call 1 (the config goes once: first test): nothing to roll back; call 2: its step failed the check and is rolled back at once (no usage in this answer: no second report).
    expect(o.calls).toEqual(["step", "step", "report", "step", "report"]);
    expect(o.batches).toEqual([["outcome", "ledger"], ["outcome", "ledger"]]);
    expect([r.stats.counters.fail_open_guarantee_check, r.stats.steps]).toEqual([1, []]);
    // Call 3 with a sound adapter: had the failed step stayed in the ledger, its removals would be re-applied under step=none.
    const third = await send(compactVars(LITERAL_CONFIG), PATH, { "x-test-id": r.session, "x-sluice-session": r.session }, LITERAL_BODY, { now: () => Date.now() + 800_000 });
    expect(compactionHeader(third.res)).toMatchObject({ mode: "compact", tier: "time_based", step: "1", pairs_removed: "1" });
    expect((await statsOf(r.session)).steps.map((s) => s.step)).toEqual([1]);
  });
});

describe("the kill switch", () => {
  it("POST /admin/sessions/:id/disable: the session's next request is forwarded byte-identical with off; reason=session_disabled", async () => {
    const disable = async (session: string) => {
      const res = await createApp().fetch(new Request(`http://sluice.test/admin/sessions/${encodeURIComponent(session)}/disable`, { method: "POST", headers: { authorization: `Bearer ${testVars.SLUICE_ADMIN_TOKEN}` } }), E);
      expect(res.status).toBe(200);
    };
    const r = await literalTwoCalls(compactVars(LITERAL_CONFIG), {}, {}, disable);
    expect(r.raw).toBe("off; reason=session_disabled");
    expect(r.forwarded).toEqual(LITERAL_BODY);
    expect([r.stats.disabled, r.stats.counters.disabled_requests, r.stats.steps]).toEqual([true, 1, []]);
  });
});

describe("fail-open log line", () => {
  it("a failed check writes exactly one JSON line: reason, session id, request id, route, sizes — no text", async () => {
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((...a: unknown[]) => { lines.push(String(a[0])); });
    const r = await literalTwoCalls(compactVars(LITERAL_CONFIG), { adapterFor: () => MODEL_CUTTING_ADAPTER });
    const logged = lines.filter((l) => l.includes("sluice_fail_open")).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(logged).toHaveLength(1);
    expect(Object.keys(logged[0]!).sort()).toEqual(["body_bytes", "error", "est_tokens", "event", "reason", "request_id", "route", "session_id"]);
    expect(logged[0]).toMatchObject({ event: "sluice_fail_open", reason: "guarantee_check", session_id: r.session, route: "anthropic-messages", body_bytes: LITERAL_BODY.length, est_tokens: 14_443, error: null });
    expect(logged[0]!.request_id).toMatch(/^[0-9a-f-]{8,}/);
  });

  it("an exception thrown by the hook itself (hook_error) is logged too, and the original bytes go", async () => {
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((...a: unknown[]) => { lines.push(String(a[0])); });
    const session = newTestId("hook-throws");
    const clock = manualClock();
    const { res } = await send(compactVars({}), PATH, { "x-test-id": session, "x-sluice-session": session }, SMALL, { now: clock.now, sessions: null as never });
    expect(res.status).toBe(200);
    expect(await upstreamBodies(session)).toEqual([new TextEncoder().encode(SMALL)]);
    const logged = lines.filter((l) => l.includes("sluice_fail_open")).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(logged).toEqual([{ event: "sluice_fail_open", reason: "hook_error", session_id: null, request_id: logged[0]!.request_id, route: "anthropic-messages", body_bytes: SMALL.length, est_tokens: null, error: "TypeError" }]);
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
