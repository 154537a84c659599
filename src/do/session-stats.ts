/**
 * A session's statistics for operators (shell over the SQL store): counters, usage totals, the
 * ledger summary (pairs removed per step), per-call token figures, cache hit ratio from reported
 * usage, estimator calibration, the summaries written (level rewrite). Counts, sizes, ids and
 * hashes only (DESIGN invariant 7).
 */
import type { SessionStore } from "./session-store";
import type { StepTerms } from "../core/cost/net-benefit";
import { loadStepTerms } from "./step-terms-sql";
import { loadCalibration } from "./calibration-store";
import { growthRatio, removalRatio } from "../core/tokens/calibrate";
import { ledgerReport, totalsFromCounters, type LedgerReport } from "../admin/ledger-report";
import type { LedgerMode } from "../session/ledger-types";
import { summaryStats, type SummaryStats } from "./summary-ledger";

export interface SessionStats {
  session_id: string | null;
  model: string | null;
  provider: string | null;
  calls: number;
  last_activity_ms: number | null;
  last_tier: string | null;
  disabled: boolean;
  idle: boolean;
  complete: boolean;
  /** The project key its tier map is kept under (./project-memory.ts), or null when project memory was off for it. */
  project_key: string | null;
  counters: Record<string, number>;
  /** Steps kept, with the cost model's terms each was taken on (../core/cost/net-benefit.ts StepTerms; null for a step stored without them). */
  steps: { step: number; tier: string; at_ms: number; pairs_removed: number; tokens_before: number; tokens_after: number; correlation_id: string; terms: StepTerms | null }[];
  /** Per forwarded call: estimated tokens as sent by the client vs as forwarded. */
  calls_log: { seq: number; at_ms: number; tokens_original: number; tokens_sent: number; tier: string; outcome: string }[];
  /** cache_read / (input + cache_read + cache_write) over reported usage; null before any report. */
  cache_hit_ratio: number | null;
  /** reported / estimated input tokens over all reports; null before any. */
  calibration_ratio: number | null;
  /** The calibration's learned ratios (../core/tokens/calibrate.ts: provider tokens per estimated token of what clients appended / of what steps removed); null before any answer. */
  calibration_growth_ratio: number | null;
  calibration_removal_ratio: number | null;
  /** Level `rewrite`: the summaries the session wrote and failed, their tokens and USD (./summary-ledger.ts). */
  summaries: SummaryStats;
  /** The session's savings ledger (./savings-ledger.ts, ../admin/ledger-report.ts), in the mode it last ran in. */
  ledger: LedgerReport;
}

export function sessionStats(store: SessionStore, sql: SqlStorage): SessionStats {
  const c = store.counters();
  const inp = c.usage_input_tokens ?? 0, rd = c.usage_cache_read_input_tokens ?? 0, wr = c.usage_cache_creation_input_tokens ?? 0;
  const est = c.calibration_estimated ?? 0;
  const last = store.getMeta("last_activity_ms");
  const terms = loadStepTerms(sql);
  const cal = loadCalibration(store);
  return {
    session_id: store.getMeta("session_id"),
    model: store.getMeta("model"),
    provider: store.getMeta("provider"),
    calls: store.getMetaNumber("calls"),
    last_activity_ms: last === null ? null : Number(last),
    last_tier: store.getMeta("last_tier"),
    disabled: store.getMeta("disabled") === "1",
    idle: store.getMeta("idle") === "1",
    complete: store.getMeta("complete") === "1",
    project_key: store.getMeta("project_key"),
    counters: c,
    steps: sql.exec<Omit<SessionStats["steps"][number], "terms">>("SELECT step, tier, at_ms, pairs_removed, tokens_before, tokens_after, correlation_id FROM steps ORDER BY step").toArray()
      .map((s) => ({ ...s, terms: terms.get(s.step) ?? null })),
    calls_log: sql.exec<SessionStats["calls_log"][number]>("SELECT seq, at_ms, tokens_original, tokens_sent, tier, outcome FROM calls ORDER BY seq").toArray(),
    cache_hit_ratio: inp + rd + wr === 0 ? null : rd / (inp + rd + wr),
    calibration_ratio: est === 0 ? null : (c.calibration_reported ?? 0) / est,
    calibration_growth_ratio: cal.answers === 0 ? null : growthRatio(cal),
    calibration_removal_ratio: cal.answers === 0 ? null : removalRatio(cal),
    summaries: summaryStats(c),
    ledger: ledgerReport((store.getMeta("ledger_mode") as LedgerMode | null) ?? "compact", totalsFromCounters(c)),
  };
}
