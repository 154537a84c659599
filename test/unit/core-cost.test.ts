import { describe, expect, it } from "vitest";
import { COST_DEFAULTS } from "../../src/core/cost/cost-defaults";
import { enumerateCutPoints } from "../../src/core/cost/enumerate-cut-points";
import { estimateRemainingCalls } from "../../src/core/cost/estimate-remaining-calls";
import { findModelPrice } from "../../src/core/cost/find-model-price";
import { netBenefit, summaryRequestCost } from "../../src/core/cost/net-benefit";

// Hand-computed case: T = 100,000, H = 30,000, K = 50,000, R = 20, c = 0, avg = 2,000, V = 5,000, S = 0.
const step = { history_tokens: 100_000, removed_tokens: 30_000, rewritten_tokens: 50_000, request_cost_usd: 0 };
const warm = { remaining_calls: 20, prior_steps: 0, avg_call_tokens: 2_000, cache_cold: false };
const removal = { ...COST_DEFAULTS, summary_tokens: 0 };

describe("netBenefit — the five terms, seed defaults", () => {
  it("OpenAI (write 1×): each term by hand", () => {
    const b = netBenefit(step, warm, removal);
    // future = 19 × 0.30 × 30,000 / 1e6 = 0.171
    expect(b.future_savings).toBeCloseTo(0.171, 12);
    // miss = 50,000 × (1 × 3.0 − 0.30) / 1e6 = 0.135
    expect(b.cache_miss).toBeCloseTo(0.135, 12);
    expect(b.request_cost).toBe(0);
    // distortion = 0.03 × (1 − max(0.8^1, 0.37)) × 20 × 2,000 × 3.0 / 1e6 = 0.00072
    expect(b.distortion).toBeCloseTo(0.00072, 12);
    // quality = 0.2 × 3.0 × (105,000² − 75,000²) / 200,000 / 1e6 = 0.0162
    expect(b.quality_gain).toBeCloseTo(0.0162, 12);
    expect(b.net).toBeCloseTo(0.05148, 12);
    expect([b.future_savings, b.cache_miss, b.distortion, b.quality_gain, b.net].map((x) => x.toFixed(2))).toEqual(["0.17", "0.14", "0.00", "0.02", "0.05"]);
  });
  it("Anthropic (5-minute write 1.25×) pays more for the rewrite", () => {
    const b = netBenefit(step, warm, { ...removal, write_multiplier: 1.25 });
    // miss = 50,000 × (3.75 − 0.30) / 1e6 = 0.1725
    expect(b.cache_miss).toBeCloseTo(0.1725, 12);
    expect(b.net).toBeCloseTo(0.01398, 12);
  });
  it("idle past the cache TTL: no extra write", () => {
    const b = netBenefit(step, { ...warm, cache_cold: true }, { ...removal, write_multiplier: 1.25 });
    expect(b.cache_miss).toBe(0);
    expect(b.net).toBeCloseTo(0.18648, 12);
  });
  it("retention compounds per step and floors at 0.37", () => {
    // c = 3: r_t = 0.8^4 = 0.4096 → 0.03 × 0.5904 × 20 × 2,000 × 3 / 1e6 = 0.00212544
    expect(netBenefit(step, { ...warm, prior_steps: 3 }, removal).distortion).toBeCloseTo(0.00212544, 12);
    // c = 5: 0.8^6 = 0.262 < 0.37 → 0.03 × 0.63 × 20 × 2,000 × 3 / 1e6 = 0.002268
    expect(netBenefit(step, { ...warm, prior_steps: 5 }, removal).distortion).toBeCloseTo(0.002268, 12);
  });
  it("a summary step adds S to the rewrite and pays its request", () => {
    const req = summaryRequestCost(60_000, COST_DEFAULTS);
    // (60,000 × 3.0 + 500 × 15.0) / 1e6 = 0.1875
    expect(req).toBeCloseTo(0.1875, 12);
    const b = netBenefit({ ...step, request_cost_usd: req }, warm, COST_DEFAULTS);
    // miss = (500 + 50,000) × 2.7 / 1e6 = 0.13635; kept = 100,000 − 30,000 − 500 = 69,500
    expect(b.cache_miss).toBeCloseTo(0.13635, 12);
    // quality = 0.6 × (11,025,000,000 − 5,550,250,000) / 2e5 / 1e6 = 0.01642425
    expect(b.quality_gain).toBeCloseTo(0.01642425, 12);
    expect(b.net).toBeCloseTo(0.171 - 0.13635 - 0.1875 - 0.00072 + 0.01642425, 12);
  });
  it("R ≤ 1 saves nothing in the future", () => {
    expect(netBenefit(step, { ...warm, remaining_calls: 1 }, removal).future_savings).toBe(0);
  });
});

