/**
 * The savings ledger's pricing (src/core/cost/counterfactual-input.ts): the split the provider
 * would bill for a body, per cache kind, and its dollars. Every figure below is computed by hand
 * from the price rows (src/core/cost/prices.ts).
 */
import { describe, expect, it } from "vitest";
import { counterfactualSplit, inputCostUsd, toProviderTokens } from "../../src/core/cost/counterfactual-input";
import { findModelPrice } from "../../src/core/cost/find-model-price";

const sonnet = findModelPrice("claude-sonnet-4-5", "anthropic").price; // $3 in, $0.30 read, writes 1.25×, min 1,024, TTL 300 s, $6 / $0.60 above 200K
const gpt4o = findModelPrice("gpt-4o", "openai-chat").price; // $2.50 in, $1.25 cached, 128-token increments from 1,024
const gpt56 = findModelPrice("gpt-5.6", "openai-responses").price; // $5 in, $0.50 cached, writes 1.25×, TTL 1,800 s
const turbo = findModelPrice("gpt-4-turbo", "openai-chat").price; // $10 in, no cache

describe("counterfactualSplit and inputCostUsd", () => {
  it("Anthropic: the shared prefix is read, the rest written at 1.25×", () => {
    const s = counterfactualSplit({ total_tokens: 10_000, shared_tokens: 8_000, gap_seconds: 30, caching: true }, sonnet);
    expect(s).toEqual({ input: 0, cache_read: 8_000, cache_write: 2_000 });
    // 8,000 × $0.30 + 2,000 × $3 × 1.25 per 10^6 = $0.0024 + $0.0075
    expect(inputCostUsd(s, sonnet)).toBeCloseTo(0.0099, 12);
  });

  it("Anthropic: past the 300 s TTL nothing is read and the whole body is written again", () => {
    const s = counterfactualSplit({ total_tokens: 10_000, shared_tokens: 8_000, gap_seconds: 300, caching: true }, sonnet);
    expect(s).toEqual({ input: 0, cache_read: 0, cache_write: 10_000 });
    expect(inputCostUsd(s, sonnet)).toBeCloseTo(0.0375, 12);
  });

  it("Anthropic: a session that does not cache pays plain input; below the 1,024-token minimum nothing is read or written", () => {
    expect(counterfactualSplit({ total_tokens: 10_000, shared_tokens: 8_000, gap_seconds: 30, caching: false }, sonnet)).toEqual({ input: 10_000, cache_read: 0, cache_write: 0 });
    expect(counterfactualSplit({ total_tokens: 10_000, shared_tokens: 900, gap_seconds: 30, caching: true }, sonnet)).toEqual({ input: 0, cache_read: 0, cache_write: 10_000 });
    const small = counterfactualSplit({ total_tokens: 800, shared_tokens: 700, gap_seconds: 30, caching: true }, sonnet);
    expect(small).toEqual({ input: 800, cache_read: 0, cache_write: 0 });
    expect(inputCostUsd(small, sonnet)).toBeCloseTo(0.0024, 12);
  });

  it("the session's first call reads nothing", () => {
    expect(counterfactualSplit({ total_tokens: 2_000, shared_tokens: 0, gap_seconds: null, caching: true }, sonnet)).toEqual({ input: 0, cache_read: 0, cache_write: 2_000 });
  });

  it("OpenAI automatic cache: reads in whole 128-token increments, the rest plain input", () => {
    const s = counterfactualSplit({ total_tokens: 5_000, shared_tokens: 3_000, gap_seconds: 10, caching: true }, gpt4o);
    expect(s).toEqual({ input: 2_056, cache_read: 2_944, cache_write: 0 });
    // 2,944 × $1.25 + 2,056 × $2.50 per 10^6 = $0.00368 + $0.00514
    expect(inputCostUsd(s, gpt4o)).toBeCloseTo(0.00882, 12);
  });

  it("GPT-5.6 breakpoints: 30-minute TTL, writes at 1.25×", () => {
    const s = counterfactualSplit({ total_tokens: 4_000, shared_tokens: 3_000, gap_seconds: 600, caching: true }, gpt56);
    expect(s).toEqual({ input: 0, cache_read: 3_000, cache_write: 1_000 });
    expect(inputCostUsd(s, gpt56)).toBeCloseTo(0.00775, 12);
  });

  it("a model without a prompt cache pays plain input", () => {
    const s = counterfactualSplit({ total_tokens: 3_000, shared_tokens: 3_000, gap_seconds: 1, caching: true }, turbo);
    expect(s).toEqual({ input: 3_000, cache_read: 0, cache_write: 0 });
    expect(inputCostUsd(s, turbo)).toBeCloseTo(0.03, 12);
  });

  it("above 200K prompt tokens Sonnet 4.5 bills every input token at the long-context rates", () => {
    // 190,000 × $0.60 + 20,000 × $6 × 1.25 per 10^6 = $0.114 + $0.15
    expect(inputCostUsd({ input: 0, cache_read: 190_000, cache_write: 20_000 }, sonnet)).toBeCloseTo(0.264, 12);
    expect(inputCostUsd({ input: 0, cache_read: 180_000, cache_write: 20_000 }, sonnet)).toBeCloseTo(0.054 + 0.075, 12);
  });
});

describe("toProviderTokens", () => {
  it("scales an estimate by the session's calibration; without one it stays as estimated", () => {
    expect(toProviderTokens(1_000, 1.2)).toBeCloseTo(1_200, 9);
    expect(toProviderTokens(1_000, null)).toBe(1_000);
    expect(toProviderTokens(1_000, 0)).toBe(1_000);
  });
});
