/**
 * The cost model per price regime and per real TTL (DESIGN §4; src/core/cost/cache-regime.ts):
 * each model's read and write prices from the price table, the request's own cache lifetime
 * (Anthropic 5-minute / 1-hour markers, OpenAI retention and GPT-5.6 cache options), no caching
 * at all. One step priced in each case, every term in dollars, computed by hand.
 */
import { describe, expect, it } from "vitest";
import { cacheRegime } from "../../src/core/cost/cache-regime";
import { netBenefit } from "../../src/core/cost/net-benefit";
import { MODEL_PRICES } from "../../src/core/cost/prices";
import { matchPriceRow } from "../../src/core/cost/find-model-price";
import type { CacheFacts } from "../../src/core/facts/cache-facts";
import { cacheCold, costParamsFor } from "../../src/core/policy/take-step";
import type { TierContext } from "../../src/core/policy/types";
import type { Provider } from "../../src/core/view/types";

const MIN5 = 300_000;
const HOUR = 3_600_000;
const facts = (over: Partial<CacheFacts>): CacheFacts => ({ tools: [], system: null, markers: [], unmarked: [], ttl_ms: null, ...over });
const marked = (...ttls: number[]): CacheFacts => facts({ markers: ttls.map((_, i) => (i === ttls.length - 1 ? "auto" : i)), marker_ttls: ttls, ttl_ms: ttls.some((t) => t === HOUR) ? HOUR : null });
const openai = (o: Partial<NonNullable<CacheFacts["openai"]>>): CacheFacts => facts({ openai: { mode: "implicit", ttl_ms: null, breakpoints: [], retention: null, ...o } });

/** The context costParamsFor and cacheCold read: the model, its provider, the request's cache facts, the idle time. */
function ctxFor(model: string, provider: Provider, cache: CacheFacts | null, idle_seconds = 10): TierContext {
  const view = { provider, model, betas: [], prefix: cache === null ? null : { members: [], message_hashes: [], cache } };
  return { view, pressure: { turn_count: 40, context_pct_used: 0.1, idle_seconds, session_complete: false }, prices: MODEL_PRICES } as unknown as TierContext;
}

// One step: T = 100,000 history tokens, H = 10,000 removed, K = 40,000 rewritten, V = 5,000
// outside the history; R = 21 remaining calls, first step (r_t = 0.8), avg = 80,000.
const STEP = { history_tokens: 100_000, removed_tokens: 10_000, rewritten_tokens: 40_000, request_cost_usd: 0 };
function priced(ctx: TierContext) {
  const { params, regime } = costParamsFor(ctx);
  const b = netBenefit(STEP, { remaining_calls: 21, prior_steps: 0, avg_call_tokens: 80_000, cache_cold: cacheCold(ctx, regime) }, { ...params, prefix_tokens: 5_000, summary_tokens: 0 });
  const r = (x: number) => Math.round(x * 1e9) / 1e9;
  return { regime, terms: [r(b.future_savings), r(b.cache_miss), r(b.distortion), r(b.quality_gain), r(b.net)] };
}

describe("cacheRegime", () => {
  it("Anthropic: the last marker's TTL and write price; no marker or no facts, the row's defaults", () => {
    const sonnet = matchPriceRow("claude-sonnet-4-5")!;
    expect(cacheRegime(sonnet, marked(MIN5))).toEqual({ cached: true, ttl_seconds: 300, write_multiplier: 1.25, read_per_mtok: 0.3 });
    expect(cacheRegime(sonnet, marked(HOUR, HOUR))).toEqual({ cached: true, ttl_seconds: 3600, write_multiplier: 2, read_per_mtok: 0.3 });
    expect(cacheRegime(sonnet, marked(HOUR, MIN5))).toEqual({ cached: true, ttl_seconds: 300, write_multiplier: 1.25, read_per_mtok: 0.3 });
    expect(cacheRegime(sonnet, facts({}))).toEqual({ cached: true, ttl_seconds: 300, write_multiplier: 1.25, read_per_mtok: 0.3 });
    expect(cacheRegime(sonnet, null)).toEqual({ cached: true, ttl_seconds: 300, write_multiplier: 1.25, read_per_mtok: 0.3 });
    // Facts stored before marker TTLs were recorded: the longest TTL stands in.
    expect(cacheRegime(sonnet, facts({ markers: ["auto"], ttl_ms: HOUR })).ttl_seconds).toBe(3600);
  });

  it("the price table's read prices: Opus/Sonnet 5.5 at 0.05×, Fable 5.1 at 0.025×, GPT-5.6 writes at 1.25×", () => {
    expect(cacheRegime(matchPriceRow("claude-opus-5-5")!, marked(MIN5)).read_per_mtok).toBe(0.2); // $4 input
    expect(cacheRegime(matchPriceRow("claude-sonnet-5-5")!, marked(MIN5)).read_per_mtok).toBe(0.1); // $2 input
    expect(cacheRegime(matchPriceRow("claude-fable-5-1")!, marked(HOUR)).read_per_mtok).toBe(0.25); // $10 input
    expect(cacheRegime(matchPriceRow("gpt-5.6-sol")!, openai({}))).toEqual({ cached: true, ttl_seconds: 1800, write_multiplier: 1.25, read_per_mtok: 0.5 });
  });

  it("OpenAI: 5 minutes in memory, 24 hours with retention 24h; GPT-5.6 explicit mode without a breakpoint caches nothing; gpt-4-turbo never caches", () => {
    const gpt51 = matchPriceRow("gpt-5.1")!;
    expect(cacheRegime(gpt51, openai({}))).toEqual({ cached: true, ttl_seconds: 300, write_multiplier: 1, read_per_mtok: 0.125 });
    expect(cacheRegime(gpt51, openai({ retention: "24h" })).ttl_seconds).toBe(86_400);
    const sol = matchPriceRow("gpt-5.6-sol")!;
    expect(cacheRegime(sol, openai({ mode: "explicit" }))).toEqual({ cached: false, ttl_seconds: 0, write_multiplier: 1, read_per_mtok: 5 });
    expect(cacheRegime(sol, openai({ mode: "explicit", breakpoints: [3], ttl_ms: 1_800_000 })).cached).toBe(true);
    expect(cacheRegime(matchPriceRow("gpt-4-turbo")!, openai({}))).toEqual({ cached: false, ttl_seconds: 0, write_multiplier: 1, read_per_mtok: 10 });
  });
});

