/**
 * What the session records of a report (shell over its state; DESIGN §6): the outcome the
 * gateway decided and the provider's usage of one call, each possibly absent.
 *
 * 1. **Native settlement** (`settleNative`, pure): a native request's saving stands only once the
 *    provider reports its edit applied (DESIGN §2 "Two mechanisms, one decision"). A
 *    `clear_tool_uses_20250919` entry with cleared_tool_uses > 0 in the answer's
 *    `context_management.applied_edits`: the saving stands and the provider's counts are added
 *    (`native_cleared_tool_uses`, `native_cleared_input_tokens`; `native_count_mismatch` when it
 *    cleared another number than asked). A request that carried Sluice's `compact_20260112` edit
 *    settles against the answer's compaction iteration (`native_compactions` and the summary's
 *    tokens). Anything else: the outcome becomes `native_not_applied` and nothing counts as saved;
 *    the ledger stays, so the same edit goes with the next request.
 * 2. **Outcome**: rolls back a step that was not forwarded, keeps the summaries the gateway wrote
 *    (./compaction-ledger.ts), counts the outcome, adds the token figures and their USD value,
 *    and appends a row to the bounded `calls` table. `tokens_saved` (and measurement mode's
 *    `measure_tokens`) are calibrated to the provider's counts once the session has an answer
 *    (../core/tokens/calibrate.ts calibrateRemoved).
 * 3. **Usage**: the usage totals, the call's USD cost at the session model's prices, and the
 *    estimator calibration (what was sent vs what the provider counted).
 * Counts and sizes only (DESIGN invariant 7), but for the summaries' text at level rewrite.
 */
import { findModelPrice } from "../core/cost/find-model-price";
import type { ModelPrice } from "../core/cost/prices";
import { calibrateRemoved, foldAnswer } from "../core/tokens/calibrate";
import type { Usage } from "../usage/extract-usage";
import { recordSummaries, rollbackStep } from "./compaction-ledger";
import type { CallReport, Outcome, OutcomeRecorded, OutcomeReport, ProviderCleared } from "./contract";
import { RECORD } from "./session-record";
import { defineTables, type StateTx } from "./state";

/** Rows kept in the `calls` table (the newest): enough for an operator's recent view; the counters hold the totals. */
export const MAX_CALL_ROWS = 200;

defineTables(["calls"], `CREATE TABLE IF NOT EXISTS calls (
  seq INTEGER PRIMARY KEY, at_ms INTEGER NOT NULL, tokens_original INTEGER NOT NULL, tokens_sent INTEGER NOT NULL, tier TEXT NOT NULL, outcome TEXT NOT NULL);`);

/** One forwarded call as the session keeps it: estimated tokens as the client sent it vs as forwarded. */
export type CallRow = {
  seq: number;
  at_ms: number;
  tokens_original: number;
  tokens_sent: number;
  tier: string;
  outcome: string;
};

/** The kept call rows, oldest first (at most MAX_CALL_ROWS). */
export function callRows(tx: StateTx): CallRow[] {
  return tx.sql.exec<CallRow>("SELECT seq, at_ms, tokens_original, tokens_sent, tier, outcome FROM calls ORDER BY seq").toArray();
}

/** The outcome to record, the counters to add (name → amount) and, for a native request, what the provider did. */
export interface NativeSettlement {
  outcome: OutcomeReport | null;
  counters: Record<string, number>;
  /** Absent for a request that asked the provider to clear nothing. */
  provider?: ProviderCleared;
  /** True when the request carried Sluice's compaction edit and the provider reported a compaction iteration. */
  compacted?: boolean;
}

/** Settles `outcome` (null: none) against the call's reported `usage` (null: none came): module header, 1. */
export function settleNative(outcome: OutcomeReport | null, usage: Usage | null): NativeSettlement {
  if (outcome?.native_compaction_trigger !== undefined) {
    const c = usage?.compaction;
    if (c === undefined) return { outcome: { ...outcome, outcome: "native_not_applied", tokens_sent: outcome.tokens_original, pairs_removed: 0 }, counters: {} };
    return { outcome, counters: { native_compactions: 1, native_compaction_input_tokens: c.input_tokens, native_compaction_output_tokens: c.output_tokens }, compacted: true };
  }
  const asked = outcome?.native_cleared ?? 0;
  if (outcome === null || asked <= 0) return { outcome, counters: {} };
  const applied = usage?.applied_edits?.find((e) => e.type === "clear_tool_uses_20250919");
  if (applied !== undefined && applied.cleared_tool_uses > 0) {
    const counters: Record<string, number> = { native_cleared_tool_uses: applied.cleared_tool_uses, native_cleared_input_tokens: applied.cleared_input_tokens };
    if (applied.cleared_tool_uses !== asked) counters.native_count_mismatch = 1;
    return { outcome, counters, provider: { applied: true, tool_uses: applied.cleared_tool_uses, input_tokens: applied.cleared_input_tokens } };
  }
  return {
    outcome: { ...outcome, outcome: "native_not_applied", tokens_sent: outcome.tokens_original, pairs_removed: 0 },
    counters: {},
    provider: { applied: false, tool_uses: 0, input_tokens: 0 },
  };
}

/** Outcomes counted under their own name; any other outcome is a fail-open reason. */
const OUTCOMES: ReadonlySet<Outcome> = new Set<Outcome>(["compacted", "unchanged", "measured", "native_not_applied"]);

/** Prices of the session's model (as the last step saw it): ../core/cost/prices.ts. */
export function sessionPrice(tx: StateTx): ModelPrice {
  const r = tx.get(RECORD);
  return findModelPrice(r.model, r.provider ?? "anthropic").price;
}

