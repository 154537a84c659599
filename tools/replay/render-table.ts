/**
 * The report as terminal text (pure): one block per session and one for the total, one row per
 * strategy, columns aligned (./report-columns.ts), with the reason beside every 0.0% saving;
 * then the operator table of the total (./operator-table.ts), the savings ledger against the
 * bill (./ledger-check.ts), each session's model and prices, the step timing in hindsight of
 * every strategy that stepped, and the legend of every strategy and column.
 */
import { COLUMNS, describeStepTiming, WHY_MEANING, WHY_TITLE } from "./report-columns";
import { strategyMeaning, zeroReason } from "./report-explain";
import { OPERATOR_ROWS } from "./operator-table";
import { ledgerCheckLines } from "./ledger-check";
import { describePrices } from "./session-prices";
import { cacheBreaksText } from "./render-cache-breaks";
import type { ReplayReport, StrategyMetrics } from "./summarize-report";

/** Aligns rows: the first `left` columns and the last are left-aligned, the others right-aligned. */
function align(rows: string[][], left: number): string[] {
  const widths = rows[0]!.map((_, j) => Math.max(...rows.map((r) => r[j]!.length)));
  const last = widths.length - 1;
  return rows.map((r) => r.map((cell, j) => (j < left || j === last ? cell.padEnd(widths[j]!) : cell.padStart(widths[j]!))).join("  ").trimEnd());
}

/** "Step timing in hindsight" lines: one per session and strategy that stepped, then the total; none when nothing stepped. */
function timingLines(report: ReplayReport): string[] {
  const lines: string[] = [];
  const add = (label: string, by: Record<string, StrategyMetrics>) => {
    for (const s of report.strategies) {
      const d = by[s] === undefined ? null : describeStepTiming(by[s]!);
      if (d !== null) lines.push(`  ${label} ${s}: ${d}`);
    }
  };
  for (const s of report.sessions) add(s.id, s.strategies);
  add("TOTAL", report.total);
  return lines.length === 0 ? [] : ["Step timing in hindsight (the \"when gap\" column; model in the legend):", ...lines, ""];
}

/** Renders the whole report as text. */
export function renderTable(report: ReplayReport): string {
  const rows: string[][] = [["session", "strategy", ...COLUMNS.map((c) => c.title), WHY_TITLE]];
  const starts: number[] = [];
  const block = (label: string, by: Record<string, StrategyMetrics>) => {
    starts.push(rows.length);
    report.strategies.forEach((s, i) => {
      const m = by[s];
      if (m !== undefined) rows.push([i === 0 ? label : "", s, ...COLUMNS.map((c) => c.cell(m)), zeroReason(s, m) ?? ""]);
    });
  };
  for (const s of report.sessions) block(s.id, s.strategies);
  block("TOTAL", report.total);
  const lines = align(rows, 2);
  const rule = "-".repeat(Math.max(...lines.map((l) => l.length)));
  const out = [lines[0]!];
  lines.slice(1).forEach((l, k) => {
    if (starts.includes(k + 1)) out.push(rule);
    out.push(l);
  });
  const present = report.strategies.filter((s) => report.total[s] !== undefined);
  const operator = align([["operator table (all sessions)", ...present], ...OPERATOR_ROWS.map((r) => [r.label, ...present.map((s) => r.value(report.total[s]!))])], 1);
  return [
    ...out,
    ...report.warnings.map((w) => `warning: ${w}`),
    "",
    ...operator,
    ...withGap(cacheBreaksText(report)),
    "",
    ...ledgerCheckLines(report).flatMap((l, i, all) => (i === all.length - 1 ? [l, ""] : [l])),
    "Model and prices billed (USD per million tokens):",
    ...report.sessions.map((s) => `  ${s.id}: ${describePrices(s.prices)}`),
    "",
    ...timingLines(report),
    "Strategies:",
    ...present.map((s) => `  ${s}: ${strategyMeaning(s)}`),
    "Columns:",
    ...[...COLUMNS.map((c) => [c.title, c.meaning]), [WHY_TITLE, WHY_MEANING]].map(([t, m]) => `  ${t}: ${m}`),
  ].join("\n");
}

/** `lines` after a blank line, or nothing when there are none. */
const withGap = (lines: string[]): string[] => (lines.length > 0 ? ["", ...lines] : []);
