/**
 * The auto tier's summarising step at level `rewrite` (src/core/tiers/pick-stretch.ts,
 * src/core/policy/stretch-candidates.ts, src/core/cost/summary-estimate.ts): which stretch it
 * picks (host, covers), what the rest of the plan holds, what the cost model charges for the
 * summary, and that strict is unchanged.
 */
import { describe, expect, it } from "vitest";
import { MODEL_PRICES } from "../../src/core/cost/prices";
import { estimateSummary, summaryCharBound } from "../../src/core/cost/summary-estimate";
import { CORE_DEFAULTS, compact } from "../../src/core/policy/compact";
import { EMPTY_LEDGER, ledgerKey, reapplyLedger, type Ledger } from "../../src/core/policy/ledger";
import { eligiblePairs } from "../../src/core/policy/take-step";
import { savedTokens } from "../../src/core/policy/estimate-savings";
import { pickStretch, pickStretches } from "../../src/core/tiers/pick-stretch";
import type { CoreConfig, TierContext } from "../../src/core/policy/types";
import type { ConversationView } from "../../src/core/view/types";
import { factsOf, lines, makeView, type MessageSpec } from "../support/make-view";
import { readCorpusSession } from "../support/read-corpus-session";

/**
 * 14 Bash turns with 6,000-byte results after a user prose message: t0's result is an image only
 * (no text), t4 is locked by the adapter; the last 4 turns are recent (default preserve 4).
 */
function session(): ConversationView {
  const m: MessageSpec[] = [{ role: "user", text: "fix the build" }];
  for (let i = 0; i < 14; i++) {
    m.push({ role: "assistant", text: i === 6 ? "Now the tests." : undefined, calls: [{ id: `t${i}`, tool: "Bash", input: { command: `make step-${i}` } }] });
    m.push({ role: "user", results: [{ id: `t${i}`, text: i === 0 ? "" : lines(6_000, `r${i}`), media: i === 0 ? 1 : undefined, locked: i === 4 ? "thinking_bound" : undefined }] });
  }
  return makeView({ outside_tokens: 2_000, messages: m });
}

const ctx = (view: ConversationView, config: Partial<CoreConfig> = {}): TierContext => ({
  view: factsOf(view), ledger: EMPTY_LEDGER, pressure: { turn_count: view.turn_count, context_pct_used: 0.8, idle_seconds: 0, session_complete: false },
  config: { ...CORE_DEFAULTS, ...config }, prices: MODEL_PRICES, now_ms: 1_000_000, expected_remaining_calls: 40, correlation_id: "req-1",
});

describe("pickStretch", () => {
  it("the oldest run of ≥ 4 eligible pairs from its first pair with text: t0 (no text) and t1–t3 (3, ended by the locked t4) are passed over; t5–t9 (the recent turns end it)", () => {
    const c = ctx(session());
    const got = pickStretch(c.view, eligiblePairs(c, new Set()));
    expect(got.map((p) => [p.pair.id, p.action])).toEqual([
      ["t5", { kind: "summarize", covers: ["t5", "t6", "t7", "t8", "t9"], text: null }],
      ["t6", { kind: "drop_pair" }], ["t7", { kind: "drop_pair" }], ["t8", { kind: "drop_pair" }], ["t9", { kind: "drop_pair" }],
    ]);
  });
  it("a minimum of 3 takes the older run t1–t3; with preserve_recent_turns 0 the last turn's pair t13 still stays out", () => {
    const c = ctx(session(), { preserve_recent_turns: 0 });
    const eligible = eligiblePairs(c, new Set());
    expect(pickStretch(c.view, eligible, { min: 3, max: 20 }).map((p) => p.pair.id)).toEqual(["t1", "t2", "t3"]);
    expect(eligible.map((p) => p.id)).toContain("t13");
    expect(pickStretch(c.view, eligible).map((p) => p.pair.id)).toEqual(["t5", "t6", "t7", "t8", "t9", "t10", "t11", "t12"]);
    // At most `max` pairs: the stretch closes there.
    expect(pickStretch(c.view, eligible, { min: 4, max: 6 }).map((p) => p.pair.id)).toEqual(["t5", "t6", "t7", "t8", "t9", "t10"]);
  });
  it("no run long enough: nothing", () => {
    const c = ctx(session(), { preserve_recent_turns: 9 });
    expect(pickStretch(c.view, eligiblePairs(c, new Set()))).toEqual([]);
  });
});

describe("pickStretches", () => {
  it("stretch after stretch over what the last one left: t1–t3, t5–t8, t9–t12 with at most 4 pairs each", () => {
    const c = ctx(session(), { preserve_recent_turns: 0 });
    const got = pickStretches(c.view, eligiblePairs(c, new Set()), { min: 3, max: 4 });
    expect(got.filter((p) => p.action.kind === "summarize").map((p) => p.action)).toEqual([
      { kind: "summarize", covers: ["t1", "t2", "t3"], text: null },
      { kind: "summarize", covers: ["t5", "t6", "t7", "t8"], text: null },
      { kind: "summarize", covers: ["t9", "t10", "t11", "t12"], text: null },
    ]);
    expect(got.length).toBe(11);
  });
});

