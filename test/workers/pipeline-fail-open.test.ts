/**
 * Off by default and fail open (DESIGN invariants 1 and 5), in workerd through the real hook
 * (compaction-setup.ts) with failures injected through the pipeline's deps — a wrapped DO
 * namespace, a short deadline, an adapter whose compile adds a bad deletion — never product
 * flags. Each case asserts that the upstream got the ORIGINAL bytes and that the reason shows in
 * the response header and, where a session is known, in the DO's counters.
 *
 * The scenario that has something to compact: pipeline-harness.ts `literalTwoCalls` (the literal
 * conversation sent twice in one session, the second time 400 s later, past the 300 s cache
 * TTL), which the control test shows takes a time_based step that collapses the first long result (collapsing both would keep under 12 % of the history, the cost model's min keep ratio).
 */
import { listDurableObjectIds } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { PipelineDeps } from "../../src/gateway/compaction-pipeline";
import { gateway, newTestId, received, bytesOf, utf8 } from "./helpers";
import { SESSIONS, compactVars, LITERAL_BODY, LITERAL_CONFIG, literalTwoCalls, send, sessionStub, statsOf, upstreamBodies, MODEL_CUTTING_ADAPTER } from "./pipeline-harness";

const PATH = "/anthropic/v1/messages";
const BODY = LITERAL_BODY;
const VARS = compactVars(LITERAL_CONFIG);
const twoCalls = (overrides: Partial<PipelineDeps>, extraHeaders: Record<string, string> = {}, before?: (session: string) => Promise<void>) => literalTwoCalls(VARS, overrides, extraHeaders, before);

const doExists = async (session: string): Promise<boolean> => (await listDurableObjectIds(SESSIONS)).some((id) => id.equals(SESSIONS.idFromName(session)));

/** A namespace whose stubs answer `step` with `step` and pass everything else to the real DO. */
function sessionsWith(step: () => Promise<never>): DurableObjectNamespace<never> {
  return {
    idFromName: (name: string) => SESSIONS.idFromName(name),
    get: (id: DurableObjectId) => {
      const real = SESSIONS.get(id);
      return { step, countFailOpen: (r: never) => real.countFailOpen(r), report: (r: never) => real.report(r), archive: (i: never) => real.archive(i) };
    },
  } as unknown as DurableObjectNamespace<never>;
}

describe("off by default", () => {
  it("no config, no switch: no session DO is created, the bytes go upstream unchanged, no compaction header", async () => {
    const session = newTestId("off");
    const res = await gateway(PATH, { method: "POST", headers: { "content-type": "application/json", "x-test-id": session, "x-sluice-session": session }, body: BODY });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-sluice-compaction")).toBeNull();
    const got = await received(session);
    expect(got.length).toBe(1);
    expect(bytesOf(got[0]!)).toEqual(BODY);
    expect(await doExists(session)).toBe(false);
  });
});

describe("fail open: the original bytes go, the reason is counted", () => {
  it("control: without injection the second call takes a time_based step and forwards a shorter body", async () => {
    const r = await twoCalls({});
    expect(r.header).toEqual({ mode: "compact", tier: "time_based", step: "1", pairs_removed: "1", tokens_before: "14443", tokens_after: "7274" });
    expect(r.forwarded.length).toBeLessThan(BODY.length);
    expect(r.stats.counters.compacted).toBe(1);
  });

  it("the DO step throws → do_error", async () => {
    const r = await twoCalls({ sessions: sessionsWith(() => Promise.reject(new Error("injected DO failure"))) });
    expect(r.raw).toBe("skipped; reason=do_error");
    expect(r.forwarded).toEqual(BODY);
    expect(r.stats.counters).toEqual({ fail_open_do_error: 2, reports: 2, ledger_requests: 2, tokens_original: 2 * 14_443, tokens_sent: 2 * 14_443 });
  });

  it("the DO step misses its deadline → do_timeout", async () => {
    const r = await twoCalls({ sessions: sessionsWith(() => new Promise<never>(() => {})), doTimeoutMs: 20 });
    expect(r.raw).toBe("skipped; reason=do_timeout");
    expect(r.forwarded).toEqual(BODY);
    expect(r.stats.counters).toEqual({ fail_open_do_timeout: 2, reports: 2, ledger_requests: 2, tokens_original: 2 * 14_443, tokens_sent: 2 * 14_443 });
  });

  it("the guarantee checker refuses the edited body (compile also cuts a byte of `model`) → guarantee_check, and the step is rolled back", async () => {
    const r = await twoCalls({ adapterFor: () => MODEL_CUTTING_ADAPTER });
    expect(r.raw).toBe("skipped; reason=guarantee_check");
    expect(r.forwarded).toEqual(BODY);
    expect(r.stats.counters.fail_open_guarantee_check).toBe(1);
    expect(r.stats.counters.compacted).toBeUndefined();
    expect(r.stats.steps).toEqual([]);
  });

  it("a body that does not parse → parse, counted in the session the header names", async () => {
    const session = newTestId("parse");
    const bad = utf8('{"model":"claude-sonnet-4-5","messages":[{"role":"user","content":"hi"}');
    const { res } = await send(VARS, PATH, { "x-test-id": session, "x-sluice-session": session }, bad);
    expect(res.headers.get("x-sluice-compaction")).toBe("skipped; reason=parse");
    expect(await upstreamBodies(session)).toEqual([bad]);
    expect((await statsOf(session)).counters).toEqual({ fail_open_parse: 1 });
  });

  it("F03: a tool_result text part whose text is an object → parse (refused at read), original bytes, counted", async () => {
    const session = newTestId("parse-f03");
    const bad = utf8(JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 64, messages: [
      { role: "user", content: "go" },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "shell", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text", text: { a: 1 } }] }] },
      { role: "assistant", content: "done" },
      { role: "user", content: "next" },
    ] }));
    const { res } = await send(VARS, PATH, { "x-test-id": session, "x-sluice-session": session }, bad);
    expect(res.headers.get("x-sluice-compaction")).toBe("skipped; reason=parse");
    expect(await upstreamBodies(session)).toEqual([bad]);
    expect((await statsOf(session)).counters).toEqual({ fail_open_parse: 1 });
  });

  it("request header x-sluice-compaction: off → forwarded untouched, no DO call", async () => {
    const session = newTestId("client-off");
    const { res } = await send(VARS, PATH, { "x-test-id": session, "x-sluice-session": session, "x-sluice-compaction": "off" }, BODY);
    expect(res.headers.get("x-sluice-compaction")).toBe("off; reason=client_header");
    expect(await upstreamBodies(session)).toEqual([BODY]);
    expect(await doExists(session)).toBe(false);
  });

  it("a session disabled with setDisabled → forwarded untouched, counted as disabled", async () => {
    const r = await twoCalls({}, {}, (session) => sessionStub(session).setDisabled(true));
    expect(r.raw).toBe("off; reason=session_disabled");
    expect(r.forwarded).toEqual(BODY);
    expect(r.stats.disabled).toBe(true);
    expect(r.stats.counters.disabled_requests).toBe(1);
    expect(r.stats.steps).toEqual([]);
  });
});
