import { describe, expect, it } from "vitest";
import { MODEL_PRICES } from "../../src/core/cost/prices";
import { buildTierMap } from "../../src/core/memory/build-tier-map";
import { CORE_DEFAULTS, compact } from "../../src/core/policy/compact";
import { EMPTY_LEDGER, mergeLedger, reapplyLedger, type Ledger } from "../../src/core/policy/ledger";
import { selectTier } from "../../src/core/policy/select-tier";
import { stepOutputOf } from "../../src/core/policy/step-output";
import { tierCostEstimate } from "../../src/core/policy/take-step";
import { TIER_COST_WEIGHT, type BudgetPressure, type TierContext } from "../../src/core/policy/types";
import { recordTierEvent } from "../../src/core/trace/record-tier-event";
import type { ConversationView } from "../../src/core/view/types";
import { hashText } from "../../src/core/hash";
import { proseMentionKeys } from "../../src/core/text/mention-keys";
import { factsOf, lines, makeView, type MessageSpec } from "../support/make-view";

const P = (o: Partial<BudgetPressure> = {}): BudgetPressure => ({ turn_count: 5, context_pct_used: 0.3, idle_seconds: 0, session_complete: false, ...o });

/** `n` turns, each one Bash build (not read-only) with a distinct 20,000-byte log; `media` on the first pair. */
function readSession(n: number, opts: { media?: number } = {}): ConversationView {
  const m: MessageSpec[] = [{ role: "user", text: "refactor" }];
  for (let i = 0; i < n; i++) {
    m.push({ role: "assistant", calls: [{ id: `t${i}`, tool: "Bash", input: { command: `make build-${i}` } }] });
    m.push({ role: "user", results: [{ id: `t${i}`, text: lines(20_000, `r${String.fromCharCode(97 + i)}`), media: i === 0 ? opts.media : undefined }] });
  }
  return makeView({ outside_tokens: 1_000, messages: m });
}
/** The context of `view`'s facts (for the head_chars of `o.config`, else the default). */
const ctx = (view: ConversationView, o: Partial<TierContext> = {}): TierContext => ({
  view: factsOf(view, { head_chars: (o.config ?? CORE_DEFAULTS).head_chars }), ledger: EMPTY_LEDGER, pressure: P({ context_pct_used: view.est_tokens / 200_000 }), config: CORE_DEFAULTS, prices: MODEL_PRICES,
  now_ms: 1_000_000, expected_remaining_calls: 50, correlation_id: "req-1", ...o,
});

/**
 * A context where a paying step is due at once: the provider cache is cold (idle 300 s ≥ the
 * model's 300 s TTL) while the tier stays micro (idle_seconds raised to 3,600), so the timing
 * rule (src/core/policy/step-timing.ts) does not wait.
 */
const due = (view: ConversationView): Partial<TierContext> => ({
  pressure: P({ context_pct_used: view.est_tokens / 200_000, idle_seconds: 300 }),
  config: { ...CORE_DEFAULTS, idle_seconds: 3_600 },
});

describe("reapplyLedger", () => {
  const guards = { preserve_recent_turns: 2, exclude_tools: [] };
  it("an empty ledger: nothing to apply, nothing skipped (the walk is skipped)", () => {
    expect(reapplyLedger(factsOf(readSession(6)), EMPTY_LEDGER, guards)).toEqual({ actions: {}, skipped: {} });
  });
  it("one entry: its pair's action; an entry whose result changed is skipped; recent pairs are protected", () => {
    const view = readSession(6);
    const hashOf = (id: string) => view.pairs.find((p) => p.id === id)!.result_hash;
    const entry = (id: string, hash: string) => ({ pair_id: id, result_hash: hash, action: { kind: "drop_pair" as const }, step: 1, first_seen_ms: 1 });
    const ledger: Ledger = { ...EMPTY_LEDGER, entries: { [`t0#${hashOf("t0")}`]: entry("t0", hashOf("t0")), "t1#other": entry("t1", "other"), [`t5#${hashOf("t5")}`]: entry("t5", hashOf("t5")) } };
    expect(reapplyLedger(factsOf(view), ledger, guards)).toEqual({ actions: { t0: { kind: "drop_pair" } }, skipped: { t1: "result_changed", t5: "recent" } });
  });
});

