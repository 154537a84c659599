/**
 * The trace line of a compaction step (src/core/trace/record-tier-event.ts, written by the
 * session DO's step: src/do/run-step.ts) in workerd through the real hook: exactly one JSON line
 * per request whose policy selected a tier, with tier, tokens, cost, correlation and session
 * ids — and no text of the request.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { compactVars, LITERAL_CONFIG, literalTwoCalls } from "./pipeline-harness";

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
    // Second call, 400 s later: time_based step 1 removes one pair. cost_estimate = 7,059 tokens saved
    // × $3/Mtok (claude-sonnet-4-5 input) × 0.1 (time_based weight, DESIGN §3) = $0.0021177.
    const { cost_estimate, ...second } = logged[1]!;
    expect(second).toEqual({
      event: "sluice_tier_event", session_id: r.session, tier: "time_based", tokens_before: 14_443, tokens_after: 7_384,
      correlation_id: r.stats.steps[0]!.correlation_id, step: 1, pairs_edited: 1, skipped: null,
    });
    expect(cost_estimate).toBeCloseTo(0.0021177, 12);
    // Counts and ids only: no line carries text of the request.
    for (const l of lines.filter((x) => x.includes("sluice_tier_event"))) expect(l).not.toMatch(/line \d|Run the checks|make a/);
  });
});
