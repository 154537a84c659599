/**
 * The report's headline (pure): one line per strategy over all sessions — what it saved of the
 * input cost, net of the cache writes it caused (they are inside what the emulator billed, with
 * the engine's cost added), how many sessions and calls that covers, and how many calls used
 * something it had removed (./used-after-removal.ts). The HTML page opens with these lines and
 * the terminal prints them first.
 */
import { count, dollars, pct } from "./report-format";
import { savedPercent, type ReplayReport, type StrategyMetrics } from "./summarize-report";

/** The headline of `strategy` over `sessions` sessions. */
export function headline(strategy: string, m: StrategyMetrics, sessions: number): string {
  const scope = `${plural(sessions, "session")}, ${plural(m.calls, "call")}`;
  if (strategy === "none") return `${strategy}: baseline, input cost ${dollars(m.input_cost_without_usd)}; ${scope}`;
  const saved = `saved ${pct(savedPercent(m))} (${dollars(m.savings_usd)} of ${dollars(m.input_cost_without_usd)}, net of cache writes)`;
  return `${strategy}: ${saved}; ${scope}; used after removal: ${plural(m.used_after_removal_calls, "call")} (${pct(m.used_after_removal_pct)})`;
}

/** "1 call", "1,294 calls". */
const plural = (n: number, word: string): string => `${count(n)} ${word}${n === 1 ? "" : "s"}`;

/** The headline of every strategy of `report`, in run order. */
export function headlines(report: ReplayReport): string[] {
  return report.strategies.filter((s) => report.total[s] !== undefined).map((s) => headline(s, report.total[s]!, report.sessions.length));
}
