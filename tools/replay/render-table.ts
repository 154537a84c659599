/**
 * The report as terminal text (pure), every line at most TERMINAL_WIDTH characters: the headline
 * of every strategy over all sessions (./report-headline.ts); the table — one block per session
 * and one for the total, one row per strategy, the columns marked `terminal` (./report-columns.ts)
 * — with the reason beside every 0.0% saving under its block; warnings; the savings ledger
 * against the bill (./ledger-check.ts); the cache breaks of the sluice run, one line per session;
 * with `byRule`, the removals by rule (./render-rules.ts); and the legend of every strategy and
 * column shown. The rest (input and cache tokens, the when gap, added latency in process and end
 * to end, the operator table, prices, step timing) is in report.html and report.json.
 */
import { COLUMNS, WHY_MEANING, WHY_TITLE } from "./report-columns";
import { HELD_BACK_MEANING, heldBackText, strategyMeaning, zeroReason } from "./report-explain";
import { headlines } from "./report-headline";
import { ledgerCheckLines } from "./ledger-check";
import { cacheBreaksSummary } from "./render-cache-breaks";
import { ruleTablesText, RULES_NOTE } from "./render-rules";
import { count, wrap } from "./report-format";
import type { ReplayReport, StrategyMetrics } from "./summarize-report";

/** Widest terminal line. */
export const TERMINAL_WIDTH = 120;

/** Options of the terminal text. */
export interface TableOptions {
  /** Print the removals by rule (--by-rule). */
  byRule?: boolean;
}

const TERMINAL_COLUMNS = COLUMNS.filter((c) => c.terminal);

/** `text` wrapped to the terminal, continuation lines indented by `indent` + 2. */
const wrapped = (text: string, indent = ""): string[] => wrap(text, TERMINAL_WIDTH, indent, `${indent}  `);

/** The table: header, then per block a rule line, its title, its rows and its 0.0% reasons. */
function tableLines(report: ReplayReport): string[] {
  const blocks: { title: string; rows: string[][]; why: string[] }[] = [];
  const block = (title: string, by: Record<string, StrategyMetrics>) => {
    const rows: string[][] = [];
    const why: string[] = [];
    for (const s of report.strategies) {
      const m = by[s];
      if (m === undefined) continue;
      rows.push([s, ...TERMINAL_COLUMNS.map((c) => c.cell(m))]);
      // The baseline's reason ("baseline") says nothing in the terminal; the page keeps it in its column.
      const reason = s === "none" ? null : zeroReason(s, m);
      if (reason !== null) why.push(...wrapped(`${WHY_TITLE}, ${s}: ${reason}`, "    "));
      const held = heldBackText(m);
      if (held !== "") why.push(...wrapped(`held back by, ${s}: ${held}${m.held_back ? " (that step alone, in hindsight)" : ""}`, "    "));
    }
    blocks.push({ title, rows, why });
  };
  for (const s of report.sessions) block(`${s.id} — ${s.provider}, ${s.model}, ${count(s.calls)} calls`, s.strategies);
  block(`TOTAL — ${plural(report.sessions.length, "session")}, ${count(report.sessions.reduce((n, s) => n + s.calls, 0))} calls`, report.total);
  const head = ["strategy", ...TERMINAL_COLUMNS.map((c) => c.title)];
  const all = [head, ...blocks.flatMap((b) => b.rows)];
  const widths = head.map((_, j) => Math.max(...all.map((r) => r[j]!.length)));
  const line = (r: string[]) => `  ${r.map((c, j) => (j === 0 ? c.padEnd(widths[j]!) : c.padStart(widths[j]!))).join("  ")}`.trimEnd();
  const width = line(head).length;
  return [line(head), ...blocks.flatMap((b) => ["-".repeat(width), b.title, ...b.rows.map(line), ...b.why])];
}

/** Renders the whole report as text. */
export function renderTable(report: ReplayReport, opts: TableOptions = {}): string {
  const present = report.strategies.filter((s) => report.total[s] !== undefined);
  const byRule = opts.byRule ? ruleTablesText(report) : [];
  return [
    "All sessions:",
    ...headlines(report).flatMap((h) => wrapped(h, "  ")),
    "",
    ...tableLines(report),
    ...report.warnings.flatMap((w) => wrapped(`warning: ${w}`)),
    ...gap(ledgerCheckLines(report).flatMap((l, i) => (i === 0 ? wrapped(l) : wrapped(l.trimStart(), "  ")))),
    ...gap(cacheBreaksSummary(report).flatMap((l, i) => (i === 0 ? wrapped(l) : wrapped(l.trimStart(), "  ")))),
    ...gap(byRule.length === 0 ? [] : [...byRule.flatMap((l) => (l.length <= TERMINAL_WIDTH ? [l] : wrapped(l.trimStart(), "  "))), ...wrapped(RULES_NOTE, "  ")]),
    "",
    "Strategies:",
    ...present.flatMap((s) => wrapped(`${s}: ${strategyMeaning(s)}`, "  ")),
    "Columns:",
    ...[...TERMINAL_COLUMNS.map((c) => [c.title, c.meaning]), [WHY_TITLE, WHY_MEANING], ["held back by", HELD_BACK_MEANING]].flatMap(([t, m]) => wrapped(`${t}: ${m}`, "  ")),
    ...wrapped("More in report.html and report.json: input and cache tokens, the when gap, latency added in process and end to end (apart), the operator table, cache breaks by cause, prices, step timing in hindsight, removals by rule."),
  ].join("\n");
}

/** "1 session", "9 sessions". */
const plural = (n: number, word: string): string => `${count(n)} ${word}${n === 1 ? "" : "s"}`;

/** `lines` after a blank line, or nothing when there are none. */
const gap = (lines: string[]): string[] => (lines.length > 0 ? ["", ...lines] : []);