/** USD per input token actually paid in this session (reported usage), else the cache-read price (conservative). */
function effectiveInputPrice(tx: StateTx, price: ModelPrice): number {
  const c = tx.counterValues(["usage_input_tokens", "usage_cache_read_input_tokens", "usage_cache_creation_input_tokens"]);
  const inp = c.usage_input_tokens, rd = c.usage_cache_read_input_tokens, wr = c.usage_cache_creation_input_tokens;
  const total = inp + rd + wr;
  if (total === 0) return price.cache_read_per_mtok;
  return (inp * price.input_per_mtok + rd * price.cache_read_per_mtok + wr * price.input_per_mtok * price.cache_write_multiplier) / total;
}

/** Records outcome `r` at `now_ms` (module header, 2); `rollback` forgets what observers kept of a rolled-back step. Returns what was recorded. */
function recordOutcome(tx: StateTx, r: OutcomeReport, now_ms: number, rollback: (step: number) => void): OutcomeRecorded {
  if (r.rollback_step !== null) {
    rollbackStep(tx, r.rollback_step);
    rollback(r.rollback_step);
  }
  // After the rollback: a rolled-back step's host entry is gone, its summary is only counted.
  if (r.summaries !== undefined) recordSummaries(tx, r.summaries);
  tx.add(OUTCOMES.has(r.outcome) ? r.outcome : `fail_open_${r.outcome}`, 1);
  const record = tx.get(RECORD);
  const saved = calibrateRemoved(record.calibration, Math.max(0, r.tokens_original - r.tokens_sent));
  tx.add("tokens_original", r.tokens_original);
  tx.add("tokens_sent", r.tokens_sent);
  tx.add("tokens_saved", saved);
  const usdPerToken = effectiveInputPrice(tx, sessionPrice(tx)) / 1e6;
  tx.add("usd_saved", saved * usdPerToken);
  if (r.would_send !== null) {
    // Measurement mode (DESIGN §8): what the edit would have removed; counts only, no text.
    const would = calibrateRemoved(record.calibration, Math.max(0, r.tokens_original - r.would_send));
    tx.add("measure_requests", 1);
    tx.add("measure_pairs", r.pairs_removed);
    tx.add("measure_tokens", would);
    tx.add("measure_usd", would * usdPerToken);
  }
  if (r.pairs_removed > 0 && r.outcome === "compacted") tx.add("pairs_removed", r.pairs_removed);
  tx.sql.exec("INSERT INTO calls (at_ms, tokens_original, tokens_sent, tier, outcome) VALUES (?, ?, ?, ?, ?)", now_ms, r.tokens_original, r.tokens_sent, r.tier, r.outcome);
  tx.sql.exec("DELETE FROM calls WHERE seq <= (SELECT MAX(seq) FROM calls) - ?", MAX_CALL_ROWS);
  return { calls: record.calls, tokens_saved: saved, usd_saved: saved * usdPerToken };
}

/** Records usage `u` (module header, 3) with the call's estimates (tokens), at `now_ms`. */
function recordUsage(tx: StateTx, u: Usage, est: { est_original: number; est_sent: number }, now_ms: number): void {
  const reported = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
  tx.add("usage_input_tokens", u.input_tokens);
  tx.add("usage_cache_read_input_tokens", u.cache_read_input_tokens);
  tx.add("usage_cache_creation_input_tokens", u.cache_creation_input_tokens);
  tx.add("usage_output_tokens", u.output_tokens);
  tx.add("usage_reports", 1);
  // The estimator's raw pair over every report (stats' calibration_ratio), beside the calibration record's folded answers.
  tx.add("calibration_estimated", est.est_sent);
  tx.add("calibration_reported", reported);
  const price = sessionPrice(tx);
  tx.add(
    "usage_cost_usd",
    (u.input_tokens * price.input_per_mtok +
      u.cache_read_input_tokens * price.cache_read_per_mtok +
      u.cache_creation_input_tokens * price.input_per_mtok * price.cache_write_multiplier +
      u.output_tokens * price.output_per_mtok) / 1e6,
  );
  const r = tx.get(RECORD);
  tx.set(RECORD, { ...r, calibration: foldAnswer(r.calibration, { ...est, reported }), last_activity_ms: Math.max(now_ms, r.last_activity_ms ?? 0) });
}

/**
 * Records one report (module header) and returns what the outcome recorded (null without one)
 * and the report with its outcome as settled, for the observers.
 */
export function recordReport(tx: StateTx, r: CallReport, rollback: (step: number) => void): { recorded: OutcomeRecorded | null; settled: CallReport } {
  tx.add("reports", 1);
  const settled = settleNative(r.outcome, r.usage);
  for (const [name, n] of Object.entries(settled.counters)) tx.add(name, n);
  if (settled.provider !== undefined) tx.update(RECORD, { provider_cleared: settled.provider });
  if (settled.compacted) tx.update(RECORD, { native_compaction: "answered" });
  const recorded = settled.outcome === null ? null : recordOutcome(tx, settled.outcome, r.now_ms, rollback);
  // The settled outcome's figures: a native edit the provider did not apply forwarded everything.
  const est = settled.outcome === null ? { est_original: r.estimated_input_tokens, est_sent: r.estimated_input_tokens } : { est_original: settled.outcome.tokens_original, est_sent: settled.outcome.tokens_sent };
  if (r.usage !== null) recordUsage(tx, r.usage, est, r.now_ms);
  return { recorded, settled: { ...r, outcome: settled.outcome } };
}