describe("prices", () => {
  it("resolves dated ids by longest prefix and falls back to the seeds", () => {
    expect(findModelPrice("claude-opus-4-20250514", "anthropic").price).toMatchObject({ input_per_mtok: 15, cache_read_per_mtok: 1.5, cache_write_multiplier: 1.25, context_window: 200_000 });
    expect(findModelPrice("claude-sonnet-4-5", "anthropic").price).toMatchObject({ input_per_mtok: 3, cache_read_per_mtok: 0.3 });
    expect(findModelPrice("gpt-5.1-codex-max", "openai-chat").price).toMatchObject({ prefix: "gpt-5.1-codex-max", input_per_mtok: 1.25, cache_read_per_mtok: 0.125, cache_write_multiplier: 1, context_window: 400_000 });
    expect(findModelPrice("gpt-4o-2024-08-06", "openai-chat").price).toMatchObject({ prefix: "gpt-4o", input_per_mtok: 2.5, cache_read_per_mtok: 1.25 });
    expect(findModelPrice("gpt-4o-mini", "openai-chat").price.prefix).toBe("gpt-4o-mini");
    expect(findModelPrice("gpt-4-1106-preview", "openai-chat").price).toMatchObject({ input_per_mtok: 10, cache_read_per_mtok: 10, output_per_mtok: 30 });
    const fb = findModelPrice(null, "anthropic");
    expect(fb.fallback).toBe(true);
    expect(fb.price).toMatchObject({ input_per_mtok: 3, cache_read_per_mtok: 0.3, output_per_mtok: 15, cache_write_multiplier: 1.25, context_window: 200_000 });
    expect(findModelPrice("mystery", "openai-chat").price.cache_write_multiplier).toBe(1);
  });
  it("expected remaining calls, seed prior at q = 0.1: max(floor, 1 + ⌊n/9⌋)", () => {
    expect([0, 10, 16, 17, 100].map((n) => estimateRemainingCalls(n, 2))).toEqual([2, 2, 2, 2, 12]);
  });
});

describe("enumerateCutPoints", () => {
  // Messages: 0 user, 1 asst(call a), 2 user(result a), 3 asst(call b,c), 4 user(result b), 5 user(result c), 6 asst, 7 user
  const message_tokens = [10, 20, 500, 30, 400, 300, 10, 10];
  const spans = [
    { call_message: 1, result_message: 2 },
    { call_message: 3, result_message: 4 },
    { call_message: 3, result_message: 5 },
  ];
  it("never cuts inside an exchange and returns only boundaries that add candidates", () => {
    const cuts = enumerateCutPoints({
      message_tokens,
      candidates: [
        { pair_id: "a", call_message: 1, result_message: 2, first_edit_message: 2, saved_tokens: 450 },
        { pair_id: "b", call_message: 3, result_message: 4, first_edit_message: 4, saved_tokens: 350 },
      ],
      spans,
      max_boundary: 8,
      cached_end: 6,
    });
    // b = 5 lies inside exchange c (call 3, result 5): the cut after b's result is 6.
    expect(cuts).toEqual([
      { boundary: 3, pair_ids: ["a"], removed_tokens: 450, rewritten_tokens: 500 + 30 + 400 + 300 - 450, first_edit: 2 },
      { boundary: 6, pair_ids: ["a", "b"], removed_tokens: 800, rewritten_tokens: 1230 - 800, first_edit: 2 },
    ]);
  });
  it("respects max_boundary", () => {
    const cuts = enumerateCutPoints({ message_tokens, candidates: [{ pair_id: "b", call_message: 3, result_message: 4, first_edit_message: 3, saved_tokens: 380 }], spans, max_boundary: 5, cached_end: 6 });
    expect(cuts).toEqual([]);
  });
});
