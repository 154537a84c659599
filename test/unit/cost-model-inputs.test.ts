/**
 * The cost model's inputs (DESIGN §4): avg from the session's own request
 * sizes, R from the deployment's session lengths (lower-quartile estimator) with the seed prior
 * as fallback, and each step's five terms carried in its result. Values computed by hand.
 */
import { describe, expect, it } from "vitest";
import { averageRequestTokens } from "../../src/core/cost/average-request-tokens";
import { estimateRemainingCalls, expectedRemainingCalls } from "../../src/core/cost/estimate-remaining-calls";
import { remainingCallsFromTable, remainingCallsTable, type LengthRow } from "../../src/core/cost/session-lengths";
import { MODEL_PRICES } from "../../src/core/cost/prices";
import { CORE_DEFAULTS, compact } from "../../src/core/policy/compact";
import { EMPTY_LEDGER } from "../../src/core/policy/ledger";
import { stepContext } from "../../src/core/policy/step-context";
import type { TierContext } from "../../src/core/policy/types";
import { factsOf, lines, makeView, type MessageSpec } from "../support/make-view";

describe("averageRequestTokens", () => {
  it("from the provider's counts once there are any: Σ(input + cache read + cache write) / answers", () => {
    expect(averageRequestTokens({ reported_tokens: 300_000, reports: 4, estimated_tokens: 10, estimated_requests: 9 }, 99_999)).toBe(75_000);
  });
  it("before the first answer: the session's estimates, this request included", () => {
    // (12,000 + 18,000 + 30,000) / 3
    expect(averageRequestTokens({ reported_tokens: 0, reports: 0, estimated_tokens: 30_000, estimated_requests: 2 }, 30_000)).toBe(20_000);
    expect(averageRequestTokens({ reported_tokens: 0, reports: 0, estimated_tokens: 0, estimated_requests: 0 }, 7_000)).toBe(7_000);
  });
});

describe("the seed prior of R at q = 0.1", () => {
  it("max(floor, 1 + ⌊n/9⌋): the default floor 2 from call 0, an operator's 8 up to call 63", () => {
    expect([0, 1, 9, 10, 18, 21, 22, 30, 63, 103, 300].map((n) => estimateRemainingCalls(n, 2))).toEqual([2, 2, 2, 2, 3, 3, 3, 4, 8, 12, 34]);
    expect([0, 30, 62, 63, 72].map((n) => estimateRemainingCalls(n, 8))).toEqual([8, 8, 8, 8, 9]);
  });
});

// 40 finished sessions: 10 each of 10, 20, 40 and 100 calls.
const ROWS: LengthRow[] = [[100, 10], [10, 10], [40, 10], [20, 10], [0, 3], [7, 0]];

describe("remainingCallsTable (lower quartile of further calls, ≥ 20 sessions per point)", () => {
  it("each grid point by hand", () => {
    // g ≤ 10: all 40 reached g; rank ⌈0.25 × 40⌉ = 10 → the 10th shortest is 10 → 10 − g.
    // 12 ≤ g ≤ 20: 30 reached g; rank 8 → 20 → 20 − g. 25 ≤ g ≤ 40: 20 reached; rank 5 → 40 → 40 − g.
    // g = 50: 10 sessions < 20: the table ends.
    expect(remainingCallsTable(ROWS)).toEqual({
      quantile: 0.25,
      at: [1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 25, 32, 40],
      later: [9, 8, 7, 6, 5, 4, 2, 0, 8, 4, 0, 15, 8, 0],
      sessions: 40,
    });
  });
  it("too few sessions: an empty table", () => {
    expect(remainingCallsTable([[50, 19]])).toEqual({ quantile: 0.25, at: [], later: [], sessions: 19 });
  });
  it("lookup: 1 + the grid point's quantile less the calls made since it; null outside the table", () => {
    const t = remainingCallsTable(ROWS);
    // n = 30: point 25 → 15 − 5 = 10 further calls (the sessions at 30 are the 40s and 100s: lower quartile 10, exact).
    expect(remainingCallsFromTable(t, 30)).toBe(11);
    expect(remainingCallsFromTable(t, 25)).toBe(16);
    expect(remainingCallsFromTable(t, 12)).toBe(9);
    // n = 45 lies before the next grid point (50): point 40 → max(0, 0 − 5) → R = 1 (no later call is counted on).
    expect(remainingCallsFromTable(t, 45)).toBe(1);
    expect(remainingCallsFromTable(t, 50)).toBeNull();
    expect(remainingCallsFromTable(null, 30)).toBeNull();
    expect(remainingCallsFromTable(remainingCallsTable([]), 3)).toBeNull();
  });
  it("the step context takes the floor from the config's min_remaining_calls (default 2)", () => {
    const view = factsOf(makeView({ messages: [{ role: "user", text: "go" }] }));
    const at = (calls: number, config = CORE_DEFAULTS) => stepContext({ calls, last_activity_ms: null, idle: false, complete: false, ledger: EMPTY_LEDGER }, view, config, 0, "c").expected_remaining_calls;
    expect([at(30), at(30, { ...CORE_DEFAULTS, min_remaining_calls: 8 }), at(103, { ...CORE_DEFAULTS, min_remaining_calls: 8 })]).toEqual([4, 8, 12]);
  });
  it("a session that reaches Sluice mid-way is as far along as its history: n = max(calls seen, turns + 1)", () => {
    const turns = (n: number): MessageSpec[] => Array.from({ length: n }, (_, i) => [{ role: "user" as const, text: `q${i}` }, { role: "assistant" as const, text: `a${i}` }]).flat();
    const at = (calls: number, history: number) => stepContext({ calls, last_activity_ms: null, idle: false, complete: false, ledger: EMPTY_LEDGER }, factsOf(makeView({ messages: [...turns(history), { role: "user", text: "go" }] })), CORE_DEFAULTS, 0, "c").expected_remaining_calls;
    // 89 turns + this call = 90 → 1 + ⌊90/9⌋ = 11, though the session has seen one call; 30 calls seen over 5 turns → 4.
    expect([at(1, 89), at(1, 0), at(30, 5)]).toEqual([11, 2, 4]);
  });
  it("expectedRemainingCalls: the table where it covers n, else the seed prior", () => {
    const t = remainingCallsTable(ROWS);
    expect(expectedRemainingCalls(30, t, 8)).toEqual({ remaining_calls: 11, source: "deployment" });
    expect(expectedRemainingCalls(103, t, 8)).toEqual({ remaining_calls: 12, source: "seed" });
    expect(expectedRemainingCalls(30, undefined, 2)).toEqual({ remaining_calls: 4, source: "seed" });
    expect(expectedRemainingCalls(30, undefined, 8)).toEqual({ remaining_calls: 8, source: "seed" });
  });
});

