/**
 * The report's columns (pure): title, what it means, and how a cell is written — one list for
 * the terminal table (./render-table.ts) and the HTML page (./render-html.ts), so both show the
 * same figures in the same format (./report-format.ts) and the same legend.
 */
import { count, ms, pct, ratioPct, usd } from "./report-format";
import { timingSavedPct, type StepTiming } from "./step-timing-report";
import { savedPercent, type StrategyMetrics } from "./summarize-report";

/** Meaning of the "when gap" column (also the legend line of the step-timing section). */
export const WHEN_GAP_MEANING =
  "step timing in hindsight: points of input cost the same removals would have saved more at the best calls (exact programme over call positions, steps in order) than at the calls the strategy stepped; both under a simple prefix-cache model (5-minute TTL, the model's write and read prices, the session's real gaps, tokens ≈ characters/4); — = no step";

const hasSteps = (m: StrategyMetrics): boolean => m.step_timing !== null && m.step_timing.steps_taken > 0;

/** Points of the no-removal cost the best schedule saves beyond the steps taken. */
const pointsLost = (t: StepTiming): number => timingSavedPct(t, t.best_usd) - timingSavedPct(t, t.taken_usd);

/** "steps taken save 31.2% (12 steps); at the best calls 32.0% (5 steps): 0.8 pt", or null when the strategy took no measured step. */
export function describeStepTiming(m: StrategyMetrics): string | null {
  if (!hasSteps(m)) return null;
  const t = m.step_timing!;
  const steps = (n: number) => `${n} step${n === 1 ? "" : "s"}`;
  return `steps taken save ${pct(timingSavedPct(t, t.taken_usd))} (${steps(t.steps_taken)}); at the best calls ${pct(timingSavedPct(t, t.best_usd))} (${steps(t.steps_best)}): ${pointsLost(t).toFixed(1)} pt`;
}

/** One column of a strategy row. */
export interface ReportColumn {
  title: string;
  /** One-line meaning, shown in the legend. */
  meaning: string;
  cell: (m: StrategyMetrics) => string;
}

export const COLUMNS: readonly ReportColumn[] = [
  { title: "calls", meaning: "model calls replayed", cell: (m) => String(m.calls) },
  { title: "input tok sent", meaning: "input tokens billed: uncached input + cache reads + cache writes", cell: (m) => count(m.input_tokens_sent) },
  { title: "vs none", meaning: "change of input tokens sent against the `none` strategy", cell: (m) => pct(m.input_tokens_change_pct, true) },
  { title: "cache read", meaning: "input tokens read from the provider's prompt cache (cheapest)", cell: (m) => count(m.cache_read_tokens) },
  { title: "cache write", meaning: "input tokens written to the prompt cache (Anthropic: 1.25× the input price)", cell: (m) => count(m.cache_write_tokens) },
  { title: "cost w/o $", meaning: "input cost without compaction: what the emulator billed `none`, USD", cell: (m) => usd(m.input_cost_without_usd) },
  { title: "cost with $", meaning: "input cost with the strategy: what the emulator billed it, plus engine cost, USD", cell: (m) => usd(m.input_cost_with_usd) },
  { title: "saved", meaning: "(cost w/o − cost with) ÷ cost w/o; negative = the strategy costs more", cell: (m) => pct(savedPercent(m)) },
  { title: "hit", meaning: "cache hit ratio: cache read ÷ input tokens sent", cell: (m) => ratioPct(m.cache_hit_ratio) },
  { title: "when gap", meaning: WHEN_GAP_MEANING, cell: (m) => (hasSteps(m) ? `${pointsLost(m.step_timing!).toFixed(1)} pt` : "—") },
  { title: "pairs rm", meaning: "tool call/result pairs whose result the strategy removed or altered (bodies diffed)", cell: (m) => String(m.pairs_removed) },
  { title: "refetch", meaning: "removed pairs whose same tool call (name + input) the session issued again later", cell: (m) => String(m.refetches) },
  { title: "remention", meaning: "removed pairs whose file path or shell command the agent's prose named again later", cell: (m) => String(m.rementions) },
  { title: "rejected", meaning: "requests the emulator refused (validated like the real API)", cell: (m) => String(m.rejections) },
  { title: "added p50 ms", meaning: "latency the strategy added, median (in-process: time in the transform; end to end: round trip minus the direct one)", cell: (m) => ms(m.added_latency_p50_ms) },
  { title: "added p99 ms", meaning: "the same, 99th percentile (nearest rank)", cell: (m) => ms(m.added_latency_p99_ms) },
];

/** Title of the column that explains a 0.0% saving. */
export const WHY_TITLE = "why 0.0%";
/** Its meaning, for the legend. */
export const WHY_MEANING = "why the saving is 0.0%: for Sluice, its decisions per call from the x-sluice-compaction header (under threshold, no candidates, server-managed, …)";
