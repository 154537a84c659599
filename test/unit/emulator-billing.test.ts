import { describe, expect, it } from "vitest";
import { anthropicCostNano, formatUsd, openaiCostNano } from "../../tools/emulator/shared/compute-cost";
import { anthropicPrice, openaiPrice } from "../../tools/emulator/shared/prices";

const usage = (u: Partial<{ uncached: number; cacheRead: number; cacheWrite5m: number; cacheWrite1h: number; output: number }>) => ({
  uncached: 0,
  cacheRead: 0,
  cacheWrite5m: 0,
  cacheWrite1h: 0,
  output: 0,
  ...u,
});

describe("prices", () => {
  it("resolve dated ids by longest prefix and flag unknown models", () => {
    expect(anthropicPrice("claude-opus-4-20250514")).toMatchObject({ input: 15, output: 75, minCacheTokens: 1024, known: true });
    expect(anthropicPrice("claude-opus-4-5-20251101")).toMatchObject({ input: 5, output: 25, minCacheTokens: 4096 });
    expect(anthropicPrice("claude-3-5-haiku-20241022")).toMatchObject({ input: 0.8, minCacheTokens: 2048 });
    expect(anthropicPrice("claude-unknown")).toMatchObject({ input: 3, output: 15, minCacheTokens: 1024, known: false });
    expect(openaiPrice("gpt-4o-mini-2024-07-18")).toMatchObject({ input: 0.15, cachedInput: 0.075, cache: "prefix-128" });
    expect(openaiPrice("gpt-5.1-codex-max")).toMatchObject({ input: 1.25, cachedInput: 0.125, cacheWrite: 1.25, output: 10 });
    expect(openaiPrice("gpt-5.6-terra")).toMatchObject({ input: 2, cachedInput: 0.2, cacheWrite: 2.5, cache: "breakpoints" });
    expect(openaiPrice("gpt-4-1106-preview").cache).toBe("none");
    expect(openaiPrice("gpt-6-nova")).toMatchObject({ input: 1.25, cacheWrite: 1.5625, cache: "breakpoints", known: false });
  });
});

describe("cost", () => {
  it("Anthropic: writes 1.25× (5 m) or 2× (1 h), reads 0.1×, exact to the nano-dollar", () => {
    const sonnet = anthropicPrice("claude-sonnet-4-5");
    // 1000×$3 + 2000×$3.75 + 10000×$0.30 + 500×$15 per MTok = $0.003 + $0.0075 + $0.003 + $0.0075
    expect(anthropicCostNano(usage({ uncached: 1000, cacheWrite5m: 2000, cacheRead: 10000, output: 500 }), sonnet)).toBe(21_000_000);
    expect(anthropicCostNano(usage({ cacheWrite1h: 1000 }), anthropicPrice("claude-opus-4-1"))).toBe(30_000_000); // 1000 × $30/MTok
    expect(anthropicCostNano(usage({ cacheRead: 1, cacheWrite5m: 1 }), anthropicPrice("claude-3-5-haiku"))).toBe(80 + 1000);
  });

  it("OpenAI: reads at the cached-input price, writes at input before GPT-5.6 and 1.25× from it", () => {
    // gpt-4o: 1808 uncached × $2.50 + 8192 cached × $1.25 + 100 out × $10
    expect(openaiCostNano(usage({ uncached: 1808, cacheRead: 8192, output: 100 }), openaiPrice("gpt-4o"))).toBe(15_760_000);
    // gpt-5.6-sol: 100 × $5 + 2000 × $0.50 + 1000 × $6.25 + 10 × $30
    expect(openaiCostNano(usage({ uncached: 100, cacheRead: 2000, cacheWrite5m: 1000, output: 10 }), openaiPrice("gpt-5.6-sol"))).toBe(8_050_000);
  });

  it("formats nano-dollars as USD with 9 decimals", () => {
    expect([formatUsd(21_000_000), formatUsd(1_267_190_000), formatUsd(0), formatUsd(5)]).toEqual(["0.021000000", "1.267190000", "0.000000000", "0.000000005"]);
  });
});