describe("one step priced per regime: [future savings, cache miss, distortion, quality gain, net], USD", () => {
  it("Sonnet 4.5, 5-minute marker, warm: the rewrite at 1.25× sinks it", () => {
    // future 20 × $0.30 × 10,000; miss 40,000 × ($3.75 − $0.30); distortion 0.03 × 0.2 × 21 × 80,000 × $3;
    // quality 0.2 × $3 × (105,000² − 95,000²) / 200,000 — each / 10^6.
    expect(priced(ctxFor("claude-sonnet-4-5", "anthropic", marked(MIN5))).terms).toEqual([0.06, 0.138, 0.03024, 0.006, -0.10224]);
  });

  it("Sonnet 4.5, 1-hour marker: the rewrite costs 2× input; idle 400 s is still warm", () => {
    // miss 40,000 × ($6 − $0.30)
    expect(priced(ctxFor("claude-sonnet-4-5", "anthropic", marked(HOUR, HOUR), 400)).terms).toEqual([0.06, 0.228, 0.03024, 0.006, -0.19224]);
  });

  it("Sonnet 4.5, 5-minute marker, idle 400 s: the cache lapsed, the rewrite is free and the step pays", () => {
    expect(priced(ctxFor("claude-sonnet-4-5", "anthropic", marked(MIN5), 400)).terms).toEqual([0.06, 0, 0.03024, 0.006, 0.03576]);
  });

  it("a model without prompt caching (gpt-4-turbo): every later call pays input for what the step removes, the rewrite costs nothing extra", () => {
    // future 20 × $10 × 10,000; miss 0; distortion 0.03 × 0.2 × 21 × 80,000 × $10; quality 0.2 × $10 × 2·10^9 / 128,000.
    expect(priced(ctxFor("gpt-4-turbo", "openai-chat", openai({}))).terms).toEqual([2, 0, 0.1008, 0.03125, 1.93045]);
  });

  it("Opus 5.5 (reads 0.05×, 1M window) and Fable 5.1 (reads 0.025×), 5-minute markers", () => {
    // Opus: future 20 × $0.20 × 10,000; miss 40,000 × ($5 − $0.20); distortion × $4; quality 0.2 × $4 × 2·10^9 / 10^6.
    expect(priced(ctxFor("claude-opus-5-5", "anthropic", marked(MIN5))).terms).toEqual([0.04, 0.192, 0.04032, 0.0016, -0.19072]);
    // Fable: future 20 × $0.25 × 10,000; miss 40,000 × ($12.50 − $0.25); distortion × $10; quality 0.2 × $10 × 2·10^9 / 10^6.
    expect(priced(ctxFor("claude-fable-5-1", "anthropic", marked(MIN5))).terms).toEqual([0.05, 0.49, 0.1008, 0.004, -0.5368]);
  });

  it("OpenAI: gpt-5.1 writes at input (no premium), GPT-5.6 Sol at 1.25×, both warm", () => {
    // gpt-5.1: future 20 × $0.125 × 10,000; miss 40,000 × ($1.25 − $0.125); distortion × $1.25; quality 0.2 × $1.25 × 2·10^9 / 400,000.
    expect(priced(ctxFor("gpt-5.1", "openai-responses", openai({}))).terms).toEqual([0.025, 0.045, 0.0126, 0.00125, -0.03135]);
    // Sol: future 20 × $0.50 × 10,000; miss 40,000 × ($6.25 − $0.50); distortion × $5; quality 0.2 × $5 × 2·10^9 / 400,000.
    expect(priced(ctxFor("gpt-5.6-sol", "openai-responses", openai({}))).terms).toEqual([0.1, 0.23, 0.0504, 0.005, -0.1754]);
  });

  it("OpenAI retention 24h keeps a 10-minute idle warm; in memory it lapsed", () => {
    expect(priced(ctxFor("gpt-5.1", "openai-responses", openai({ retention: "24h" }), 600)).terms[1]).toBe(0.045);
    expect(priced(ctxFor("gpt-5.1", "openai-responses", openai({}), 600)).terms[1]).toBe(0);
  });
});
