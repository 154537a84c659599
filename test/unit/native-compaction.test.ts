/**
 * The native summarising step at level `rewrite` (src/core/policy/native-compaction.ts,
 * src/core/tiers/auto-native-compaction.ts): the choice of the trigger, the cost model's terms in
 * dollars, when the auto tier takes it instead of clearing, and the session's view of a history
 * that starts at its own compaction block.
 */
import { describe, expect, it } from "vitest";
import { COST_DEFAULTS } from "../../src/core/cost/cost-defaults";
import { MODEL_PRICES } from "../../src/core/cost/prices";
import { CORE_DEFAULTS, compact } from "../../src/core/policy/compact";
import { EMPTY_LEDGER, mergeLedger } from "../../src/core/policy/ledger";
import { compactionBenefit, compactionTrigger, nextCompactionState, viewFromCompaction, type CompactionState } from "../../src/core/policy/native-compaction";
import type { CoreConfig, TierContext } from "../../src/core/policy/types";
import { savedTokens } from "../../src/core/policy/estimate-savings";
import { sluiceEditOf } from "../../src/observers/cache-diagnostics";
import type { StepFacts } from "../../src/core/facts/step-facts";
import type { ConversationView } from "../../src/core/view/types";
import { factsOf, lines, makeView, type MessageSpec } from "../support/make-view";

/** `n` Bash turns on claude-opus-5-5, each result ≈ 5,000 estimated tokens, locked as the adapter locks them there. */
function session(n: number, model = "claude-opus-5-5"): ConversationView {
  const m: MessageSpec[] = [{ role: "user", text: "refactor" }];
  for (let i = 0; i < n; i++) {
    m.push({ role: "assistant", calls: [{ id: `t${i}`, tool: "Bash", input: { command: `make build-${i}` } }] });
    m.push({ role: "user", results: [{ id: `t${i}`, text: lines(20_000, `r${i}`), locked: "thinking_prefix" }] });
  }
  return makeView({ model, outside_tokens: 1_000, messages: m });
}
/**
 * `n` turns whose weight is the assistant's prose (≈ 5,000 estimated tokens each) and whose tool
 * results are tiny: clearing saves almost nothing. `big` leading turns of session() come first.
 */
function proseSession(n: number, big = 0): ConversationView {
  const m: MessageSpec[] = [{ role: "user", text: "refactor" }];
  for (let i = 0; i < big; i++) {
    m.push({ role: "assistant", calls: [{ id: `b${i}`, tool: "Bash", input: { command: `make build-${i}` } }] });
    m.push({ role: "user", results: [{ id: `b${i}`, text: lines(20_000, `r${i}`), locked: "thinking_prefix" }] });
  }
  for (let i = 0; i < n; i++) {
    m.push({ role: "assistant", text: lines(20_000, `p${i}`), calls: [{ id: `t${i}`, tool: "Bash", input: { command: `make build-${i}` } }] });
    m.push({ role: "user", results: [{ id: `t${i}`, text: "ok", locked: "thinking_prefix" }] });
  }
  return makeView({ model: "claude-opus-5-5", outside_tokens: 1_000, messages: m });
}
const ctx = (view: ConversationView | StepFacts, config: Partial<CoreConfig> = {}, state?: CompactionState): TierContext => ({
  view: "pairs" in view && "body_bytes" in view ? factsOf(view) : (view as StepFacts), ledger: EMPTY_LEDGER,
  pressure: { turn_count: 12, context_pct_used: 0.8, idle_seconds: 0, session_complete: false },
  config: { ...CORE_DEFAULTS, ...config }, prices: MODEL_PRICES, now_ms: 1_000, expected_remaining_calls: 50, correlation_id: "r",
  ...(state ? { native_compaction: state } : {}),
});
const REWRITE: Partial<CoreConfig> = { guarantee_level: "rewrite" };

describe("compactionTrigger", () => {
  it("the provider's 50,000 minimum once the calibrated request reaches it; none below (the usual clearing step)", () => {
    expect([compactionTrigger(49_999), compactionTrigger(50_000), compactionTrigger(180_000)]).toEqual([null, 50_000, 50_000]);
  });
});

