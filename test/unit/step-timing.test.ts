import { describe, expect, it } from "vitest";
import { decideStepTiming, editableAgeCalls, forgoneSavingsUsd, type TimingInput } from "../../src/core/policy/step-timing";

// Sonnet prices: P_cache = $0.30 / 10^6 tokens. A warm step rewriting K = 40,000 tokens at
// w = 1.25, P_input = 3: cache_miss = 40,000 × (3.75 − 0.30) / 10^6 = $0.138.
const warm = (o: Partial<TimingInput> = {}): TimingInput => ({
  cache_cold: false,
  context_pct_used: 0.3,
  pressure_limit: 0.7,
  cache_miss_usd: 0.138,
  p_cache: 0.3,
  pending: [],
  ...o,
});

describe("forgoneSavingsUsd", () => {
  it("Σ P_cache · saved_tokens · age_calls / 10^6", () => {
    // 10,000 × 3 + 20,000 × 1 + 5,000 × 0 = 50,000 token-calls × $0.30 / 10^6 = $0.015
    expect(forgoneSavingsUsd([{ saved_tokens: 10_000, age_calls: 3 }, { saved_tokens: 20_000, age_calls: 1 }, { saved_tokens: 5_000, age_calls: 0 }], 0.3)).toBeCloseTo(0.015, 12);
    expect(forgoneSavingsUsd([], 0.3)).toBe(0);
  });
});

describe("editableAgeCalls", () => {
  it("calls since the pair left the protected recent turns, never negative", () => {
    // 12 turns, 4 protected: turns ≤ 8 are editable; a pair of turn 5 has waited 3 calls, one of turn 8 none.
    expect(editableAgeCalls(12, 4, 5)).toBe(3);
    expect(editableAgeCalls(12, 4, 8)).toBe(0);
    expect(editableAgeCalls(12, 4, 10)).toBe(0);
  });
});

describe("decideStepTiming", () => {
  it("cold cache: steps at once, the write is free, whatever was forgone", () => {
    expect(decideStepTiming(warm({ cache_cold: true, pending: [{ saved_tokens: 1_000, age_calls: 0 }] }))).toEqual({ step: true, reason: "cold", forgone_usd: 0, write_usd: 0 });
  });

  it("warm, a growing pending set: waits while the forgone savings are under the write, steps on the call they reach it", () => {
    // Each call one more 20,000-token pair becomes editable; ages grow by one per call.
    const pendingAt = (calls: number) => Array.from({ length: calls }, (_, i) => ({ saved_tokens: 20_000, age_calls: calls - 1 - i }));
    // 4 pairs: 20,000 × (3+2+1+0) = 120,000 token-calls → $0.036 < $0.138: wait.
    expect(decideStepTiming(warm({ pending: pendingAt(4) }))).toMatchObject({ step: false, reason: "gathering", write_usd: 0.138 });
    expect(decideStepTiming(warm({ pending: pendingAt(4) })).forgone_usd).toBeCloseTo(0.036, 12);
    // 7 pairs: 20,000 × 21 = 420,000 → $0.126 < $0.138: still wait.
    expect(decideStepTiming(warm({ pending: pendingAt(7) })).step).toBe(false);
    // 8 pairs: 20,000 × 28 = 560,000 → $0.168 ≥ $0.138: step.
    const eight = decideStepTiming(warm({ pending: pendingAt(8) }));
    expect(eight).toMatchObject({ step: true, reason: "paid" });
    expect(eight.forgone_usd).toBeCloseTo(0.168, 12);
  });

  it("warm at exactly the break-even: steps (forgone = write)", () => {
    // 46,000 tokens × 10 calls × $0.30 / 10^6 = $0.138.
    expect(decideStepTiming(warm({ pending: [{ saved_tokens: 46_000, age_calls: 10 }] })).step).toBe(true);
    expect(decideStepTiming(warm({ pending: [{ saved_tokens: 45_999, age_calls: 10 }] })).step).toBe(false);
  });

  it("a step that rewrites nothing cached (write $0) goes at once, even warm", () => {
    expect(decideStepTiming(warm({ cache_miss_usd: 0, pending: [{ saved_tokens: 5_000, age_calls: 0 }] }))).toEqual({ step: true, reason: "paid", forgone_usd: 0, write_usd: 0 });
  });

  it("pressure: at or above the limit it never waits; just under it waits", () => {
    const young = [{ saved_tokens: 20_000, age_calls: 0 }];
    expect(decideStepTiming(warm({ context_pct_used: 0.7, pending: young }))).toMatchObject({ step: true, reason: "pressure" });
    expect(decideStepTiming(warm({ context_pct_used: 0.69, pending: young }))).toMatchObject({ step: false, reason: "gathering" });
  });
});