describe("session_memory at level rewrite", () => {
  const complete = (config: Partial<CoreConfig>): TierContext => {
    const c = ctx(session(), { guarantee_level: "rewrite", ...config });
    return { ...c, pressure: { ...c.pressure, session_complete: true } };
  };
  it("summaries stand for the old history: t5–t9 summarised, the pairs no stretch holds (t0–t3) dropped whole, t4 (locked) kept", () => {
    const r = compact(complete({}));
    expect(r.tier).toBe("session_memory");
    const a = r.plan.actions;
    expect(a.t5).toEqual({ kind: "summarize", covers: ["t5", "t6", "t7", "t8", "t9"], text: null });
    expect(["t0", "t1", "t2", "t3", "t6", "t7", "t8", "t9"].map((id) => a[id]!.kind)).toEqual(Array(8).fill("drop_pair"));
    expect([a.t4, a.t10]).toEqual([undefined, undefined]);
  });
  it("under the native mechanism (no summary can be written) every eligible pair is dropped", () => {
    const r = compact(complete({ mechanism: "native" }));
    expect(Object.values(r.plan.actions).some((x) => x.kind === "summarize")).toBe(false);
  });
});

describe("estimateSummary", () => {
  it("the extractive summariser: text bounded by EXTRACT_LIMITS.max_chars (4,000 chars → 1,000 tokens) or the stretch's size, cost 0", () => {
    expect(summaryCharBound(null)).toBe(4_000);
    expect(estimateSummary(30_000, 7_500, null)).toEqual({ text_tokens: 1_000, cost_usd: 0 });
    expect(estimateSummary(2_002, 500, null)).toEqual({ text_tokens: 501, cost_usd: 0 });
  });
  it("a priced chat summariser: reads the stretch at its input price, writes min(bound, max_output_tokens) at its output price", () => {
    const s = { model: "local-model", max_summary_chars: 8_000, max_output_tokens: 1_500, input_per_mtok: 3, output_per_mtok: 15 };
    // 2,000 text tokens expected, capped at 1,500 output: (7,500 × 3 + 1,500 × 15) / 10^6.
    expect(estimateSummary(30_000, 7_500, s)).toEqual({ text_tokens: 2_000, cost_usd: 0.045 });
    // An unpriced local model costs 0.
    expect(estimateSummary(30_000, 7_500, { ...s, input_per_mtok: null, output_per_mtok: null })).toEqual({ text_tokens: 2_000, cost_usd: 0 });
  });
});

describe("auto at level rewrite", () => {
  it("summarises the stretch: t5 hosts the summary of t5–t9, the others are dropped; t0's image is stripped, t1–t3 collapsed", () => {
    const r = compact(ctx(session(), { guarantee_level: "rewrite" }));
    expect(r.tier).toBe("auto");
    const a = r.plan.actions;
    expect(a.t5).toEqual({ kind: "summarize", covers: ["t5", "t6", "t7", "t8", "t9"], text: null });
    expect(["t6", "t7", "t8", "t9"].map((id) => a[id])).toEqual(Array(4).fill({ kind: "drop_pair" }));
    expect(a.t0).toEqual({ kind: "strip_media" });
    expect(["t1", "t2", "t3"].map((id) => a[id]!.kind)).toEqual(["truncate_result", "truncate_result", "truncate_result"]);
    expect(a.t4).toBeUndefined();
    expect(r.step!.pair_ids).toEqual(["t0", "t1", "t2", "t3", "t5", "t6", "t7", "t8", "t9"]);
    expect(r.ledger_additions.entries.find((e) => e.pair_id === "t5")!.action).toEqual(a.t5);
  });
  it("H is the stretch's tokens minus the summary (header and the 1,000-token bound); term ③ is the summariser's expected cost", () => {
    const v = session();
    const base = compact(ctx(v, { guarantee_level: "rewrite", summarizer: null }));
    const priced = compact(ctx(v, { guarantee_level: "rewrite", summarizer: { model: "m", max_summary_chars: 4_000, max_output_tokens: 1_024, input_per_mtok: 2, output_per_mtok: 10 } }));
    // Each pair: call `{"command":"make step-N"}` 26 bytes = 7 tokens, result 6,000 bytes = 1,500 tokens; the header
    // "[sluice: summary of 5 earlier tool calls; their full results were removed from this conversation]\n" is 99 bytes
    // escaped = 25 tokens.
    const stretch = 5 * (7 + 1_500); // what the summariser reads
    const facts = factsOf(v);
    const outsideStretch = ["t0", "t1", "t2", "t3"].reduce((n, id) => n + savedTokens(facts.pairs.find((p) => p.id === id)!, base.plan.actions[id]!), 0);
    // The host keeps its call: 5 results and 4 calls go, the block (25 + 1,000) comes.
    expect(base.step!.tokens_removed - outsideStretch).toBe(5 * 1_500 + 4 * 7 - 25 - 1_000);
    expect(base.step!.terms.request_cost).toBe(0);
    expect(priced.step!.terms.request_cost).toBeCloseTo((stretch * 2 + 1_000 * 10) / 1e6, 15);
    expect(priced.step!.terms.removed_tokens).toBe(base.step!.terms.removed_tokens);
  });
  it("a stretch of short results, which its summary would not shorten, is left as it is", () => {
    const m: MessageSpec[] = [{ role: "user", text: "go" }];
    for (let i = 0; i < 12; i++) {
      m.push({ role: "assistant", calls: [{ id: `s${i}`, tool: "Bash", input: { command: `echo ${i}` } }] });
      m.push({ role: "user", results: [{ id: `s${i}`, text: lines(100, `s${i}`) }] });
    }
    const v = makeView({ outside_tokens: 2_000, messages: m });
    const c = ctx(v, { guarantee_level: "rewrite", threshold_tokens: 0, min_reduction: 0 });
    // The stretch s0–s7 exists, but what goes — 8 results × 25 tokens and 7 calls × 5 (the host keeps its call) = 235 —
    // is less than what comes: the header's 19 tokens and the summary's bound, the 960 bytes it reads = 240 tokens.
    expect(pickStretch(c.view, eligiblePairs(c, new Set())).map((p) => p.pair.id)).toEqual(["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7"]);
    const r = compact(c);
    expect(Object.values(r.plan.actions).filter((a) => a.kind === "summarize" || a.kind === "drop_pair")).toEqual([]);
  });
  it("strict and placeholders: no summary, the same plan as before", () => {
    for (const level of ["strict", "placeholders"] as const) {
      const r = compact(ctx(session(), { guarantee_level: level }));
      expect(Object.values(r.plan.actions).some((x) => x.kind === "summarize")).toBe(false);
    }
  });
});