describe("selectTier", () => {
  it("priority session_memory → auto → time_based → micro → none", () => {
    const c = CORE_DEFAULTS;
    expect(selectTier(P({ session_complete: true, context_pct_used: 0.9, idle_seconds: 900 }), c)).toBe("session_memory");
    expect(selectTier(P({ context_pct_used: 0.7, idle_seconds: 900 }), c)).toBe("auto");
    expect(selectTier(P({ idle_seconds: 300 }), c)).toBe("time_based");
    expect(selectTier(P({ idle_seconds: 299 }), c)).toBe("micro");
    expect(selectTier(P({ turn_count: 1 }), c)).toBe("none");
    // Mild pressure is turn ≥ 2 alone: threshold_tokens and the cost model decide whether a small request pays.
    expect(selectTier(P({ context_pct_used: 0.001 }), c)).toBe("micro");
  });
  it("weights and cost_estimate", () => {
    expect(TIER_COST_WEIGHT).toEqual({ micro: 0.05, time_based: 0.1, auto: 0.5, session_memory: 1, none: 0 });
    // 40,000 tokens saved / 1000 × $0.003 × 0.5 = $0.06
    expect(tierCostEstimate(40_000, 0.003, "auto")).toBeCloseTo(0.06, 12);
    expect(tierCostEstimate(0, 0.003, "auto")).toBe(0);
  });
});

