/**
 * The report's removals-by-rule section (pure): for every strategy that names the rule behind
 * each removal (Sluice; ./removal-rules.ts), one row per rule or tier with the pairs it removed,
 * the tokens it took out (once, and summed over the calls that went without them) and the
 * used-after-removal it caused — as terminal lines (`npm run replay -- --by-rule`) and as HTML
 * tables, with the meaning of every rule shown.
 */
import { count } from "./report-format";
import { UNATTRIBUTED, UNKNOWN, type RuleStats } from "./removal-rules";
import type { ReplayReport, StrategyMetrics } from "./summarize-report";

/** What each rule or tier removes (src/core/engine/rule-*.ts, src/core/tiers/*.ts), and the two buckets of ./removal-rules.ts. */
export const RULE_MEANING: Readonly<Record<string, string>> = {
  superseded_read: "a file read that a later read of the same lines, or a later edit of the file, supersedes (pair whole)",
  superseded_edit: "an edit whose every file was read or edited again later (pair whole, the patch or written content included)",
  superseded_command: "a shell command or read-only call run again later with the same input (pair whole)",
  duplicate_result: "a result identical to a later result of the same tool (pair whole when the calls match, else the result)",
  failed_then_retried: "a failed call that a later call with the same intent retried successfully (pair whole)",
  stale_large_output: "a large result of a re-runnable read-only tool, at least 12 turns old (the result; the call stays)",
  age: "idle tier: a pair first seen before the session went idle, dropped whole while the provider cache is cold",
  long_result: "a result over min_result_bytes cut to its first head_chars characters (no rule removed it)",
  media: "images and documents stripped from an old result (auto tier)",
  stretch_summary: "level rewrite: a stretch of old pairs replaced by one summary",
  session_end: "level rewrite, session over: a pair no summary stretch holds, dropped",
  native_prefix: "native mechanism: a pair the oldest-first clearing takes along with the ones a rule chose",
  [UNKNOWN]: "a removal whose rule the strategy did not report (a pair with a repeated id, or a removal before the replay saw its step)",
  [UNATTRIBUTED]: "used-after-removal tokens that no removed pair held (the strategy removed them otherwise)",
};

const HEAD = ["rule", "pairs removed", "tokens removed", "tokens not sent", "uar calls", "uar tokens"];

/** Rows of one strategy's per-rule figures: header, one row per rule, then "all" (pairs and tokens summed; UAR calls from the strategy's own count). */
export function ruleRows(m: StrategyMetrics): string[][] {
  const by = m.by_rule ?? {};
  const rows = Object.entries(by).map(([rule, s]) => [rule, ...cells(s)]);
  const sum = (f: (s: RuleStats) => number) => Object.values(by).reduce((n, s) => n + f(s), 0);
  const all = ["all", count(sum((s) => s.pairs_removed)), count(sum((s) => s.tokens_removed)), count(sum((s) => s.tokens_not_sent)), count(m.used_after_removal_calls), count(sum((s) => s.uar_tokens))];
  return [HEAD, ...rows, all];
}

const cells = (s: RuleStats): string[] => [count(s.pairs_removed), count(s.tokens_removed), count(s.tokens_not_sent), count(s.uar_calls), count(s.uar_tokens)];

/** Strategies of `report` whose total carries per-rule figures. */
const ruled = (report: ReplayReport): string[] => report.strategies.filter((s) => report.total[s]?.by_rule != null);

/** The note under every per-rule table. */
export const RULES_NOTE =
  "tokens removed: estimated tokens each removal took out of the request, each pair once; tokens not sent: the same summed over every call that went without them (input tokens kept out before prompt caching); uar calls / tokens: calls used after removal with a token a pair of this rule held, and those tokens per call. A token two rules' pairs held counts for both, so the rules' uar calls can add up to more than the strategy's.";

/** Terminal lines: per strategy with rules, the total table then each session's ([] when none). */
export function ruleTablesText(report: ReplayReport): string[] {
  const out: string[] = [];
  for (const s of ruled(report)) {
    const blocks: [string, StrategyMetrics][] = [["all sessions", report.total[s]!], ...report.sessions.flatMap((x): [string, StrategyMetrics][] => (x.strategies[s]?.by_rule != null ? [[x.id, x.strategies[s]!]] : []))];
    for (const [label, m] of blocks) {
      const rows = ruleRows(m);
      const widths = rows[0]!.map((_, j) => Math.max(...rows.map((r) => r[j]!.length)));
      out.push(`Removals by rule, ${s}, ${label}:`, ...rows.map((r) => "  " + r.map((c, j) => (j === 0 ? c.padEnd(widths[j]!) : c.padStart(widths[j]!))).join("  ").trimEnd()));
    }
  }
  if (out.length === 0) return [];
  const seen = new Set(ruled(report).flatMap((s) => Object.keys(report.total[s]!.by_rule!)));
  return [...out, ...Object.entries(RULE_MEANING).filter(([r]) => seen.has(r)).map(([r, t]) => `  ${r}: ${t}`)];
}

/** The section as HTML ("" without a strategy that names its rules); `esc` escapes text. Per-session tables go in each session's section (`ruleTableHtml`). */
export function ruleTablesHtml(report: ReplayReport, esc: (s: string) => string): string {
  const names = ruled(report);
  if (names.length === 0) return "";
  const tables = names.map((s) => `<h3>${esc(s)}</h3>${ruleTableHtml(report.total[s]!, esc)}`).join("");
  const seen = new Set(names.flatMap((s) => Object.keys(report.total[s]!.by_rule!)));
  const legend = Object.entries(RULE_MEANING).filter(([r]) => seen.has(r)).map(([r, t]) => `<dt>${esc(r)}</dt><dd>${esc(t)}</dd>`).join("");
  return `<h2>Removals by rule (all sessions)</h2><p class="note">${esc(RULES_NOTE)}</p>${tables}<dl>${legend}</dl>`;
}

/** One strategy's per-rule table as HTML. */
export function ruleTableHtml(m: StrategyMetrics, esc: (s: string) => string): string {
  const [head, ...rows] = ruleRows(m);
  return `<table class="rules"><thead><tr>${head!.map((h) => `<th>${esc(h)}</th>`).join("")}</tr></thead><tbody>${rows.map((r) => `<tr><th>${esc(r[0]!)}</th>${r.slice(1).map((c) => `<td>${esc(c)}</td>`).join("")}</tr>`).join("")}</tbody></table>`;
}
