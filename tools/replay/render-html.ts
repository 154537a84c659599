/**
 * The report as one self-contained HTML page (pure): the headline of every strategy over all
 * sessions (./report-headline.ts), the chart of cumulative input cost per call, the total and
 * per-session tables (./report-columns.ts, the reason beside every 0.0% saving), the operator
 * table of the total (./operator-table.ts), the removals by rule (./render-rules.ts), each
 * session's model and prices, the step timing in hindsight of every strategy that stepped, and
 * the legend of every strategy and column. No script, no external asset.
 *
 * Chart: one polyline per strategy (`data-strategy` names it), sessions concatenated, each
 * session's id written down its start and a dashed line between sessions. Strategies often draw
 * the very same line (nothing removed), so every line stays
 * visible: the others are drawn first, each 3 px wider for every later-drawn line with the very
 * same values (identical lines show as nested bands), and `none` last, dashed, with markers.
 */
import { cacheBreaksHtml } from "./render-cache-breaks";
import { COLUMNS, describeStepTiming, WHEN_GAP_MEANING, WHY_MEANING, WHY_TITLE } from "./report-columns";
import { strategyMeaning, zeroReason } from "./report-explain";
import { headlines } from "./report-headline";
import { ruleTableHtml, ruleTablesHtml } from "./render-rules";
import { OPERATOR_ROWS } from "./operator-table";
import { ledgerCheckRows } from "./ledger-check";
import { dollars, pct } from "./report-format";
import { describePrices } from "./session-prices";
import type { ReplayReport, StrategyMetrics } from "./summarize-report";

const COLORS = ["#111111", "#d97706", "#2563eb", "#7c3aed", "#059669", "#dc2626", "#0891b2"];
const NONE_DASH = "7 4";

const esc = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const colorOf = (report: ReplayReport, s: string) => COLORS[report.strategies.indexOf(s) % COLORS.length]!;

