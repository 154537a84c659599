/**
 * What the session keeps of the summaries the gateway wrote (shell over the session's SQL store;
 * level `rewrite`, issue 29 item 3). A step that summarises stores its host's ledger entry as
 * `{ kind: "summarize", covers, text: null }`; the report brings what the summariser did
 * (OutcomeReport.summaries):
 * - written: the host's entry takes the text, so every later request re-applies the same block
 *   bytes (DESIGN invariant 6). An entry whose text is already set keeps it: the first text
 *   written is the one the provider has cached.
 * - failed: the host's entry becomes `drop_pair`, as the gateway forwarded it (the step fell back
 *   to removal only).
 * Counters per session: `summaries_written`, `summaries_failed`, `summary_input_tokens`,
 * `summary_output_tokens`, `summary_cost_usd` (USD, term ③ as paid).
 *
 * This is the one place the session state holds conversation text besides the opt-in archive:
 * level `rewrite` is the operator's opt-in (DESIGN invariant 7; docs/configuration.md), and the
 * text goes with the rest of the session at retention.
 */
import type { PairAction } from "../core/plan/types";
import type { WrittenSummary } from "../session/step-types";
import type { SessionStore } from "./session-store";

/** The session's summary counters (names as stored). */
export const SUMMARY_COUNTERS = ["summaries_written", "summaries_failed", "summary_input_tokens", "summary_output_tokens", "summary_cost_usd"] as const;

/** The summaries a session wrote, for its stats. */
export interface SummaryStats {
  written: number;
  failed: number;
  /** Tokens the summariser read and wrote, as it reported them. */
  input_tokens: number;
  output_tokens: number;
  /** USD the summaries cost (0 for the in-process extractive summariser). */
  cost_usd: number;
}

/** Reads SummaryStats from the session's counters. */
export function summaryStats(counters: Record<string, number>): SummaryStats {
  const c = (name: (typeof SUMMARY_COUNTERS)[number]) => counters[name] ?? 0;
  return { written: c("summaries_written"), failed: c("summaries_failed"), input_tokens: c("summary_input_tokens"), output_tokens: c("summary_output_tokens"), cost_usd: c("summary_cost_usd") };
}

/** USD of the written summaries in `summaries` (absent: 0). */
export function summariesCostUsd(summaries: readonly WrittenSummary[] | undefined): number {
  return (summaries ?? []).reduce((s, w) => s + (w.ok ? w.cost_usd : 0), 0);
}

/** Records `summaries` (module header). The caller flushes the store. */
export function recordSummaries(store: SessionStore, sql: SqlStorage, summaries: readonly WrittenSummary[]): void {
  for (const w of summaries) {
    const rows = sql.exec<{ pair_key: string; action: string }>("SELECT pair_key, action FROM ledger WHERE pair_id = ?", w.pair_id).toArray();
    for (const row of rows) {
      const action = JSON.parse(row.action) as PairAction;
      if (action.kind !== "summarize" || action.text !== null) continue;
      const next: PairAction = w.ok ? { kind: "summarize", covers: action.covers, text: w.text } : { kind: "drop_pair" };
      sql.exec("UPDATE ledger SET action = ? WHERE pair_key = ?", JSON.stringify(next), row.pair_key);
    }
    if (w.ok) {
      store.add("summaries_written", 1);
      store.add("summary_input_tokens", w.input_tokens);
      store.add("summary_output_tokens", w.output_tokens);
      store.add("summary_cost_usd", w.cost_usd);
    } else store.add("summaries_failed", 1);
  }
}
