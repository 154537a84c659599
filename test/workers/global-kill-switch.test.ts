/**
 * The global kill switch in workerd through the real app and hook: POST /admin/compaction/disable
 * stores the flag in the audit DO and appends a signed `global_compaction` record; the next
 * request is forwarded byte-identical with `off; reason=global_disabled` and no session RPC;
 * /enable turns compaction back on. The isolate that served the admin call knows at once; another
 * isolate's cache (a fresh GlobalSwitch, TTL 0) reads the stored flag.
 */
import { afterEach, describe, expect, it } from "vitest";
import { auditStub } from "../../src/gateway/compaction-setup";
import { GlobalSwitch } from "../../src/gateway/global-switch";
import { createApp } from "../../src/http/app";
import { newTestId, testVars } from "./helpers";
import { compactVars, E, LITERAL_BODY, LITERAL_CONFIG, literalTwoCalls, observedDeps, send, statsOf, upstreamBodies } from "./pipeline-harness";

const PATH = "/anthropic/v1/messages";
const admin = async (method: "GET" | "POST", path: string) => {
  const res = await createApp().fetch(new Request(`http://sluice.test/admin${path}`, { method, headers: { authorization: `Bearer ${testVars.SLUICE_ADMIN_TOKEN}` } }), E);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const otherIsolate = () => new GlobalSwitch(0).disabled(() => auditStub(E).compactionDisabled(), Date.now());

afterEach(async () => { await admin("POST", "/compaction/enable"); });

describe("global kill switch", () => {
  it("disable → next request byte-identical, off; reason=global_disabled, no session call; enable → compacts again; both audited", async () => {
    const o = observedDeps();
    let disabled: { status: number; body: Record<string, unknown> } | undefined;
    const r = await literalTwoCalls(compactVars(LITERAL_CONFIG), o.deps, {}, async () => {
      disabled = await admin("POST", "/compaction/disable");
      o.calls.length = 0;
    });
    expect(disabled).toEqual({ status: 200, body: { disabled: true, audit_seq: disabled!.body.audit_seq, audit_error: null } });
    expect(disabled!.body.audit_seq).toBeGreaterThanOrEqual(1);
    expect(r.raw).toBe("off; reason=global_disabled");
    expect(r.forwarded).toEqual(LITERAL_BODY);
    expect(o.calls).toEqual([]);
    expect(await admin("GET", "/compaction")).toEqual({ status: 200, body: { disabled: true } });
    expect(await otherIsolate()).toBe(true);

    const enabled = await admin("POST", "/compaction/enable");
    expect(enabled.body).toEqual({ disabled: false, audit_seq: (disabled!.body.audit_seq as number) + 1, audit_error: null });
    expect(await otherIsolate()).toBe(false);
    const third = await send(compactVars(LITERAL_CONFIG), PATH, { "x-test-id": r.session, "x-sluice-session": r.session }, LITERAL_BODY, { ...o.deps, now: () => Date.now() + 800_000 });
    expect(third.res.headers.get("x-sluice-compaction")).toBe("compact; tier=time_based; step=1; pairs_removed=1; tokens_before=14443; tokens_after=7274");
    expect(o.calls).toEqual(["step", "report"]);
    const bodies = await upstreamBodies(r.session);
    expect(bodies).toHaveLength(3);
    expect(bodies[2]!.length).toBeLessThan(LITERAL_BODY.length);

    const records = await auditStub(E).list(0, 1_000);
    const switches = records.filter((x) => x.kind === "global_compaction");
    expect(switches.map((x) => [x.seq, x.fields])).toEqual([[disabled!.body.audit_seq, { disabled: true }], [enabled.body.audit_seq, { disabled: false }]]);
    expect(await auditStub(E).verify()).toMatchObject({ ok: true });
  });

  it("another isolate (its own cache, TTL 0) reads the stored flag on its next request; no session object is created", async () => {
    const o = observedDeps();
    const session = newTestId("global-other");
    const headers = { "x-test-id": session, "x-sluice-session": session };
    await auditStub(E).setCompactionDisabled(true);
    const off = await send(compactVars(LITERAL_CONFIG), PATH, headers, LITERAL_BODY, { ...o.deps, globallyDisabled: otherIsolate });
    expect(off.res.headers.get("x-sluice-compaction")).toBe("off; reason=global_disabled");
    expect(await upstreamBodies(session)).toEqual([LITERAL_BODY]);
    expect(o.calls).toEqual([]);
    const stats = await statsOf(session);
    expect([stats.session_id, Object.keys(stats.counters)]).toEqual([null, []]);
    await auditStub(E).setCompactionDisabled(false);
    const on = await send(compactVars(LITERAL_CONFIG), PATH, headers, LITERAL_BODY, { ...o.deps, globallyDisabled: otherIsolate });
    expect(on.res.headers.get("x-sluice-compaction")).not.toMatch(/^off/);
    // The session's first step: the test's vars are not the object's env, so the config goes once (src/session/contract.ts).
    expect(o.calls).toEqual(["step", "step", "report"]);
  });
});
