/**
 * The report as one self-contained HTML page (pure): totals and per-session tables, and an
 * inline SVG chart of cumulative input cost per call, one polyline per strategy
 * (`data-strategy` names it), sessions concatenated with dashed boundaries. No script, no
 * external asset.
 */
import type { ReplayReport, StrategyMetrics } from "./summarize-report";

const COLORS = ["#555555", "#d97706", "#2563eb", "#7c3aed", "#059669", "#dc2626", "#0891b2"];

const esc = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function table(report: ReplayReport, by: Record<string, StrategyMetrics>): string {
  const head = ["strategy", "calls", "input tok sent", "vs orig", "cache read", "cache write", "cost w/o $", "cost with $", "saved", "hit ratio", "pairs removed", "re-fetches", "rejections", "added p50 ms", "added p99 ms"];
  const rows = report.strategies
    .filter((s) => by[s] !== undefined)
    .map((s) => {
      const m = by[s]!;
      const cells = [m.calls, m.input_tokens_sent.toLocaleString("en-US"), `${m.input_tokens_change_pct.toFixed(1)}%`, m.cache_read_tokens.toLocaleString("en-US"), m.cache_write_tokens.toLocaleString("en-US"), m.input_cost_without_usd.toFixed(2), m.input_cost_with_usd.toFixed(2), `${m.savings_pct.toFixed(1)}%`, m.cache_hit_ratio.toFixed(3), m.pairs_removed, m.refetches, m.rejections, m.added_latency_p50_ms.toFixed(2), m.added_latency_p99_ms.toFixed(2)];
      return `<tr><th>${esc(s)}</th>${cells.map((c) => `<td>${esc(String(c))}</td>`).join("")}</tr>`;
    });
  return `<table><thead><tr>${head.map((h) => `<th>${h}</th>`).join("")}</tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

/** The SVG chart of cumulative input cost per call. */
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
    parts.push(`<text x="${pad.l - 6}" y="${y(v).toFixed(1)}" text-anchor="end" dominant-baseline="middle" font-size="11">$${v.toFixed(2)}</text>`);
  }
  let at = 0;
  report.session_calls.forEach((c, i) => {
    if (i > 0) parts.push(`<line x1="${x(at).toFixed(1)}" y1="${pad.t}" x2="${x(at).toFixed(1)}" y2="${height - pad.b}" stroke="#ccc" stroke-dasharray="4 3"><title>${esc(report.sessions[i]!.id)}</title></line>`);
    at += c;
  });
  parts.push(`<text x="${(width / 2).toFixed(0)}" y="${height - 6}" text-anchor="middle" font-size="11">call (sessions concatenated)</text>`);
  report.strategies.forEach((s, i) => {
    const pts = (report.cumulative_cost_usd[s] ?? []).map((v, k) => `${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    parts.push(`<polyline data-strategy="${esc(s)}" fill="none" stroke="${COLORS[i % COLORS.length]}" stroke-width="1.8" points="${pts}"><title>${esc(s)}</title></polyline>`);
  });
  const legend = report.strategies
    .map((s, i) => `<span class="key"><span class="swatch" style="background:${COLORS[i % COLORS.length]}"></span>${esc(s)}</span>`)
    .join(" ");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="cumulative input cost per call">${parts.join("")}</svg><p class="legend">${legend}</p>`;
}

/** The whole page. `title` goes in <title> and <h1>. */
export function renderHtml(report: ReplayReport, title = "Sluice replay report"): string {
  const sessions = report.sessions
    .map((s) => `<h3>${esc(s.id)} <small>${esc(s.provider)} · ${esc(s.model)} · ${s.calls} calls</small></h3>${table(report, s.strategies)}`)
    .join("");
  const warnings = report.warnings.length > 0 ? `<ul class="warn">${report.warnings.map((w) => `<li>${esc(w)}</li>`).join("")}</ul>` : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>body{font:14px system-ui,sans-serif;margin:24px;color:#222}table{border-collapse:collapse;margin:8px 0 20px}th,td{padding:3px 8px;border-bottom:1px solid #e5e5e5;text-align:right}th:first-child{text-align:left}small{color:#777;font-weight:normal}.legend .key{margin-right:14px}.swatch{display:inline-block;width:12px;height:12px;margin-right:4px;vertical-align:-1px}.warn{color:#a16207}</style>
</head><body>
<h1>${esc(title)}</h1>
<h2>Cumulative input cost per call</h2>
${renderChart(report)}
<h2>Total</h2>
${table(report, report.total)}
${warnings}
<h2>Sessions</h2>
${sessions}
</body></html>
`;
}