describe("compactionBenefit", () => {
  // claude-opus-5-5 prices: $4 input, $0.20 cache read, $20 output, writes 1.25×; 1M window; V = 5,000.
  const params = { ...COST_DEFAULTS, p_input: 4, p_cache: 0.2, p_out: 20, write_multiplier: 1.25, context_window: 1_000_000 };
  const shape = { history_tokens: 100_000, request_tokens: 105_000, cached_tokens: 0 };
  it("H = history − 3,000 summary tokens; term ③ = the request at P_input + the summary at P_out; K = 0", () => {
    const b = compactionBenefit(shape, { remaining_calls: 50, prior_steps: 0, avg_call_tokens: 105_000, cache_cold: false }, params);
    expect(b.future_savings).toBeCloseTo((49 * 0.2 * 97_000) / 1e6, 12); // $0.9506
    expect(b.cache_miss).toBeCloseTo((3_000 * (1.25 * 4 - 0.2)) / 1e6, 12); // $0.0144: the summary's write
    expect(b.request_cost).toBeCloseTo((105_000 * 4 + 3_000 * 20) / 1e6, 12); // $0.48
    expect(b.distortion).toBeCloseTo((0.03 * 0.2 * 50 * 105_000 * 4) / 1e6, 12); // $0.126
    expect(b.quality_gain).toBeCloseTo((0.2 * 4 * (105_000 ** 2 - 5_000 ** 2)) / 1_000_000 / 1e6, 12); // $0.0088
    expect(b.net).toBeCloseTo(0.339, 10);
  });
  it("warm, the compaction iteration reads the cached prefix at P_cache", () => {
    const b = compactionBenefit({ ...shape, cached_tokens: 100_000 }, { remaining_calls: 50, prior_steps: 0, avg_call_tokens: 105_000, cache_cold: false }, params);
    expect(b.request_cost).toBeCloseTo((100_000 * 0.2 + 5_000 * 4 + 3_000 * 20) / 1e6, 12); // $0.10
    expect(b.net).toBeCloseTo(0.719, 10);
  });
  it("a short remaining session does not pay for the summary", () => {
    expect(compactionBenefit(shape, { remaining_calls: 20, prior_steps: 0, avg_call_tokens: 105_000, cache_cold: false }, params).net).toBeCloseTo(-0.1674, 10);
  });
});

