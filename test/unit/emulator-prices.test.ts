import { describe, expect, it } from "vitest";
import { contextWindow, findModelPrice } from "../../src/core/cost/find-model-price";
import { anthropicCostNano, openaiCostNano } from "../../tools/emulator/shared/compute-cost";
import { anthropicPrice, openaiPrice } from "../../tools/emulator/shared/prices";

// One table (src/core/cost/prices.ts) serves Sluice's cost model and the emulator's billing.
const usage = (u: Partial<{ uncached: number; cacheRead: number; cacheWrite5m: number; cacheWrite1h: number; output: number }>) => ({
  uncached: 0, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: 0, ...u,
});

describe("current Claude models (platform.claude.com pricing and model pages)", () => {
  it("Opus 4.6–4.8 and Opus 5 are $5/$25 with 1M windows, not the Opus 4 row's $15/$75", () => {
    for (const id of ["claude-opus-4-6", "claude-opus-4-7", "claude-opus-4-8", "claude-opus-5"]) {
      expect(findModelPrice(id, "anthropic").price).toMatchObject({ input_per_mtok: 5, output_per_mtok: 25, cache_read_per_mtok: 0.5, context_window: 1_000_000 });
    }
    expect(findModelPrice("claude-opus-4-20250514", "anthropic").price).toMatchObject({ input_per_mtok: 15, output_per_mtok: 75, context_window: 200_000 });
  });

  it("5.5 and Fable/Mythos rows: prices, cache reads and windows", () => {
    const row = (id: string) => {
      const p = findModelPrice(id, "anthropic").price;
      return [p.input_per_mtok, p.output_per_mtok, p.cache_read_per_mtok, p.context_window];
    };
    expect(row("claude-opus-5-5")).toEqual([4, 20, 0.2, 1_000_000]);
    expect(row("claude-sonnet-5-5")).toEqual([2, 10, 0.1, 1_000_000]);
    expect(row("claude-haiku-5-5")).toEqual([0.1, 0.5, 0.01, 1_000_000]);
    expect(row("claude-fable-5-2")).toEqual([8, 40, 0.2, 1_000_000]);
    expect(row("claude-mythos-5-2")).toEqual([8, 40, 0.2, 1_000_000]);
    expect(row("claude-fable-5-1")).toEqual([10, 50, 0.25, 1_000_000]);
    expect(row("claude-mythos-5-1")).toEqual([10, 50, 0.25, 1_000_000]);
    expect(row("claude-fable-5")).toEqual([10, 50, 1, 1_000_000]);
  });

  it("a prefix matches only at a separator: a dated Fable 5 id is Fable 5, not Fable 5.2", () => {
    expect(findModelPrice("claude-fable-5-20260609", "anthropic").price.prefix).toBe("claude-fable-5");
    expect(findModelPrice("claude-sonnet-5-5-20260928", "anthropic").price.prefix).toBe("claude-sonnet-5-5");
    expect(findModelPrice("CLAUDE-OPUS-4-8", "anthropic").price.prefix).toBe("claude-opus-4-8");
  });
});

describe("contextWindow(model, provider, betas)", () => {
  it("a beta that extends the window counts; others do not", () => {
    expect(contextWindow("claude-sonnet-4-5-20250929", "anthropic")).toBe(200_000);
    expect(contextWindow("claude-sonnet-4-5-20250929", "anthropic", ["context-management-2025-06-27,context-1m-2025-08-07"])).toBe(1_000_000);
    expect(contextWindow("claude-haiku-4-5", "anthropic", ["context-1m-2025-08-07"])).toBe(200_000);
    expect(contextWindow("claude-opus-5-5", "anthropic")).toBe(1_000_000);
    expect(contextWindow(null, "anthropic")).toBe(200_000);
  });
});

describe("the emulator bills from the same rows", () => {
  it("its rows are the shared table's", () => {
    expect(anthropicPrice("claude-opus-4-7")).toMatchObject({ input: 5, output: 25, cacheRead: 0.5, write5mRatio: 1.25, write1hRatio: 2, minCacheTokens: 4096, known: true });
    expect(anthropicPrice("claude-fable-5-1")).toMatchObject({ input: 10, cacheRead: 0.25, minCacheTokens: 512 });
    expect(openaiPrice("gpt-5.1-codex-max")).toMatchObject({ input: 1.25, cachedInput: 0.125, cacheWrite: 1.25, output: 10, cache: "prefix-128" });
  });

  it("Fable 5.1 reads cost $0.25/MTok (0.025×), Opus 5.5 writes 1.25×/2× of $4", () => {
    expect(anthropicCostNano(usage({ cacheRead: 1000 }), anthropicPrice("claude-fable-5-1"))).toBe(250_000);
    expect(anthropicCostNano(usage({ cacheWrite5m: 1000, cacheWrite1h: 1000 }), anthropicPrice("claude-opus-5-5"))).toBe(5_000_000 + 8_000_000);
  });

  it("Haiku 5.5 is tiered: a prompt over 100,000 tokens bills every token at $0.50/$2.50 (reads $0.05)", () => {
    const haiku = anthropicPrice("claude-haiku-5-5");
    // 100,000 prompt tokens: the low tier. 60k uncached × $0.10 + 40k reads × $0.01 + 1k output × $0.50.
    expect(anthropicCostNano(usage({ uncached: 60_000, cacheRead: 40_000, output: 1000 }), haiku)).toBe(6_000_000 + 400_000 + 500_000);
    // 100,001: the high tier on everything, output included.
    expect(anthropicCostNano(usage({ uncached: 60_001, cacheRead: 40_000, output: 1000 }), haiku)).toBe(30_000_500 + 2_000_000 + 2_500_000);
  });

  it("Sonnet 4.5 above 200,000 prompt tokens (1M beta) bills the long-context $6/$22.50", () => {
    expect(anthropicCostNano(usage({ uncached: 200_001, output: 1000 }), anthropicPrice("claude-sonnet-4-5"))).toBe(1_200_006_000 + 22_500_000);
  });
});

