/**
 * The seed's operator table per strategy (pure): one row per measure, one value per strategy,
 * from the replay's totals. What the replay does not measure says "not measured".
 * - saving: billed input cost without minus billed with (engine cost not included), and its
 *   share of the cost without;
 * - engine cost: what the engine charged (the built-in heuristic costs 0);
 * - worst-case loss: every removed result re-sent once as uncached input (estimate,
 *   ./summarize-report.ts);
 * - balance = saving − engine − loss; ratio = saving ÷ (engine + loss), "—" without a saving
 *   or without anything it is set against;
 * - latency: added p50/p99, in process and end to end on separate rows (a strategy has one of
 *   the two: ./report-columns.ts says why they are not comparable), and the share of calls on
 *   which Sluice took a step (its note);
 * - removals re-fetched: same tool name + input called again later;
 * - used after removal: calls whose recorded answer used a project-specific token the strategy
 *   had removed (./used-after-removal.ts), and of those the calls a restore would have answered
 *   (./restore-answers.ts); and removals from deterministic tools: counted by
 *   Sluice's own session ledger (in-process runs only);
 * - summaries (level rewrite, in-process): written and failed, and what the written ones cost.
 */
import { dollars, ms, pct } from "./report-format";
import type { StrategyMetrics } from "./summarize-report";

/** One measure: label, meaning, and its value for a strategy. */
export interface OperatorRow {
  label: string;
  value: (m: StrategyMetrics) => string;
}

const NOT_MEASURED = "not measured";

/** "n of d (p%)". */
const share = (n: number, d: number) => `${n} of ${d} (${pct(d === 0 ? 0 : (n / d) * 100)})`;

const saving = (m: StrategyMetrics) => m.input_cost_without_usd - (m.input_cost_with_usd - m.engine_cost_usd);

export const OPERATOR_ROWS: readonly OperatorRow[] = [
  {
    label: "saving (of modelled input cost)",
    value: (m) => `${pct(m.input_cost_without_usd === 0 ? 0 : (saving(m) / m.input_cost_without_usd) * 100)}, ${dollars(saving(m))} of ${dollars(m.input_cost_without_usd)}`,
  },
  { label: "engine cost", value: (m) => dollars(m.engine_cost_usd) },
  { label: "worst-case loss (every removed result re-sent once, estimated)", value: (m) => dollars(m.worst_case_loss_usd) },
  { label: "balance (saving − engine − loss)", value: (m) => dollars(saving(m) - m.engine_cost_usd - m.worst_case_loss_usd) },
  {
    label: "ratio (saving ÷ (engine + loss))",
    value: (m) => {
      const cost = m.engine_cost_usd + m.worst_case_loss_usd;
      if (saving(m) <= 0) return "— (no saving)";
      return cost <= 0 ? "— (nothing removed)" : `${(saving(m) / cost).toFixed(1)}×`;
    },
  },
  { label: "added latency in process p50 / p99 (time in the transform)", value: (m) => (m.route === "direct" ? `${ms(m.added_latency_p50_ms)} / ${ms(m.added_latency_p99_ms)} ms` : "—") },
  { label: "added latency end to end p50 / p99 (through the gateway, minus the direct round trip)", value: (m) => (m.route === "gateway" ? `${ms(m.added_latency_p50_ms)} / ${ms(m.added_latency_p99_ms)} ms` : "—") },
  {
    label: "requests that took a step",
    value: (m) => (Object.keys(m.decisions).length === 0 ? NOT_MEASURED : `${m.decisions.step ?? 0} of ${m.calls} (${pct(m.calls === 0 ? 0 : ((m.decisions.step ?? 0) / m.calls) * 100)})`),
  },
  { label: "removals re-fetched later (same tool + input)", value: (m) => `${m.refetches} of ${m.pairs_removed} (${pct(m.pairs_removed === 0 ? 0 : (m.refetches / m.pairs_removed) * 100)})` },
  { label: "calls used after removal (the answer used a project-specific token the strategy had removed)", value: (m) => share(m.used_after_removal_calls, m.calls) },
  { label: "of those, calls a restore would have answered (every token used was in a pair removed with a marker naming it: Sluice at placeholders with archive_removed)", value: (m) => share(m.used_after_removal_restorable_calls, m.used_after_removal_calls) },
  { label: "summaries written / failed (their cost, inside the engine cost)", value: (m) => (m.summaries === null ? NOT_MEASURED : `${m.summaries.written} / ${m.summaries.failed} ($${m.summaries.cost_usd.toFixed(4)})`) },
  { label: "removals from deterministic tools (reads, greps, listings; Sluice's ledger)", value: (m) => (m.ledger === null ? NOT_MEASURED : share(m.ledger.removals_deterministic, m.ledger.removals)) },
];