describe("auto at rewrite on claude-opus-5-5", () => {
  const view = session(12);
  const prose = proseSession(12);
  it("the summarising step is one compaction: trigger 50,000, no pair action, a step record with H = history − 3,000", () => {
    const r = compact(ctx(prose, REWRITE));
    const history = prose.messages.reduce((s, m) => s + m.est_tokens, 0);
    expect(history).toBeGreaterThan(50_000);
    expect(r.tier).toBe("auto");
    expect(r.native).toEqual({ exclude_tools: [], compact: { trigger_tokens: 50_000 } });
    expect(r.plan).toEqual({ actions: {} });
    expect(r.step!.pair_ids).toEqual([]);
    expect(r.step!.tokens_removed).toBe(history - 3_000);
    expect(r.tokens_after).toBe(prose.est_tokens - history + 3_000);
    expect(r.ledger_additions.entries).toEqual([]);
    expect(r.ledger_additions.step).toMatchObject({ step: 1, tier: "auto", pair_count: 0, tokens_removed: history - 3_000 });
    // The cache diagnostics charge the miss it causes to Sluice's step, from the history's first message (not "unexplained").
    const facts = ctx(prose, REWRITE).view;
    expect(sluiceEditOf(r, facts, "compact")).toEqual({ message_index: 0, tokens_removed: history - 3_000 });
    expect(sluiceEditOf(r, facts, "measure")).toBeNull();
    // The same history at strict: clearing the tiny results saves too little, so no step at all.
    expect(compact(ctx(prose)).step).toBeNull();
  });
  it("the cost model picks: warm, the summary (read from cache) beats clearing the large results; cold, its full-price read loses to the free clearing", () => {
    expect(compact(ctx(view, REWRITE)).native?.compact).toEqual({ trigger_tokens: 50_000 });
    const cold = ctx(view, REWRITE);
    const r = compact({ ...cold, pressure: { ...cold.pressure, idle_seconds: 400 } });
    expect([r.tier, r.native]).toEqual(["auto", { exclude_tools: [] }]);
    expect(r.step!.pair_ids.length).toBeGreaterThan(0);
  });
  it("strict and placeholders never compact; nor does a session whose client dropped a compaction block", () => {
    for (const r of [compact(ctx(prose)), compact(ctx(prose, { guarantee_level: "placeholders" })), compact(ctx(prose, REWRITE, "dropped"))]) {
      expect(r.native).toEqual({ exclude_tools: [] });
      expect(r.step).toBeNull();
    }
  });
  it("under the provider's 50,000 minimum: no compaction", () => {
    const small = proseSession(8);
    expect(small.est_tokens).toBeLessThan(50_000);
    expect(compact(ctx(small, { ...REWRITE, threshold_tokens: 20_000 })).native).toEqual({ exclude_tools: [] });
  });
  it("a splicing model at rewrite never gets a compaction edit", () => {
    expect(compact(ctx(session(12, "claude-opus-4-1"), REWRITE)).native).toBeUndefined();
  });
  it("after a clearing step: T is the history as the ledger leaves it, and the ledger stays in the plan", () => {
    const first = compact(ctx(proseSession(0, 12)));
    const ledger = mergeLedger(EMPTY_LEDGER, first.ledger_additions);
    const later = proseSession(24, 12);
    const r = compact({ ...ctx(later, REWRITE), ledger });
    const cleared = factsOf(later).pairs.filter((p) => first.step!.pair_ids.includes(p.id)).reduce((s, p) => s + savedTokens(p, { kind: "drop_result" }), 0);
    const history = later.messages.reduce((s, m) => s + m.est_tokens, 0) - cleared;
    expect(r.native?.compact).toEqual({ trigger_tokens: 50_000 });
    expect(r.step!.tokens_removed).toBe(history - 3_000);
    expect(Object.keys(r.plan.actions).sort()).toEqual([...first.step!.pair_ids].sort());
    expect(r.step!.step).toBe(2);
  });
});

describe("viewFromCompaction", () => {
  // A history echoing Sluice's compaction block in message 9 (the reader's compaction_message).
  const base = factsOf(session(8));
  const facts: StepFacts = { ...base, server_managed: "compaction", compaction_message: 9 };
  it("Sluice's own block (answered or returned): the view starts at its message, the stand-aside is lifted", () => {
    for (const state of ["answered", "returned"] as const) {
      const v = viewFromCompaction(facts, state);
      const before = base.messages.filter((m) => m.index < 9).reduce((s, m) => s + m.est_tokens, 0);
      expect(v.server_managed).toBeNull();
      expect(v.est_tokens).toBe(base.est_tokens - before);
      expect(v.pairs.map((p) => p.id)).toEqual(["t4", "t5", "t6", "t7"]);
      expect(v.messages.slice(0, 9).map((m) => m.est_tokens)).toEqual(Array(9).fill(0));
      expect(v.messages.slice(9)).toEqual(base.messages.slice(9));
    }
  });
  it("a block the session did not cause, or a client edit's stand-aside, leaves the facts as they are", () => {
    expect(viewFromCompaction(facts, "none")).toBe(facts);
    expect(viewFromCompaction(facts, "dropped")).toBe(facts);
    const edit = { ...facts, server_managed: "clear_tool_uses_20250919" };
    expect(viewFromCompaction(edit, "answered")).toBe(edit);
  });
  it("the next request settles the state: the block came back, or the client dropped it", () => {
    expect(nextCompactionState("answered", { compaction_message: 9 })).toBe("returned");
    expect(nextCompactionState("answered", {})).toBe("dropped");
    expect(nextCompactionState("returned", {})).toBe("returned");
    expect(nextCompactionState("none", { compaction_message: 3 })).toBe("none");
  });
});