describe("GPT-6.x (developers.openai.com model pages; Codex 0.171's default gpt-6.2-sol)", () => {
  it("rows: input, cached input, write multiple, output, window, cache kind, long-context tier", () => {
    const row = (id: string) => {
      const { price: p, fallback } = findModelPrice(id, "openai-responses");
      return [p.prefix, p.input_per_mtok, p.cache_read_per_mtok, p.cache_write_multiplier, p.output_per_mtok, p.context_window, p.prompt_cache, p.long_context, fallback];
    };
    const long = (input: number, read: number, output: number) => ({ above_prompt_tokens: 272_000, input_per_mtok: input, cache_read_per_mtok: read, output_per_mtok: output });
    expect(row("gpt-6.2-sol")).toEqual(["gpt-6.2-sol", 2, 0.1, 1.25, 10, 1_050_000, "openai-breakpoints", long(4, 0.2, 15), false]);
    expect(row("gpt-6.2-sol-2026-11-17")).toEqual(["gpt-6.2-sol", 2, 0.1, 1.25, 10, 1_050_000, "openai-breakpoints", long(4, 0.2, 15), false]);
    expect(row("gpt-6.1-sol")).toEqual(["gpt-6.1-sol", 2, 0.1, 1.25, 10, 1_050_000, "openai-breakpoints", long(4, 0.2, 15), false]);
    expect(row("gpt-6.1-terra")).toEqual(["gpt-6.1-terra", 1, 0.05, 1.25, 5, 1_050_000, "openai-breakpoints", long(2, 0.1, 7.5), false]);
    expect(row("gpt-6-sol")).toEqual(["gpt-6-sol", 2, 0.2, 1.25, 10, 1_050_000, "openai-breakpoints", long(4, 0.4, 15), false]);
    expect(row("gpt-6-astra")).toEqual(["gpt-6-astra", 10, 1, 1.25, 50, 1_050_000, "openai-breakpoints", long(20, 2, 75), false]);
    expect(row("gpt-6-luna")).toEqual(["gpt-6-luna", 0.1, 0.01, 1.25, 0.5, 1_050_000, "openai-breakpoints", long(0.2, 0.02, 0.75), false]);
    expect(contextWindow("gpt-6.2-sol", "openai-responses")).toBe(1_050_000);
  });

  it("an unknown GPT-6 variant is not priced as a neighbour: Sluice's seed fallback, the emulator's GPT-5.6+ default", () => {
    expect(findModelPrice("gpt-6.3-sol", "openai-responses")).toMatchObject({ fallback: true, price: { input_per_mtok: 3, cache_read_per_mtok: 0.3, output_per_mtok: 15, context_window: 200_000 } });
    expect(openaiPrice("gpt-6.3-sol")).toMatchObject({ input: 1.25, cacheWrite: 1.5625, cache: "breakpoints", known: false });
  });

  it("emulator billing: writes at $2.50; above 272K input every token at the long-context rates", () => {
    const sol = openaiPrice("gpt-6.2-sol");
    expect(sol).toMatchObject({ input: 2, cachedInput: 0.1, cacheWrite: 2.5, output: 10, cache: "breakpoints", contextWindow: 1_050_000, known: true });
    // 1,000 × $2 + 200,000 × $0.10 + 10,000 × $2.50 + 1,000 × $10 per 10^6 = $0.002 + $0.02 + $0.025 + $0.01
    expect(openaiCostNano(usage({ uncached: 1_000, cacheRead: 200_000, cacheWrite5m: 10_000, output: 1_000 }), sol)).toBe(57_000_000);
    // 272,000 exactly is short context; 272,001 is long: 1,001 × $4 + 261,000 × $0.20 + 10,000 × $5 + 1,000 × $15
    expect(openaiCostNano(usage({ uncached: 1_000, cacheRead: 261_000, cacheWrite5m: 10_000, output: 1_000 }), sol)).toBe(2_000_000 + 26_100_000 + 25_000_000 + 10_000_000);
    expect(openaiCostNano(usage({ uncached: 1_001, cacheRead: 261_000, cacheWrite5m: 10_000, output: 1_000 }), sol)).toBe(4_004_000 + 52_200_000 + 50_000_000 + 15_000_000);
  });
});
