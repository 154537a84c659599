/**
 * The savings ledger end to end in workerd: three calls of one Anthropic
 * session through the gateway (compact mode, LITERAL_CONFIG), the stand-in answering each with
 * the fixed usage of test/support/scenarios.ts (`usage:anthropic:json`: 120 input, 900 cache
 * read, 30 cache write). The session's ledger (/admin/sessions/:id) and the window report
 * (/admin/report) must hold exactly the dollars computed by hand below (claude-sonnet-4-5:
 * $3 input, $0.30 cache read, writes 1.25× = $3.75 per 10^6 tokens; minimum cacheable 1,024
 * tokens; cache TTL 300 s).
 */
import { describe, expect, it } from "vitest";
import { gateway, newTestId, testVars } from "./helpers";
import { compactionHeader, compactVars, LITERAL_BODY, LITERAL_CONFIG, manualClock, send } from "./pipeline-harness";
import type { SessionStats } from "../../src/session/session";
import type { LedgerReport } from "../../src/admin/ledger-report";

const admin = async <T>(path: string): Promise<T> => {
  const res = await gateway(`/admin${path}`, { headers: { authorization: `Bearer ${testVars.SLUICE_ADMIN_TOKEN}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
};

/** The bill of every call: 120 × $3 + 900 × $0.30 + 30 × $3.75 per 10^6. */
const BILLED = (120 * 3 + 900 * 0.3 + 30 * 3.75) / 1e6;
/** Provider tokens the stand-in reports per call (input + cache read + cache write). */
const REPORTED = 1_050;

/**
 * LITERAL_BODY three times in a new session with `vars`: (1) nothing to do, (2) 400 s later
 * (past the TTL) a step, (3) 10 s later the step's plan re-applied. Returns the session, the
 * time of call 1 and of call 3, and the three `x-sluice-compaction` headers.
 */
async function threeCalls(vars: Record<string, string>, tag: string) {
  const session = newTestId(tag);
  const clock = manualClock();
  const headers = { "x-test-id": session, "x-sluice-session": session, "x-test-scenario": "usage:anthropic:json" };
  const call = async () => compactionHeader((await send(vars, "/anthropic/v1/messages", headers, LITERAL_BODY, { now: clock.now })).res);
  const start = clock.now();
  const h1 = await call();
  clock.advance(400_000);
  const h2 = await call();
  clock.advance(10_000);
  const h3 = await call();
  return { session, start, end: clock.now(), h: [h1, h2, h3] as const };
}

describe("savings ledger", () => {
  it("compact mode: without = the client's bodies priced with the session's cache behaviour, with = the provider's usage; /admin/report sums the window", async () => {
    const { session, start, end, h: [h1, h2, h3] } = await threeCalls(compactVars(LITERAL_CONFIG), "ledger");
    // Estimates (after the first answer the header's tokens_* are calibrated; the estimator's figures follow as estimated_tokens_*).
    const original = Number(h1.tokens_before), sent = Number(h2.estimated_tokens_after);
    expect([h1.step, h2.step, h3.step, original, sent, Number(h3.estimated_tokens_after)]).toEqual(["none", "1", "none", 14_443, 7_274, 7_274]);

    // The stand-in counts every body as 1,050 tokens. Call 1 went as the client sent it: without = with.
    // Call 2 (a step): the client body is call 1's plus what was appended (nothing: the same body), 1,050 tokens;
    // the cache lapsed (400 s ≥ 300 s), so all 1,050 would be written at $3.75.
    const without2 = (REPORTED * 3.75) / 1e6;
    // Call 3 (the plan re-applied, 10 s later): Sluice's 1,050 + the 0 provider tokens its step removed; read whole at $0.30.
    const without3 = (REPORTED * 0.3) / 1e6;
    const without = BILLED + without2 + without3;
    const withCost = 3 * BILLED;
    // The client calibration (bodies that went as the client sent them): call 1 only.
    const cal = REPORTED / original;

    const { session: stats } = await admin<{ session: SessionStats }>(`/sessions/${encodeURIComponent(session)}`);
    const l = stats.ledger;
    expect(l.mode).toBe("compact");
    expect([l.priced_calls, l.requests, l.removals, l.engine_cost_usd, l.engine_wait_share, l.refetched_share, l.mentioned_share, l.deterministic_share]).toEqual([3, 3, 1, 0, 0, 0, 0, 0]);
    expect(l.without_usd).toBeCloseTo(without, 12);
    expect(l.with_usd).toBeCloseTo(withCost, 12);
    expect(l.saved_usd).toBeCloseTo(without - withCost, 12);
    expect(l.saved_share!).toBeCloseTo((without - withCost) / without, 12);
    // Worst-case loss: the removed result's estimated tokens, scaled by the client calibration, at $3 uncached input.
    const lossTokens = l.worst_case_loss_usd / cal / 3e-6;
    expect(Math.abs(lossTokens - Math.round(lossTokens))).toBeLessThan(1e-6);
    // The step dropped pair A whole: the loss is its result's 7,106 estimated tokens, less than the 7,169 removed (the tool_use went too).
    expect([Math.round(lossTokens), original - sent]).toEqual([7_106, 7_169]);
    expect(l.balance_usd).toBeCloseTo(without - withCost - l.worst_case_loss_usd, 12);

    // The window report over the index (hour buckets around the calls) holds the same figures.
    const report = await admin<{ since_ms: number; until_ms: number; rows: LedgerReport[] }>(`/report?since=${start - 3_600_000}&until=${end + 3_600_000}`);
    const r = report.rows.find((x) => x.mode === "compact")!;
    expect([r.priced_calls, r.requests, r.removals]).toEqual([3, 3, 1]);
    expect(r.without_usd).toBeCloseTo(without, 12);
    expect(r.with_usd).toBeCloseTo(withCost, 12);
    expect(r.worst_case_loss_usd).toBeCloseTo(l.worst_case_loss_usd, 12);
    // A window before the calls is empty; a bad bound is refused naming the field.
    expect((await admin<{ rows: unknown[] }>(`/report?since=0&until=${start - 7_200_000}`)).rows).toEqual([]);
    const bad = await gateway("/admin/report?since=yesterday", { headers: { authorization: `Bearer ${testVars.SLUICE_ADMIN_TOKEN}` } });
    expect([bad.status, ((await bad.json()) as { error: { field: string } }).error.field]).toEqual([400, "since"]);
    // A calendar date that does not exist is refused too (Date.parse would read it as March 2).
    const feb30 = await gateway("/admin/report?since=2026-02-30", { headers: { authorization: `Bearer ${testVars.SLUICE_ADMIN_TOKEN}` } });
    expect([feb30.status, ((await feb30.json()) as { error: { field: string } }).error.field]).toEqual([400, "since"]);
    expect((await gateway("/admin/report?since=2024-02-29", { headers: { authorization: `Bearer ${testVars.SLUICE_ADMIN_TOKEN}` } })).status).toBe(200);
  });

  it("measure mode: without = the provider's usage of the client's body, with = the would-send body priced with the session's cache behaviour", async () => {
    const { session, start, end, h: [h1, h2, h3] } = await threeCalls({ ...compactVars(LITERAL_CONFIG), SLUICE_MEASURE: "1" }, "ledger-measure");
    expect([h1.mode, h2.step, h3.step, Number(h2.estimated_tokens_after), Number(h3.estimated_tokens_after)]).toEqual(["measure", "1", "none", 7_274, 7_274]);
    const original = 14_443, would = 7_274;
    // The client's body went every time (1,050 tokens each): calibration 1,050 / 14,443. The step's 7,169 estimated
    // tokens less are 7,169 × that in provider tokens, so the would-send body has 1,050 − 521.2 = 528.8: under the
    // 1,024-token minimum, plain input at $3 on calls 2 and 3.
    const wouldTokens = REPORTED - ((original - would) * REPORTED) / original;
    const diff2 = BILLED - (wouldTokens * 3) / 1e6;
    const diff3 = diff2;
    const { session: stats } = await admin<{ session: SessionStats }>(`/sessions/${encodeURIComponent(session)}`);
    const l = stats.ledger;
    expect([l.mode, l.priced_calls, l.requests, l.removals]).toEqual(["measure", 3, 3, 1]);
    expect(l.without_usd).toBeCloseTo(3 * BILLED, 12);
    expect(l.with_usd).toBeCloseTo(3 * BILLED - diff2 - diff3, 12);
    const report = await admin<{ rows: LedgerReport[] }>(`/report?since=${new Date(start - 3_600_000).toISOString()}&until=${end + 3_600_000}`);
    const r = report.rows.find((x) => x.mode === "measure")!;
    expect(r.without_usd).toBeCloseTo(3 * BILLED, 12);
    expect(r.saved_usd).toBeCloseTo(diff2 + diff3, 12);
  });
});
