/**
 * The savings report from the driver's runs (pure). Per session and in total, per strategy:
 * - input tokens sent = Σ (input + cache_read + cache_write); original = the same under `none`;
 * - input cost = the input side of what the emulator billed (uncached input + cache writes +
 *   cache reads at the model's prices, header x-emulator-input-cost-usd); "without" is `none`'s
 *   input cost, "with" is the strategy's plus its engine cost (net of cache-write premiums,
 *   which are inside the billed cost);
 * - savings % = (without − with) / without × 100;
 * - cache hit ratio = cache_read / (input + cache_read + cache_write);
 * - pairs removed, re-fetches, re-mentions, emulator rejections; added latency p50/p99 (nearest rank): the
 *   time spent in the strategy step, or — for a strategy run through the gateway over HTTP —
 *   each call's round trip minus the same call's direct round trip under `none` (`route` says
 *   which: the two are not comparable); round trip p50/p99 of the calls themselves.
 * - used after removal: the calls whose recorded answer used a project-specific token the
 *   strategy had removed (./used-after-removal.ts), and their share of the calls; and, for a
 *   strategy that names the rule behind each removal (Sluice), the figures per rule
 *   (./removal-rules.ts); and of those calls, the ones a restore would have answered (every
 *   token used was in a pair removed with a marker naming it: ./restore-answers.ts).
 * - what Sluice decided per call, counted from its `x-sluice-compaction` note: `step` (a step was
 *   taken), the skip reason (`under_threshold`, `no_candidates`, `server_managed`, …), or
 *   `no_tier` (tier=none: src/core/policy/select-tier.ts picked no tier: the session's first call);
 * - worst-case loss: the removed results' estimated tokens (each pair once) at the model's
 *   uncached input price, i.e. what re-sending all of them once would cost (an estimate: the
 *   replay does not bill re-fetches separately).
 * - step timing in hindsight: the steps taken against the same removals at the best calls, under
 *   a simple prefix-cache model (./step-timing-report.ts); null when not measured.
 * - held back (Sluice): the best cut it priced and declined, priced in hindsight as one step at
 *   that call, and the gate that refused it, when that step alone would have saved more than the
 *   whole run did (./held-back.ts); per session, and in the total the sessions by gate.
 * - the savings ledger (in-process Sluice): the input cost without and with Sluice as its own
 *   session ledger priced them from the emulator's usage, beside what the emulator billed.
 * - the summaries (in-process Sluice at level rewrite): written, failed, and their cost.
 * Per session also the prices the model was billed at (./session-prices.ts).
 * Rounding: dollars to 6 decimals, percentages to 2, ratios to 4, ms to 3 — after summing.
 * Also: the cumulative input cost per call for each strategy (sessions concatenated) for the chart.
 */
import { assumedPrices, type AssumedPrices } from "./session-prices";
import { ruleStatsOf, sumRuleStats, type RuleStats } from "./removal-rules";
import { restoreAnswers } from "./restore-answers";
import { stepTimingOf, sumStepTimings, type StepTiming } from "./step-timing-report";
import { bestDeclinedStep, type HeldBack } from "./held-back";
import type { CacheReport } from "../../src/observers/cache-diagnostics";
import type { CallRecord, Provider, SessionRun, SummaryFigures } from "./types";