describe("compact — steps and the sticky ledger", () => {
  it("under threshold_tokens: a none result, unchanged context, zero cost, first-seen recorded", () => {
    const view = readSession(2);
    const r = compact(ctx(view, { config: { ...CORE_DEFAULTS, threshold_tokens: 20_000 } }));
    expect(r).toMatchObject({ tier: "none", tokens_before: view.est_tokens, tokens_after: view.est_tokens, cost_estimate: 0, plan: { actions: {} }, step: null, skipped: { tier: "micro", reason: "under_threshold" } });
    expect(r.ledger_additions.first_seen).toEqual({ t0: 1_000_000, t1: 1_000_000 });
  });
  it("micro step 1 truncates the 8 old results at a line boundary; later calls re-apply it; step 2 only when it pays", () => {
    const v12 = readSession(12);
    const r1 = compact(ctx(v12, due(v12)));
    // 8 eligible pairs (result turn ≤ 12 − 4); head = 9 lines × 47 B = 423 + line 10 (48 B) = 471 bytes.
    const truncated = Object.fromEntries([0, 1, 2, 3, 4, 5, 6, 7].map((i) => [`t${i}`, { kind: "truncate_result", head_bytes: 471 }]));
    expect(r1.plan.actions).toEqual(truncated);
    expect(r1.tier).toBe("micro");
    // per pair: 5,000 − ⌈471/4⌉ = 4,882 tokens; × 8 = 39,056.
    expect(r1.tokens_before - r1.tokens_after).toBe(39_056);
    expect(r1.cost_estimate).toBeCloseTo((39_056 / 1000) * 0.003 * 0.05, 12);
    expect(r1.step).toMatchObject({ step: 1, boundary: 17, tokens_removed: 39_056 });
    expect(r1.ledger_additions.entries.map((e) => [e.pair_id, e.step])).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map((i) => [`t${i}`, 1]));
    const ledger: Ledger = mergeLedger(EMPTY_LEDGER, r1.ledger_additions);

    // Next call (one more turn), few remaining calls: t8 becomes eligible but does not pay.
    const v13 = readSession(13);
    const r2 = compact(ctx(v13, { ledger, expected_remaining_calls: 8, now_ms: 1_060_000 }));
    expect(r2.plan.actions).toEqual(truncated);
    expect(r2).toMatchObject({ tier: "none", cost_estimate: 0, step: null, skipped: { tier: "micro", reason: "not_positive" } });
    expect(r2.tokens_before).toBe(v13.est_tokens - 39_056);
    expect(r2.ledger_additions).toEqual({ entries: [], first_seen: { t12: 1_060_000 }, step: null });
    expect([stepOutputOf(r2).new_pair_ids, stepOutputOf(r2).new_pair_rules]).toEqual([[], undefined]);

    // Same call with a long expected future: it pays, but warm with t8 just old enough (forgone $0) the step waits…
    const warm3 = compact(ctx(v13, { ledger, expected_remaining_calls: 200, avg_request_tokens: 10_000 }));
    expect(warm3).toMatchObject({ step: null, skipped: { tier: "micro", reason: "gathering" } });
    // …and cold, step 2 adds t8 only (distortion 0.03 × (1 − 0.8²) × 200 × 10,000 × 3 / 1e6 = $0.0648 < future $0.29).
    const r3 = compact(ctx(v13, { ...due(v13), ledger, expected_remaining_calls: 200, avg_request_tokens: 10_000 }));
    expect(r3.step).toMatchObject({ step: 2, pair_ids: ["t8"], tokens_removed: 4_882 });
    expect(r3.plan.actions).toEqual({ ...truncated, t8: { kind: "truncate_result", head_bytes: 471 } });
  });
  it("warm cache: the paying step waits until its pairs have forgone savings worth its cache write, then takes them all", () => {
    // One 5,000-token result becomes old per call. At 12 and 13 turns the pairs' forgone cache reads
    // (4,882 tokens × Σ ages 28, then 36, × $0.30/10^6 = $0.041, $0.053) are under the write
    // (≈ 16,000 rewritten tokens × $3.45/10^6 ≈ $0.056); at 14 turns (Σ ages 45: $0.066) it steps.
    const decide = (n: number) => compact(ctx(readSession(n)));
    expect(decide(12)).toMatchObject({ step: null, skipped: { reason: "gathering" } });
    expect(decide(13)).toMatchObject({ step: null, skipped: { reason: "gathering" } });
    expect(decide(14).step?.pair_ids).toEqual(["t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9"]);
  });
  it("a step after a rolled-back one is numbered after the highest step kept, never reusing a kept step's number", () => {
    const v = readSession(12);
    // The ledger after steps 1 and 2 with step 1 rolled back: only step 2 (t0) is left.
    const r1 = compact(ctx(v, due(v)));
    const kept: Ledger = { entries: {}, first_seen: r1.ledger_additions.first_seen, steps: [{ step: 2, tier: "micro", at_ms: 1_000_000, pair_count: 0, tokens_removed: 0, net_benefit_usd: 0 }] };
    const r = compact(ctx(v, { ...due(v), ledger: kept }));
    expect([r.step?.step, r.ledger_additions.step?.step, [...new Set(r.ledger_additions.entries.map((e) => e.step))]]).toEqual([3, 3, [3]]);
  });
  it("a ledger entry whose result changed is not re-applied (warning)", () => {
    const v = readSession(12);
    const r1 = compact(ctx(v, due(v)));
    const ledger = mergeLedger(EMPTY_LEDGER, r1.ledger_additions);
    const changed = { ...v, pairs: v.pairs.map((p) => (p.id === "t0" ? { ...p, result_hash: "0000000000000000" } : p)) };
    const r2 = compact(ctx(changed, { ledger, expected_remaining_calls: 8 }));
    expect(r2.plan.actions.t0).toBeUndefined();
    expect(r2.warnings).toContain("ledger: t0 not re-applied (result_changed)");
  });
  it("a rewound history: ledger entries whose pairs are back in the recent turns, or whose tool is now excluded, are not re-applied", () => {
    const r1 = compact(ctx(readSession(12), due(readSession(12))));
    const ledger = mergeLedger(EMPTY_LEDGER, r1.ledger_additions); // t0…t7 truncated
    // The same session sends its history cut back to 3 turns: t0–t2 are all recent again (preserve_recent_turns 4).
    const rewound = compact(ctx(readSession(3), { ledger, expected_remaining_calls: 8 }));
    expect(rewound.plan.actions).toEqual({});
    expect(rewound.warnings.filter((w) => w.startsWith("ledger:"))).toEqual(["ledger: t0 not re-applied (recent)", "ledger: t1 not re-applied (recent)", "ledger: t2 not re-applied (recent)"]);
    // Cut back to 6 turns: t0 and t1 are old (turns 0, 1 ≤ 6 − 4) and stay edited; t2…t5 are recent.
    const six = compact(ctx(readSession(6), { ledger, expected_remaining_calls: 8 }));
    expect(Object.keys(six.plan.actions)).toEqual(["t0", "t1"]);
    // Bash excluded after the step: nothing of it is re-applied.
    const excluded = compact(ctx(readSession(12), { ledger, expected_remaining_calls: 8, config: { ...CORE_DEFAULTS, exclude_tools: ["Bash"] } }));
    expect([excluded.plan.actions, excluded.warnings.filter((w) => w.includes("excluded_tool")).length]).toEqual([{}, 8]);
  });
  it("server-managed conversations are never edited", () => {
    const v = { ...readSession(12), server_managed: "previous_response_id" };
    expect(compact(ctx(v))).toMatchObject({ tier: "none", plan: { actions: {} }, skipped: { reason: "server_managed" } });
  });
});