function table(report: ReplayReport, by: Record<string, StrategyMetrics>): string {
  const head = ["strategy", ...COLUMNS.map((c) => c.title), WHY_TITLE];
  const titles = ["", ...COLUMNS.map((c) => c.meaning), WHY_MEANING];
  const rows = report.strategies
    .filter((s) => by[s] !== undefined)
    .map((s) => {
      const m = by[s]!;
      const cells = COLUMNS.map((c) => `<td>${esc(c.cell(m))}</td>`).join("");
      return `<tr><th title="${esc(strategyMeaning(s))}">${esc(s)}</th>${cells}<td class="why">${esc(zeroReason(s, m) ?? "")}</td></tr>`;
    });
  return `<table><thead><tr>${head.map((h, i) => `<th title="${esc(titles[i]!)}">${esc(h)}</th>`).join("")}</tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function operatorTable(report: ReplayReport): string {
  const present = report.strategies.filter((s) => report.total[s] !== undefined);
  const rows = OPERATOR_ROWS.map((r) => `<tr><th>${esc(r.label)}</th>${present.map((s) => `<td>${esc(r.value(report.total[s]!))}</td>`).join("")}</tr>`);
  return `<table class="operator"><thead><tr><th>measure</th>${present.map((s) => `<th>${esc(s)}</th>`).join("")}</tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

/** The savings ledger against the bill (./ledger-check.ts), or nothing without a ledger. */
function ledgerCheck(report: ReplayReport): string {
  const rows = ledgerCheckRows(report);
  if (rows.length === 0) return "";
  const body = rows.map((r) => `<tr><th>${esc(r.session)}</th><td>${esc(r.strategy)}</td><td>${pct(r.billed_pct)}</td><td>${pct(r.ledger_pct)}</td><td>${r.gap_points.toFixed(2)}</td></tr>`).join("");
  return `<h2>Savings ledger vs bill</h2><p>The saving Sluice's own session ledger computed live (net of the cache writes its steps caused) beside the saving the emulator billed; target: within 1 point per session.</p><table class="ledger-check"><thead><tr><th>session</th><th>strategy</th><th>billed saving</th><th>ledger saving</th><th>gap (points)</th></tr></thead><tbody>${body}</tbody></table>`;
}

/** Why the latency columns are apart. */
const LATENCY_NOTE =
  "Latency: a strategy run in the replay's process has in-process figures (time in its transform); Sluice run through the gateway over HTTP has end-to-end figures (its round trip minus the direct one, network and the whole request path included). The two measure different things, so they sit in separate columns and a strategy fills only its own.";

function legend(report: ReplayReport): string {
  const strategies = report.strategies.map((s) => `<dt>${esc(s)}</dt><dd>${esc(strategyMeaning(s))}</dd>`).join("");
  const columns = [...COLUMNS.map((c) => [c.title, c.meaning] as const), [WHY_TITLE, WHY_MEANING] as const].map(([t, m]) => `<dt>${esc(t)}</dt><dd>${esc(m)}</dd>`).join("");
  return `<h2>Legend</h2><h3>Strategies</h3><dl>${strategies}</dl><h3>Columns</h3><dl>${columns}</dl><p class="note">${esc(LATENCY_NOTE)}</p>`;
}

function timingSection(report: ReplayReport): string {
  const rows: string[] = [];
  const add = (label: string, by: Record<string, StrategyMetrics>) => {
    for (const s of report.strategies) {
      const d = by[s] === undefined ? null : describeStepTiming(by[s]!);
      if (d !== null) rows.push(`<tr><th>${esc(label)}</th><th>${esc(s)}</th><td class="why">${esc(d)}</td></tr>`);
    }
  };
  for (const s of report.sessions) add(s.id, s.strategies);
  add("TOTAL", report.total);
  return rows.length === 0 ? "" : `<h2>Step timing in hindsight</h2><p class="note">${esc(WHEN_GAP_MEANING)}</p><table class="timing"><tbody>${rows.join("")}</tbody></table>`;
}

/** The SVG chart of cumulative input cost per call, with its key. */
export function renderChart(report: ReplayReport, width = 960, height = 360): string {
  const pad = { l: 64, r: 16, t: 16, b: 36 };
  const n = Math.max(1, ...Object.values(report.cumulative_cost_usd).map((v) => v.length));
  const maxY = Math.max(0.01, ...Object.values(report.cumulative_cost_usd).flatMap((v) => v.slice(-1)));
  const x = (i: number) => pad.l + (n <= 1 ? 0 : (i / (n - 1)) * (width - pad.l - pad.r));
  const y = (v: number) => height - pad.b - (v / maxY) * (height - pad.t - pad.b);
  const parts: string[] = [];
  parts.push(`<line x1="${pad.l}" y1="${height - pad.b}" x2="${width - pad.r}" y2="${height - pad.b}" stroke="#999"/>`);
  parts.push(`<line x1="${pad.l}" y1="${pad.t}" x2="${pad.l}" y2="${height - pad.b}" stroke="#999"/>`);
  for (let k = 0; k <= 4; k++) {
    const v = (maxY * k) / 4;
    parts.push(`<text x="${pad.l - 6}" y="${y(v).toFixed(1)}" text-anchor="end" dominant-baseline="middle" font-size="11">${dollars(v)}</text>`);
  }
  let at = 0;
  report.session_calls.forEach((c, i) => {
    const id = esc(report.sessions[i]?.id ?? "");
    if (i > 0) parts.push(`<line x1="${x(at).toFixed(1)}" y1="${pad.t}" x2="${x(at).toFixed(1)}" y2="${height - pad.b}" stroke="#ccc" stroke-dasharray="4 3"><title>${id}</title></line>`);
    // The session's id, written downwards from the top of its start.
    const lx = (x(at) + 3).toFixed(1);
    parts.push(`<text class="session-label" x="${lx}" y="${pad.t}" transform="rotate(90 ${lx} ${pad.t})" font-size="10" fill="#666">${id}</text>`);
    at += c;
  });
  parts.push(`<text x="${(width / 2).toFixed(0)}" y="${height - 6}" text-anchor="middle" font-size="11">call (sessions concatenated)</text>`);
  const others = report.strategies.filter((s) => s !== "none");
  const series = (s: string) => JSON.stringify(report.cumulative_cost_usd[s] ?? []);
  const drawOrder = [...others, "none"];
  others.forEach((s, k) => {
    const pts = (report.cumulative_cost_usd[s] ?? []).map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    // Wider by 3 for every later-drawn line it coincides with, so it shows as a band around them.
    const w = 2 + 3 * drawOrder.slice(k + 1).filter((t) => series(t) === series(s)).length;
    parts.push(`<polyline data-strategy="${esc(s)}" fill="none" stroke="${colorOf(report, s)}" stroke-width="${w}" stroke-linejoin="round" points="${pts}"><title>${esc(s)}</title></polyline>`);
  });
  if (report.strategies.includes("none")) {
    const values = report.cumulative_cost_usd.none ?? [];
    const pts = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    const every = Math.max(1, Math.ceil(values.length / 40));
    const marks = values.flatMap((v, i) => (i % every === 0 || i === values.length - 1 ? [`<circle cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="2.5"/>`] : [])).join("");
    parts.push(`<polyline data-strategy="none" fill="none" stroke="${colorOf(report, "none")}" stroke-width="1.5" stroke-dasharray="${NONE_DASH}" points="${pts}"><title>none</title></polyline><g fill="${colorOf(report, "none")}">${marks}</g>`);
  }
  const key = report.strategies
    .map((s) => {
      const line = s === "none" ? `stroke-dasharray="${NONE_DASH}" stroke-width="1.5"` : `stroke-width="3"`;
      return `<span class="key"><svg width="26" height="10"><line x1="0" y1="5" x2="26" y2="5" stroke="${colorOf(report, s)}" ${line}/></svg> ${esc(s)}</span>`;
    })
    .join(" ");
  const note = "Lines that coincide are drawn as nested bands (each wider than the lines drawn over it); <code>none</code> is the dashed line with dots, drawn on top.";
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="cumulative input cost per call">${parts.join("")}</svg><p class="legend">${key}</p><p class="note">${note}</p>`;
}

/** A session's removals by rule, per strategy that names them ("" when none does). */
function sessionRules(report: ReplayReport, by: Record<string, StrategyMetrics>): string {
  return report.strategies
    .filter((s) => by[s]?.by_rule != null)
    .map((s) => `<p class="note">Removals by rule, ${esc(s)}:</p>${ruleTableHtml(by[s]!, esc)}`)
    .join("");
}

/** The whole page. `title` goes in <title> and <h1>. */
export function renderHtml(report: ReplayReport, title = "Sluice replay report"): string {
  const sessions = report.sessions
    .map((s) => `<h3>${esc(s.id)} <small>${esc(s.provider)} · ${s.calls} calls</small></h3><p class="prices">Model and prices billed (USD per million tokens): ${esc(describePrices(s.prices))}</p>${table(report, s.strategies)}${sessionRules(report, s.strategies)}`)
    .join("");
  const headline = `<ul class="headline">${headlines(report).map((h) => `<li>${esc(h)}</li>`).join("")}</ul>`;
  const warnings = report.warnings.length > 0 ? `<ul class="warn">${report.warnings.map((w) => `<li>${esc(w)}</li>`).join("")}</ul>` : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>body{font:14px system-ui,sans-serif;margin:24px;color:#222}table{border-collapse:collapse;margin:8px 0 20px}th,td{padding:3px 8px;border-bottom:1px solid #e5e5e5;text-align:right}th:first-child,th:last-child,td.why{text-align:left}td{white-space:nowrap}td.why{color:#555;white-space:normal}small{color:#777;font-weight:normal}.legend .key{margin-right:14px}.note,.prices{color:#555}dl{display:grid;grid-template-columns:max-content auto;gap:2px 12px}dt{font-weight:600}dd{margin:0}.warn{color:#a16207}.headline{font-size:15px;padding-left:18px}.headline li{margin:2px 0}</style>
</head><body>
<h1>${esc(title)}</h1>
${headline}
<h2>Cumulative input cost per call</h2>
${renderChart(report)}
<h2>Total</h2>
${table(report, report.total)}
${warnings}
<h2>Operator table (all sessions)</h2>
${operatorTable(report)}
${ruleTablesHtml(report, esc)}
${cacheBreaksHtml(report, esc)}
${ledgerCheck(report)}
<h2>Sessions</h2>
${sessions}
${timingSection(report)}
${legend(report)}
</body></html>
`;
}