/** `n` turns of a distinct 20,000-byte Bash log each (the micro tier collapses the old ones). */
function buildSession(n: number) {
  const m: MessageSpec[] = [{ role: "user", text: "build" }];
  for (let i = 0; i < n; i++) {
    m.push({ role: "assistant", calls: [{ id: `t${i}`, tool: "Bash", input: { command: `make build-${i}` } }] });
    m.push({ role: "user", results: [{ id: `t${i}`, text: lines(20_000, `r${String.fromCharCode(97 + i)}`) }] });
  }
  return makeView({ model: "claude-sonnet-4-5", outside_tokens: 1_000, messages: m });
}

describe("a step's terms: avg from the context, request cost from the engine", () => {
  // 20 turns: the old pairs have forgone more than the step's cache write, so the warm step is taken now (src/core/policy/step-timing.ts).
  const view = buildSession(20);
  const ctx = (o: Partial<TierContext>): TierContext => ({
    view: factsOf(view), ledger: EMPTY_LEDGER, pressure: { turn_count: 21, context_pct_used: 0.3, idle_seconds: 0, session_complete: false },
    config: CORE_DEFAULTS, prices: MODEL_PRICES, now_ms: 1_000_000, expected_remaining_calls: 50, correlation_id: "r", ...o,
  });
  it("distortion = β (1 − r) R avg P_input with avg = avg_request_tokens; request cost = the engine's; net = the sum", () => {
    const r = compact(ctx({ avg_request_tokens: 40_000, engine_cost_usd: 0.002, remaining_calls_source: "deployment" }));
    const t = r.step!.terms;
    // 0.03 × (1 − 0.8) × 50 × 40,000 × 3.0 / 1e6 (claude-sonnet-4-5: P_input 3.0)
    expect(t.distortion).toBeCloseTo(0.036, 12);
    expect(t.request_cost).toBe(0.002);
    expect(t.remaining_calls).toBe(50);
    expect(t.remaining_calls_source).toBe("deployment");
    expect(t.avg_request_tokens).toBe(40_000);
    // future = (R − 1) × P_cache × H = 49 × 0.3 × H / 1e6
    expect(t.future_savings).toBeCloseTo((49 * 0.3 * t.removed_tokens) / 1e6, 12);
    // cache miss = K × (1.25 × 3.0 − 0.3) / 1e6
    expect(t.cache_miss).toBeCloseTo((t.rewritten_tokens * 3.45) / 1e6, 12);
    expect(t.net).toBeCloseTo(t.future_savings - t.cache_miss - t.request_cost - t.distortion + t.quality_gain, 12);
    expect(r.step!.benefit.net).toBe(t.net);
  });
  it("without avg_request_tokens: this request's estimate; an engine cost larger than the gain stops the step", () => {
    const free = compact(ctx({}));
    expect(free.step!.terms.avg_request_tokens).toBe(view.est_tokens);
    expect(free.step!.terms.remaining_calls_source).toBe("seed");
    const dear = compact(ctx({ engine_cost_usd: free.step!.terms.net + 0.01 }));
    expect(dear.step).toBeNull();
    expect(dear.skipped).toEqual({ tier: "micro", reason: "not_positive" });
  });
});
