/**
 * The report as a terminal table (pure): one block per session and one for the total, one row
 * per strategy, columns aligned. Dollars to the cent below $1000; token counts with thousands
 * separators.
 */
import type { ReplayReport, StrategyMetrics } from "./summarize-report";

const COLUMNS: { title: string; cell: (m: StrategyMetrics) => string }[] = [
  { title: "calls", cell: (m) => String(m.calls) },
  { title: "input tok sent", cell: (m) => m.input_tokens_sent.toLocaleString("en-US") },
  { title: "vs orig", cell: (m) => `${m.input_tokens_change_pct > 0 ? "+" : ""}${m.input_tokens_change_pct.toFixed(1)}%` },
  { title: "cache read", cell: (m) => m.cache_read_tokens.toLocaleString("en-US") },
  { title: "cache write", cell: (m) => m.cache_write_tokens.toLocaleString("en-US") },
  { title: "cost w/o $", cell: (m) => m.input_cost_without_usd.toFixed(2) },
  { title: "cost with $", cell: (m) => m.input_cost_with_usd.toFixed(2) },
  { title: "saved", cell: (m) => `${m.savings_pct.toFixed(1)}%` },
  { title: "hit", cell: (m) => `${(m.cache_hit_ratio * 100).toFixed(1)}%` },
  { title: "pairs rm", cell: (m) => String(m.pairs_removed) },
  { title: "refetch", cell: (m) => String(m.refetches) },
  { title: "rejected", cell: (m) => String(m.rejections) },
  { title: "added p50 ms", cell: (m) => m.added_latency_p50_ms.toFixed(2) },
  { title: "added p99 ms", cell: (m) => m.added_latency_p99_ms.toFixed(2) },
];

/** Renders the whole report as text. */
export function renderTable(report: ReplayReport): string {
  const rows: string[][] = [["session", "strategy", ...COLUMNS.map((c) => c.title)]];
  const block = (label: string, by: Record<string, StrategyMetrics>) => {
    report.strategies.forEach((s, i) => {
      const m = by[s];
      if (m !== undefined) rows.push([i === 0 ? label : "", s, ...COLUMNS.map((c) => c.cell(m))]);
    });
  };
  for (const s of report.sessions) block(s.id, s.strategies);
  block("TOTAL", report.total);
  const widths = rows[0]!.map((_, j) => Math.max(...rows.map((r) => r[j]!.length)));
  const line = (r: string[]) => r.map((cell, j) => (j < 2 ? cell.padEnd(widths[j]!) : cell.padStart(widths[j]!))).join("  ");
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  const out = [line(rows[0]!), rule];
  rows.slice(1).forEach((r) => {
    if (r[0] !== "" && out.length > 2) out.push(rule);
    out.push(line(r));
  });
  return [...out, ...report.warnings.map((w) => `warning: ${w}`)].join("\n");
}