describe("tiers", () => {
  /** An explicit 1 h age cutoff (time_based_age_seconds). */
  const hourCutoff = { ...CORE_DEFAULTS, time_based_age_seconds: 3_600 };
  it("time_based with time_based_age_seconds 3,600 drops pairs first seen ≥ 1 h ago whole; cache cold so the write is free", () => {
    const v = readSession(12);
    const first_seen: Record<string, number> = {};
    v.pairs.forEach((p, i) => (first_seen[p.id] = i < 3 ? 0 : 3_000_000));
    const r = compact(ctx(v, { ledger: { ...EMPTY_LEDGER, first_seen }, now_ms: 3_600_000, pressure: P({ idle_seconds: 400, context_pct_used: 0.3 }), config: hourCutoff }));
    expect(r.tier).toBe("time_based");
    expect(r.step!.benefit.cache_miss).toBe(0);
    expect([r.plan.actions.t0, r.plan.actions.t2, r.plan.actions.t3]).toEqual([{ kind: "drop_pair" }, { kind: "drop_pair" }, { kind: "truncate_result", head_bytes: 471 }]);
  });
  it("time_based keeps an old pair a later assistant message names (mentioned_later): collapsed, not dropped", () => {
    const v = readSession(12);
    const first_seen: Record<string, number> = {};
    v.pairs.forEach((p, i) => (first_seen[p.id] = i < 3 ? 0 : 3_000_000));
    // The assistant message after t1's result (message 5, which calls t2) names t1's command in its prose.
    const mentions: string[][] = v.messages.map((m) => (m.index === 5 ? proseMentionKeys("`make build-1` failed twice before") : []));
    const r = compact({ ...ctx(v, { ledger: { ...EMPTY_LEDGER, first_seen }, now_ms: 3_600_000, pressure: P({ idle_seconds: 400, context_pct_used: 0.3 }), config: hourCutoff }), view: factsOf(v, {}, mentions) });
    expect(r.tier).toBe("time_based");
    expect([r.plan.actions.t0, r.plan.actions.t1, r.plan.actions.t2]).toEqual([{ kind: "drop_pair" }, { kind: "truncate_result", head_bytes: 471 }, { kind: "drop_pair" }]);
  });
  // A 6-minute idle: the gap began at 9,640,000 ms (now 10,000,000 ms − 360 s).
  const gapStart = 9_640_000;
  /** t0–t5 first seen when the gap began (the last request before it), t6 1 ms later, t7 never (new in this request). */
  const seenBeforeGap = (v: ConversationView): Record<string, number> => {
    const first_seen: Record<string, number> = {};
    v.pairs.forEach((p, i) => { if (i < 6) first_seen[p.id] = i < 3 ? 9_000_000 : gapStart; else if (i === 6) first_seen[p.id] = gapStart + 1; });
    return first_seen;
  };
  const idleSix = (v: ConversationView, config = CORE_DEFAULTS, view = factsOf(v)) =>
    compact({ ...ctx(v, { ledger: { ...EMPTY_LEDGER, first_seen: seenBeforeGap(v) }, now_ms: 10_000_000, pressure: P({ idle_seconds: 360, context_pct_used: 0.3 }), config }), view });
  const actionsOf = (r: ReturnType<typeof compact>, ids: string[]) => ids.map((id) => r.plan.actions[id]);
  const ids = ["t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7"];
  const drop = { kind: "drop_pair" };
  const cut = { kind: "truncate_result", head_bytes: 471 };
  it("time_based by default (age cutoff = the idle gap): after a 6-minute idle, pairs first seen before the gap are dropped whole, younger ones collapsed", () => {
    const r = idleSix(readSession(12));
    expect(r.tier).toBe("time_based");
    expect(actionsOf(r, ids)).toEqual([drop, drop, drop, drop, drop, drop, cut, cut]);
    expect(r.step!.benefit.cache_miss).toBe(0);
    // The step output names what decided each new removal: the idle tier's age for the drops, the collapse of a long result for the cuts.
    expect(stepOutputOf(r).new_pair_rules).toEqual(ids.map((pair_id, i) => ({ pair_id, rule: i < 6 ? "age" : "long_result" })));
  });
  it("time_based with an explicit time_based_age_seconds: the cutoff follows it (1,000 s: only pairs first seen ≤ 9,000,000 ms are dropped)", () => {
    const r = idleSix(readSession(12), { ...CORE_DEFAULTS, time_based_age_seconds: 1_000 });
    expect(actionsOf(r, ids)).toEqual([drop, drop, drop, cut, cut, cut, cut, cut]);
  });
  it("time_based by default keeps the guards: a pair a later assistant message names is collapsed, not dropped", () => {
    const v = readSession(12);
    const mentions: string[][] = v.messages.map((m) => (m.index === 9 ? proseMentionKeys("`make build-3` failed twice before") : []));
    const r = idleSix(v, CORE_DEFAULTS, factsOf(v, {}, mentions));
    expect(actionsOf(r, ids)).toEqual([drop, drop, drop, cut, drop, drop, cut, cut]);
  });
  it("the tier map's archival tier: one stretch of counts per 20 turns before the working turns", () => {
    const map = buildTierMap(factsOf(readSession(45)), 4);
    expect(map.working.from_turn).toBe(42);
    expect(map.archival.map((a) => [a.from_turn, a.to_turn, a.tool_calls, a.tool_counts])).toEqual([[0, 19, 20, { Bash: 20 }], [20, 39, 20, { Bash: 20 }], [40, 41, 2, { Bash: 2 }]]);
  });
  it("auto strips media from old results", () => {
    const v = readSession(12, { media: 2 });
    const r = compact(ctx(v, { pressure: P({ context_pct_used: 0.75 }) }));
    expect(r.tier).toBe("auto");
    expect(r.plan.actions.t0).toEqual({ kind: "strip_media" });
    expect(r.cost_estimate).toBeCloseTo(((r.tokens_before - r.tokens_after) / 1000) * 0.003 * 0.5, 12);
  });
  it("session_memory at strict: memory map, no edit, no cost", () => {
    const v = makeView({ messages: [
      { role: "user", text: "go" },
      { role: "assistant", calls: [{ id: "a", tool: "Bash", input: { command: "ls missing" } }] },
      { role: "user", results: [{ id: "a", text: "Exit code 1\nls: missing: No such file", is_error: true }] },
      { role: "assistant", calls: [{ id: "b", tool: "Read", input: { file_path: "/r/x.ts" } }] },
      { role: "user", results: [{ id: "b", text: "code" }] },
      { role: "assistant", text: "done" },
    ] });
    const r = compact(ctx(v, { pressure: P({ session_complete: true }) }));
    expect(r).toMatchObject({ tier: "session_memory", plan: { actions: {} }, cost_estimate: 0 });
    // Paths and commands are keyed by their hashes: the step facts carry no call input text.
    expect(Object.keys(r.memory!.reference)).toEqual([`command:${hashText("sh:ls missing")}`, "error:Exit code 1", `path:${hashText("/r/x.ts")}`, "tool:Bash", "tool:Read"].sort());
    expect(r.memory).toEqual(buildTierMap(factsOf(v), 4));
    expect(buildTierMap(factsOf(v), 1).archival).toEqual([{ from_turn: 0, to_turn: 2, from_message: 0, to_message: 5, tool_calls: 2, tool_counts: { Bash: 1, Read: 1 }, errors: 1, est_tokens: v.messages.reduce((s, m) => s + m.est_tokens, 0), pair_ids: ["a", "b"] }]);
  });
});

describe("recordTierEvent", () => {
  it("appends one JSON line with tier, tokens, cost and correlation id", () => {
    const out: string[] = [];
    const r = compact(ctx(readSession(12), due(readSession(12))));
    recordTierEvent({ append: (l) => out.push(l) }, r, "sess-9");
    expect(out).toHaveLength(1);
    expect(JSON.parse(out[0]!)).toEqual({ event: "sluice_tier_event", session_id: "sess-9", tier: "micro", tokens_before: r.tokens_before, tokens_after: r.tokens_before - 39_056, cost_estimate: r.cost_estimate, correlation_id: "req-1", step: 1, pairs_edited: 8, skipped: null });
    expect(out[0]!.includes("\n")).toBe(false);
  });
});