/** Numbers of one strategy over one session (or all). */
export interface StrategyMetrics {
  calls: number;
  input_tokens_sent: number;
  input_tokens_original: number;
  /** (sent − original) / original × 100; negative = fewer tokens. */
  input_tokens_change_pct: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  output_tokens: number;
  input_cost_without_usd: number;
  input_cost_with_usd: number;
  engine_cost_usd: number;
  savings_usd: number;
  savings_pct: number;
  cache_hit_ratio: number;
  pairs_removed: number;
  refetches: number;
  /** Removed pairs whose path or command the agent's prose names again later (./find-removed.ts). */
  rementions: number;
  rejections: number;
  /** Calls whose recorded answer used a project-specific token the strategy had removed from the request (./used-after-removal.ts). */
  used_after_removal_calls: number;
  /** The same as a percentage of `calls`. */
  used_after_removal_pct: number;
  /** Of those calls, the ones a restore would have answered: every token used was held by a pair removed with a marker naming it (./restore-answers.ts). */
  used_after_removal_restorable_calls: number;
  /** Per rule or tier behind the removals (./removal-rules.ts); null for a strategy that does not name them. */
  by_rule: Record<string, RuleStats> | null;
  /** Worst-case loss, USD: every removed result re-sent once as uncached input (estimate, see header). */
  worst_case_loss_usd: number;
  /** Per-call decisions read from Sluice's note: `step` or the skip reason → calls. Empty for strategies without a note. */
  decisions: Record<string, number>;
  /** How the added latency was measured: `direct` = time in the strategy's transform, in process; `gateway` = round trip through the gateway minus the direct one, end to end. */
  route: SessionRun["route"];
  added_latency_p50_ms: number;
  added_latency_p99_ms: number;
  /** Round trip of the calls (client → emulator, through the gateway when routed so), ms. */
  round_trip_p50_ms: number;
  round_trip_p99_ms: number;
  /** Steps taken vs the same removals at the best calls in hindsight (./step-timing-report.ts), USD; null when not measured. */
  step_timing: StepTiming | null;
  /**
   * What Sluice's own savings ledger priced (in-process runs: src/observers/savings-ledger.ts, fed the
   * emulator's usage), USD of input, and its saving % — to compare with `savings_pct`, what the
   * emulator billed. Null for strategies without a ledger.
   */
  ledger: { without_usd: number; with_usd: number; saving_pct: number; removals: number; removals_mentioned: number; removals_deterministic: number } | null;
  /** Level rewrite: the summaries written and failed, and the written ones' USD (inside `engine_cost_usd` too). Null when no call wrote one. */
  summaries: SummaryFigures | null;
  /**
   * Per session: the best step the strategy priced and declined (Sluice's step output), in
   * hindsight, with the gate that refused it, when that step alone would have saved more than
   * the run did (./held-back.ts); null otherwise, and in the total.
   */
  held_back: HeldBack | null;
  /** Sessions with a `held_back` step, by gate (a session's own: one entry or none). */
  held_back_by: Record<string, number>;
}

export interface SessionReport {
  id: string;
  provider: Provider;
  model: string;
  calls: number;
  /** Prices the emulator billed the session's model at. */
  prices: AssumedPrices;
  strategies: Record<string, StrategyMetrics>;
}

export interface ReplayReport {
  /** Strategy names in run order (`none` first). */
  strategies: string[];
  sessions: SessionReport[];
  total: Record<string, StrategyMetrics>;
  /** Per strategy: cumulative input cost (USD, incl. engine cost) after each call, sessions concatenated. */
  cumulative_cost_usd: Record<string, number[]>;
  /** Call count of each session in `sessions` order (chart boundaries). */
  session_calls: number[];
  warnings: string[];
  /** The in-process `sluice` run's cache-breaker report per session id (src/observers/cache-diagnostics.ts); absent without that run. */
  cache_breaks?: Record<string, CacheReport>;
}

const round = (x: number, digits: number): number => {
  const f = 10 ** digits;
  const r = Math.round(x * f) / f;
  return Object.is(r, -0) ? 0 : r;
};

/** Nearest-rank percentile (p in 0..100) of `values`; 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Input-side cost of one call in USD. */
function inputCost(call: CallRecord): number {
  return call.input_cost_usd;
}

interface Acc {
  calls: CallRecord[];
  /** Added latency per call, ms. */
  added: number[];
  pairs_removed: number;
  refetches: number;
  rementions: number;
  /** Worst-case loss so far, USD (unrounded). */
  loss_usd: number;
  /** Step timing of each run summed here (unrounded). */
  timings: (StepTiming | null)[];
  /** Per-rule figures of each run summed here. */
  rules: (Record<string, RuleStats> | null)[];
  /** The held-back step of each run summed here (null: none). */
  held: (HeldBack | null)[];
  route: SessionRun["route"];
}

/** What one call's Sluice note says was decided: "step", the skip reason, "no_tier", or null without a note. */
export function decisionOf(note: string | undefined): string | null {
  if (note === undefined) return null;
  if (/(?:^|; )step=\d+/.test(note)) return "step";
  const why = /(?:^|; )(?:skipped|reason)=([a-z_]+)/.exec(note);
  if (why) return why[1]!;
  return /(?:^|; )tier=none(?:;|$)/.test(note) ? "no_tier" : "no_step";
}

function roundTiming(t: StepTiming | null): StepTiming | null {
  return t === null ? null : { ...t, none_usd: round(t.none_usd, 6), taken_usd: round(t.taken_usd, 6), best_usd: round(t.best_usd, 6) };
}