describe("auto at level rewrite on a corpus session (cc-cctrace-opus4, call 60: 57 pairs, 45,400 estimated tokens)", () => {
  it("summarises its first 20 pairs (the stretch's bound), hosted by the first; removes 21,530 tokens where strict removes 19,870", () => {
    const s = readCorpusSession("cc-cctrace-opus4");
    const v = s.viewAt(60);
    const c = { ...ctx(v, { guarantee_level: "rewrite" }), view: factsOf(v, {}, s.mentionsAt(60)), expected_remaining_calls: 20 };
    const r = compact(c);
    const hosts = Object.entries(r.plan.actions).filter(([, a]) => a.kind === "summarize");
    const covers = v.pairs.slice(0, 20).map((p) => p.id);
    expect(covers[0]).toBe("toolu_01UoMw6EsMnxNmC7Ng2kbHsm");
    expect(covers[19]).toBe("toolu_016JErYQbMGCvVKQYSQCT65R");
    expect(hosts).toEqual([["toolu_01UoMw6EsMnxNmC7Ng2kbHsm", { kind: "summarize", covers, text: null }]]);
    expect(covers.slice(1).every((id) => r.plan.actions[id]!.kind === "drop_pair")).toBe(true);
    expect([r.step!.tokens_removed, r.step!.pair_ids.length, r.step!.terms.request_cost]).toEqual([21_530, 26, 0]);
    expect(compact({ ...c, config: CORE_DEFAULTS }).step!.tokens_removed).toBe(19_870);
  });
});

describe("re-applying a summary", () => {
  const covers = ["t5", "t6", "t7", "t8", "t9"];
  const ledgerFor = (hashOf: (id: string) => string): Ledger => ({
    ...EMPTY_LEDGER,
    entries: Object.fromEntries(covers.map((id, i) => [ledgerKey(id, hashOf(id)), {
      pair_id: id, result_hash: hashOf(id), step: 1, first_seen_ms: 1,
      action: i === 0 ? { kind: "summarize" as const, covers, text: "Ran make step-5 … step-9." } : { kind: "drop_pair" as const },
    }])),
  });
  const guards = { preserve_recent_turns: 4, exclude_tools: [] };
  it("every covered pair removed: the summary stands, with its text", () => {
    const facts = factsOf(session());
    const hashOf = (id: string) => facts.pairs.find((p) => p.id === id)!.result_hash;
    expect(reapplyLedger(facts, ledgerFor(hashOf), guards).actions.t5).toEqual({ kind: "summarize", covers, text: "Ran make step-5 … step-9." });
  });
  it("a covered pair whose result changed stays: the host is removed instead of summarising it", () => {
    const facts = factsOf(session());
    const hashOf = (id: string) => (id === "t7" ? "changed" : facts.pairs.find((p) => p.id === id)!.result_hash);
    const re = reapplyLedger(facts, ledgerFor(hashOf), guards);
    expect(re.skipped).toEqual({ t7: "result_changed" });
    expect(re.actions).toEqual({ t5: { kind: "drop_pair" }, t6: { kind: "drop_pair" }, t8: { kind: "drop_pair" }, t9: { kind: "drop_pair" } });
  });
});
