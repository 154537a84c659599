/**
 * The trace line of a compaction step (src/core/trace/record-tier-event.ts, written by the
 * session DO's step: src/session/run-step.ts) in workerd through the real hook: exactly one JSON line
 * per request whose policy selected a tier, with tier, tokens, cost, correlation and session
 * ids — and no text of the request; and the step's `compaction_step` audit record the pipeline
 * writes for a forwarded step (the config, consent and engine_destination records:
 * engine-destination.test.ts).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { stepTermFields } from "../../src/core/audit/audit-record";
import { auditStub } from "../../src/gateway/compaction-setup";
import { compactVars, E, LITERAL_CONFIG, literalTwoCalls } from "./pipeline-harness";

afterEach(() => vi.restoreAllMocks());

describe("tier event log line", () => {
  it("the literal conversation's two calls", async () => {
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((...a: unknown[]) => { lines.push(String(a[0])); });
    const r = await literalTwoCalls(compactVars(LITERAL_CONFIG));
    const logged = lines.filter((l) => l.includes("sluice_tier_event")).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(logged).toHaveLength(2);
    // First call: micro is selected but nothing pays (the cache is warm for all Sluice knows).
    expect(logged[0]).toEqual({
      event: "sluice_tier_event", session_id: r.session, tier: "none", tokens_before: 14_443, tokens_after: 14_443, cost_estimate: 0,
      correlation_id: logged[0]!.correlation_id, step: null, pairs_edited: 0, skipped: { tier: "micro", reason: "not_positive" },
    });
    expect(logged[0]!.correlation_id).toMatch(/^[0-9a-f-]{36}$/);
    // Second call, 400 s later: time_based step 1 drops pair A whole (first seen before the idle gap).
    // cost_estimate = 7,110 tokens saved × $3/Mtok (claude-sonnet-4-5 input) × 0.1 (time_based weight, DESIGN §3) = $0.002133.
    const { cost_estimate, ...second } = logged[1]!;
    expect(second).toEqual({
      event: "sluice_tier_event", session_id: r.session, tier: "time_based", tokens_before: 14_443, tokens_after: 7_333,
      correlation_id: r.stats.steps[0]!.correlation_id, step: 1, pairs_edited: 1, skipped: null,
    });
    expect(cost_estimate).toBeCloseTo(0.002133, 12);
    // Counts and ids only: no line carries text of the request.
    for (const l of lines.filter((x) => x.includes("sluice_tier_event"))) expect(l).not.toMatch(/line \d|Run the checks|make a/);
  });

  it("a forwarded step appends one compaction_step audit record: tier, tokens before/after as forwarded, USD, ids", async () => {
    const r = await literalTwoCalls(compactVars(LITERAL_CONFIG));
    const correlation = r.stats.steps[0]!.correlation_id;
    const records = (await auditStub(E).list(0, 10_000)).filter((x) => x.kind === "compaction_step" && x.fields.session_id === r.session);
    expect(records).toHaveLength(1);
    const { usd, ...fields } = records[0]!.fields;
    // tokens_after is the estimate over the bytes forwarded (the header's 7,274), not the plan's 7,333.
    // The cost model's terms, as in the session's stats: the cache is cold (time_based), so no write;
    // R = 8 (seed prior, 2nd call); avg = the mean of the two requests' estimates; H = 14,443 − 7,333.
    const terms = r.stats.steps[0]!.terms!;
    expect(fields).toEqual({ tier: "time_based", tokens_before: 14_443, tokens_after: 7_274, correlation_id: correlation, session_id: r.session, ...stepTermFields(terms) });
    expect([terms.remaining_calls, terms.remaining_calls_source, terms.cache_miss, terms.request_cost, terms.removed_tokens]).toEqual([8, "seed", 0, 0, 7_110]);
    // future = 7 × 0.30 × 7,110 / 1e6 (claude-sonnet-4-5 cache read $0.30/M); distortion = 0.03 × 0.2 × 8 × avg × 3.0 / 1e6.
    expect(terms.future_savings).toBeCloseTo(0.014931, 12);
    expect(terms.distortion).toBeCloseTo((0.03 * 0.2 * 8 * terms.avg_request_tokens * 3) / 1e6, 12);
    expect(r.header.tokens_after).toBe("7274");
    expect(usd).toBeCloseTo(0.002133, 12);
    expect(await auditStub(E).verify()).toMatchObject({ ok: true });
  });
});