function metrics(acc: Acc, base: Acc): StrategyMetrics {
  const sum = (a: Acc, f: (c: CallRecord, i: number) => number) => a.calls.reduce((n, c, i) => n + f(c, i), 0);
  const sentOf = (a: Acc) => sum(a, (c) => c.usage.input + c.usage.cache_read + c.usage.cache_write);
  const sent = sentOf(acc);
  const original = sentOf(base);
  const engine = sum(acc, (c) => c.engine_cost_usd);
  const without = sum(base, inputCost);
  const withCost = sum(acc, inputCost) + engine;
  const cacheRead = sum(acc, (c) => c.usage.cache_read);
  const trips = acc.calls.map((c) => c.latency_ms);
  const uar = acc.calls.filter((c) => (c.used_after_removal?.length ?? 0) > 0).length;
  const restorable = acc.calls.filter((c) => restoreAnswers(c.used_after_removal ?? [], c.uar_restorable ?? [])).length;
  const decisions: Record<string, number> = {};
  for (const c of acc.calls) {
    const d = decisionOf(c.note);
    if (d !== null) decisions[d] = (decisions[d] ?? 0) + 1;
  }
  return {
    calls: acc.calls.length,
    input_tokens_sent: sent,
    input_tokens_original: original,
    input_tokens_change_pct: original === 0 ? 0 : round(((sent - original) / original) * 100, 2),
    cache_read_tokens: cacheRead,
    cache_write_tokens: sum(acc, (c) => c.usage.cache_write),
    output_tokens: sum(acc, (c) => c.usage.output),
    input_cost_without_usd: round(without, 6),
    input_cost_with_usd: round(withCost, 6),
    engine_cost_usd: round(engine, 6),
    savings_usd: round(without - withCost, 6),
    savings_pct: without === 0 ? 0 : round(((without - withCost) / without) * 100, 2),
    cache_hit_ratio: sent === 0 ? 0 : round(cacheRead / sent, 4),
    pairs_removed: acc.pairs_removed,
    refetches: acc.refetches,
    rementions: acc.rementions,
    rejections: acc.calls.filter((c) => c.rejected !== null).length,
    used_after_removal_calls: uar,
    used_after_removal_pct: acc.calls.length === 0 ? 0 : round((uar / acc.calls.length) * 100, 2),
    used_after_removal_restorable_calls: restorable,
    by_rule: sumRuleStats(acc.rules),
    worst_case_loss_usd: round(acc.loss_usd, 6),
    decisions,
    route: acc.route,
    added_latency_p50_ms: round(percentile(acc.added, 50), 3),
    added_latency_p99_ms: round(percentile(acc.added, 99), 3),
    round_trip_p50_ms: round(percentile(trips, 50), 3),
    round_trip_p99_ms: round(percentile(trips, 99), 3),
    step_timing: roundTiming(sumStepTimings(acc.timings)),
    ledger: ledgerOf(acc.calls),
    summaries: summariesOf(acc.calls),
    ...heldBackOf(acc.held),
  };
}

/** The held-back figures of `held` (the runs summed in; each already checked against its run's saving: beatenBy): one run's step, and the sessions by gate. */
function heldBackOf(held: readonly (HeldBack | null)[]): Pick<StrategyMetrics, "held_back" | "held_back_by"> {
  const held_back_by: Record<string, number> = {};
  for (const h of held) if (h !== null) held_back_by[h.gate] = (held_back_by[h.gate] ?? 0) + 1;
  const one = held.length === 1 ? held[0]! : null;
  return { held_back: one === null ? null : { ...one, saved_pct: round(one.saved_pct, 2), saved_usd: round(one.saved_usd, 6) }, held_back_by };
}

/**
 * The saving in percent of the cost without compaction, from the dollar figures (not from the
 * rounded `savings_pct`, which rounded again would disagree with the operator table's figure).
 */
export function savedPercent(m: Pick<StrategyMetrics, "savings_usd" | "input_cost_without_usd">): number {
  return m.input_cost_without_usd === 0 ? 0 : (m.savings_usd / m.input_cost_without_usd) * 100;
}

/** `h` when its step beats the run's billed saving (% of `base`'s input cost), else null: the total counts only sessions a gate held back. */
function beatenBy(h: HeldBack | null, calls: readonly CallRecord[], base: readonly CallRecord[]): HeldBack | null {
  if (h === null) return null;
  const without = base.reduce((n, c) => n + inputCost(c), 0);
  const withCost = calls.reduce((n, c) => n + inputCost(c) + c.engine_cost_usd, 0);
  return without > 0 && h.saved_pct > ((without - withCost) / without) * 100 ? h : null;
}

