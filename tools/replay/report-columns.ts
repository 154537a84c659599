/**
 * The report's columns (pure): title, what it means, and how a cell is written — one list for
 * the terminal table (./render-table.ts) and the HTML page (./render-html.ts), so both show the
 * same figures in the same format (./report-format.ts) and the same legend. The page shows
 * every column; the terminal, to fit 120 characters, those marked `terminal`.
 *
 * Latency: a strategy's added latency is measured in process (time in its transform) or end to
 * end (through the gateway, minus the direct round trip): the two differ by the network and the
 * gateway's whole request path, so each has its own columns and a strategy fills only its own.
 */
import { count, ms, pct, ratioPct, usd } from "./report-format";
import { timingSavedPct, type StepTiming } from "./step-timing-report";
import { HELD_BACK_MEANING, heldBackText } from "./report-explain";
import { savedPercent, type StrategyMetrics } from "./summarize-report";

/** Meaning of the "when gap" column (also the legend line of the step-timing section). */
export const WHEN_GAP_MEANING =
  "step timing in hindsight: points of input cost the same removals would have saved more at the best calls (exact programme over call positions, steps in order) than at the calls the strategy stepped; both under a simple prefix-cache model (5-minute TTL, the model's write and read prices, the session's real gaps, Anthropic reads reaching back at most 20 history items from the last message's breakpoint, tokens ≈ characters/4); — = no step";

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
  /** Shown in the terminal table too. */
  terminal?: true;
}

/** Meaning of the used-after-removal column (also the legend's). */
export const USED_AFTER_REMOVAL_MEANING =
  "used after removal: calls whose recorded answer used a project-specific token (an identifier, a path with a line, a long number or hash that no other project of the corpus has) that the original request held and the forwarded one did not — the agent, as recorded, used something the strategy had hidden from it (docs/replay.md). It replaces the re-mention count, which counted a removal whenever the agent named its file or command again, even when a newer read of the same file was still in the request";

/** "88 (6.8%)": used-after-removal calls and their share of the calls. */
export const usedAfterRemoval = (m: StrategyMetrics): string => `${count(m.used_after_removal_calls)} (${pct(m.used_after_removal_pct)})`;

/** A latency cell: the figure when the strategy's latency was measured `route`'s way, else "—". */
const latency = (route: StrategyMetrics["route"], f: (m: StrategyMetrics) => number) => (m: StrategyMetrics) => (m.route === route ? ms(f(m)) : "—");

export const COLUMNS: readonly ReportColumn[] = [
  { title: "calls", meaning: "model calls replayed", cell: (m) => count(m.calls) },
  { title: "saved", meaning: "(cost w/o − cost with) ÷ cost w/o, net of the cache writes the strategy caused (they are in what the emulator billed); negative = the strategy costs more", cell: (m) => pct(savedPercent(m)), terminal: true },
  { title: "cost w/o $", meaning: "input cost without compaction: what the emulator billed `none`, USD", cell: (m) => usd(m.input_cost_without_usd), terminal: true },
  { title: "cost with $", meaning: "input cost with the strategy: what the emulator billed it, plus engine cost, USD", cell: (m) => usd(m.input_cost_with_usd), terminal: true },
  { title: "used after rm", meaning: USED_AFTER_REMOVAL_MEANING, cell: usedAfterRemoval, terminal: true },
  { title: "input tok sent", meaning: "input tokens billed: uncached input + cache reads + cache writes", cell: (m) => count(m.input_tokens_sent) },
  { title: "vs none", meaning: "change of input tokens sent against the `none` strategy", cell: (m) => pct(m.input_tokens_change_pct, true), terminal: true },
  { title: "cache read", meaning: "input tokens read from the provider's prompt cache (cheapest)", cell: (m) => count(m.cache_read_tokens) },
  { title: "cache write", meaning: "input tokens written to the prompt cache (Anthropic: 1.25× the input price)", cell: (m) => count(m.cache_write_tokens) },
  { title: "hit", meaning: "cache hit ratio: cache read ÷ input tokens sent", cell: (m) => ratioPct(m.cache_hit_ratio), terminal: true },
  { title: "when gap", meaning: WHEN_GAP_MEANING, cell: (m) => (hasSteps(m) ? `${pointsLost(m.step_timing!).toFixed(1)} pt` : "—") },
  { title: "held back by", meaning: HELD_BACK_MEANING, cell: (m) => heldBackText(m) || "—" },
  { title: "pairs rm", meaning: "tool call/result pairs whose result the strategy removed or altered (bodies diffed)", cell: (m) => count(m.pairs_removed), terminal: true },
  { title: "refetch", meaning: "removed pairs whose same tool call (name + input) the session issued again later", cell: (m) => count(m.refetches), terminal: true },
  { title: "rejected", meaning: "requests the emulator refused (validated like the real API)", cell: (m) => count(m.rejections), terminal: true },
  { title: "in-process p50 ms", meaning: "latency added in process, median: time spent in the strategy's transform (strategies run in the replay's process; — for one run through the gateway)", cell: latency("direct", (m) => m.added_latency_p50_ms) },
  { title: "in-process p99 ms", meaning: "the same, 99th percentile (nearest rank)", cell: latency("direct", (m) => m.added_latency_p99_ms) },
  { title: "end-to-end p50 ms", meaning: "latency added end to end, median: each call's round trip through the gateway minus the same call's direct round trip under `none` (network and the gateway's whole request path included; not comparable with in-process figures; — for a strategy run in process)", cell: latency("gateway", (m) => m.added_latency_p50_ms) },
  { title: "end-to-end p99 ms", meaning: "the same, 99th percentile (nearest rank)", cell: latency("gateway", (m) => m.added_latency_p99_ms) },
];

/** Title of the column that explains a 0.0% saving. */
export const WHY_TITLE = "why 0.0%";
/** Its meaning, for the legend. */
export const WHY_MEANING = "why the saving is 0.0%: for Sluice, its decisions per call from the x-sluice-compaction header (under threshold, no candidates, server-managed, …)";