/** The summaries' sums over `calls` (null when no call carries summary figures). */
function summariesOf(calls: readonly CallRecord[]): SummaryFigures | null {
  if (!calls.some((c) => c.summaries !== undefined)) return null;
  const n = (f: (x: SummaryFigures) => number) => calls.reduce((a, c) => a + (c.summaries ? f(c.summaries) : 0), 0);
  return { written: n((x) => x.written), failed: n((x) => x.failed), cost_usd: round(n((x) => x.cost_usd), 6) };
}

/** The ledger's sums over `calls` (null when no call carries ledger figures). */
function ledgerOf(calls: readonly CallRecord[]): StrategyMetrics["ledger"] {
  if (!calls.some((c) => c.ledger !== undefined)) return null;
  const without = calls.reduce((n, c) => n + (c.ledger?.without_usd ?? 0), 0);
  const withCost = calls.reduce((n, c) => n + (c.ledger?.with_usd ?? 0), 0);
  const n = (f: (l: NonNullable<CallRecord["ledger"]>) => number) => calls.reduce((a, c) => a + (c.ledger ? f(c.ledger) : 0), 0);
  return {
    without_usd: round(without, 6), with_usd: round(withCost, 6), saving_pct: without === 0 ? 0 : round(((without - withCost) / without) * 100, 2),
    removals: n((l) => l.removals), removals_mentioned: n((l) => l.removals_mentioned), removals_deterministic: n((l) => l.removals_deterministic),
  };
}

/** Builds the report. `runs` must hold a `none` run for every session (the baseline). */
export function summarizeReport(runs: readonly SessionRun[]): ReplayReport {
  const strategies = [...new Set(runs.map((r) => r.strategy))];
  if (!strategies.includes("none")) throw new Error("report: runs hold no `none` strategy (the baseline every saving is measured against)");
  const sessionIds = [...new Set(runs.map((r) => r.session_id))];
  const warnings: string[] = [];
  const accOf = (r: SessionRun, base: SessionRun, prices: AssumedPrices): Acc => ({
    calls: r.calls,
    added: r.route === "gateway" ? r.calls.map((c, i) => c.latency_ms - (base.calls[i]?.latency_ms ?? 0)) : r.calls.map((c) => c.transform_ms),
    pairs_removed: r.pairs_removed,
    refetches: r.refetches,
    rementions: r.rementions,
    loss_usd: (r.removed_result_tokens * prices.input_per_mtok) / 1e6,
    timings: [stepTimingOf(r.calls, prices)],
    rules: [ruleStatsOf(r.calls)],
    held: [beatenBy(bestDeclinedStep(r.calls, base.calls, prices, decisionOf), r.calls, base.calls)],
    route: r.route,
  });
  const routeOf = (s: string) => runs.find((r) => r.strategy === s)!.route;
  const totals = new Map<string, Acc>(strategies.map((s) => [s, { calls: [], added: [], pairs_removed: 0, refetches: 0, rementions: 0, loss_usd: 0, timings: [], rules: [], held: [], route: routeOf(s) }]));
  const sessions: SessionReport[] = sessionIds.map((id) => {
    const own = runs.filter((r) => r.session_id === id);
    const base = own.find((r) => r.strategy === "none");
    if (base === undefined) throw new Error(`report: session ${id} has no \`none\` run`);
    const prices = assumedPrices(base.provider, base.model);
    const baseAcc = accOf(base, base, prices);
    const out: Record<string, StrategyMetrics> = {};
    for (const r of own) {
      const acc = accOf(r, base, prices);
      out[r.strategy] = metrics(acc, baseAcc);
      const t = totals.get(r.strategy)!;
      t.calls.push(...acc.calls);
      t.added.push(...acc.added);
      t.pairs_removed += acc.pairs_removed;
      t.refetches += acc.refetches;
      t.rementions += acc.rementions;
      t.loss_usd += acc.loss_usd;
      t.timings.push(...acc.timings);
      t.rules.push(...acc.rules);
      t.held.push(...acc.held);
    }
    return { id, provider: base.provider, model: base.model, calls: base.calls.length, prices, strategies: out };
  });
  const baseTotal = totals.get("none")!;
  const total: Record<string, StrategyMetrics> = {};
  const cumulative: Record<string, number[]> = {};
  for (const s of strategies) {
    const acc = totals.get(s)!;
    total[s] = metrics(acc, baseTotal);
    let running = 0;
    cumulative[s] = acc.calls.map((c) => round((running += inputCost(c) + c.engine_cost_usd), 6));
  }
  return { strategies, sessions, total, cumulative_cost_usd: cumulative, session_calls: sessions.map((s) => s.calls), warnings };
}
