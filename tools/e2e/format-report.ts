/** Renders the conformance report as plain-text tables (pure). */
import { MAX_INPUT_COST_RATIO } from "./expectations";
import type { DefaultsReport } from "./run-defaults";
import type { E2eReport, SessionReport } from "./run-e2e";
import { toolName, type RestoreReport } from "./run-restore";
import { SETTING_SPECS } from "./settings";

const pad = (cells: readonly string[], widths: readonly number[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ");

function table(head: readonly string[], rows: readonly string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [pad(head, widths), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map((r) => pad(r, widths))].join("\n");
}

const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
const tally = (t: Record<string, number>) => Object.entries(t).map(([k, v]) => `${k}×${v}`).join(", ");

const int = (n: number) => n.toLocaleString("en-US");
/** "costlier" when input dollars through Sluice exceed direct by more than run-to-run noise (./expectations.ts MAX_INPUT_COST_RATIO, the input_cost_not_higher check). */
const costMark = (direct: SessionReport, through: SessionReport) => (through.billed.input_cost_usd > direct.billed.input_cost_usd * MAX_INPUT_COST_RATIO ? "costlier" : "");
/** The billed-tokens and input-dollars cells, direct → through Sluice, and the costlier mark. */
const costCells = (direct: SessionReport, through: SessionReport): string[] => [
  `${int(direct.billed.input_tokens)} → ${int(through.billed.input_tokens)}${change(direct.billed.input_tokens, through.billed.input_tokens)}`,
  `${direct.billed.input_cost_usd.toFixed(4)} → ${through.billed.input_cost_usd.toFixed(4)}${change(direct.billed.input_cost_usd, through.billed.input_cost_usd)}`,
  costMark(direct, through),
];
const change = (from: number, to: number) => (from === 0 ? "" : ` (${to <= from ? "−" : "+"}${(Math.abs(1 - to / from) * 100).toFixed(1)} %)`);

/**
 * Per client and model (one row per setting): requests, Sluice's steps, 4xx answers, billed
 * input tokens and input dollars, direct → through Sluice. "costlier" marks a setting whose
 * input dollars through Sluice exceed the direct session's by more than MAX_INPUT_COST_RATIO.
 */
export function costTable(r: E2eReport): string {
  const settings = [...new Set(r.sessions.map((s) => s.setting))];
  const rows = settings.flatMap((setting) => {
    const d = r.sessions.find((s) => s.setting === setting && s.mode === "direct");
    const v = r.sessions.find((s) => s.setting === setting && s.mode === "sluice");
    if (!d || !v) return [];
    const pair = (f: (s: SessionReport) => number) => `${f(d)} / ${f(v)}`;
    return [[
      SETTING_SPECS[setting].client, d.figures.model || v.figures.model, setting, pair((s) => s.figures.requests), String(v.figures.steps), pair((s) => s.figures.validation_errors),
      ...costCells(d, v),
    ]];
  });
  return table(["client", "model", "setting", "requests d / s", "steps", "4xx d / s", "billed input tokens direct → sluice", "input $ direct → sluice", ""], rows);
}

/**
 * The defaults pass: one row per setting (model, requests, Sluice's steps at the default config,
 * 4xx, billed input tokens and input dollars, the main pass's direct session → the defaults
 * session), "costlier" where the defaults session's dollars exceed the direct one's by more than
 * MAX_INPUT_COST_RATIO; then its checks.
 */
export function defaultsTables(d: DefaultsReport, direct: readonly SessionReport[]): string {
  const rows = d.sessions.flatMap((v) => {
    const s = direct.find((x) => x.setting === v.setting && x.mode === "direct");
    if (!s) return [];
    return [[
      v.setting, s.figures.model || v.figures.model, `${s.figures.requests} / ${v.figures.requests}`, String(v.figures.steps), `${s.figures.validation_errors} / ${v.figures.validation_errors}`,
      ...costCells(s, v),
    ]];
  });
  const sessions = table(["setting", "model", "requests d / s", "steps", "4xx d / s", "billed input tokens direct → defaults", "input $ direct → defaults", ""], rows);
  const checks = table(["setting", "check", "result", "figure"], d.checks.map((c) => [c.setting, c.check, c.pass ? "pass" : "FAIL", c.figure]));
  return [`Through Sluice at the default config (gateway config ${JSON.stringify(d.config)}), against the direct sessions above`, sessions, "", checks].join("\n");
}

/** The sessions table, the per-model cost table, the checks table, the defaults pass, the restore settings and the clients' inventory. */
export function formatReport(r: E2eReport): string {
  const sessions = table(
    ["setting", "mode", "done", "requests", "steps", "step tiers", "summaries", "compact edits", "sent", "forwarded", "last sent→fwd", "4xx", "refs", "dangling", "prefix≠", "billed input", "input $", "ws", "other upstream", "x-sluice-compaction"],
    r.sessions.map((s) => [
      s.setting, s.mode, s.completed ? "yes" : "NO", String(s.figures.requests), String(s.figures.steps), tally(s.figures.step_tiers) || "—", String(s.figures.summary_blocks_last), String(s.figures.compaction_edits), kb(s.figures.bytes_sent), kb(s.figures.bytes_forwarded),
      `${kb(s.figures.last_bytes_sent)}→${kb(s.figures.last_bytes_forwarded)}`, String(s.figures.validation_errors), String(s.figures.reference_replies),
      String(s.figures.dangling_references), String(s.figures.prefix_changes_outside_steps), String(s.billed.input_tokens), s.billed.input_cost_usd.toFixed(4), s.websocket.attempts === 0 ? "0" : `${s.websocket.attempts} (${tally(s.websocket.statuses)}, ≤${s.websocket.max_answer_ms} ms)`, tally(s.figures.other_forwarded), tally(s.figures.compaction_headers),
    ]),
  );
  const checks = table(
    ["setting", "check", "result", "figure", "known failing"],
    r.checks.map((c) => [c.setting, c.check, c.pass ? "pass" : "FAIL", c.figure, c.known_failing ?? ""]),
  );
  const inv = Object.entries(r.inventory).map(([client, i]) =>
    [
      `${client}: routes ${tally(i.routes)}; query ${tally(i.query_strings) || "none"}; content-encoding ${tally(i.content_encodings)}; websocket upgrades ${i.websocket_upgrades}`,
      `  body fields: ${tally(i.body_fields)}`,
      `  history: ${tally(i.history_kinds)}`,
      `  blocks: ${tally(i.block_types)}`,
      `  anthropic-beta: ${tally(i.beta_values) || "none"}`,
      `  headers: ${Object.keys(i.header_names).sort().join(", ")}`,
    ].join("\n"),
  );
  return [
    `Real-client conformance: ${Object.entries(r.versions).map(([p, v]) => `${p}@${v}`).join(", ")}; ${r.plan_tool_steps} tool steps per session; ${(r.duration_ms / 1000).toFixed(0)} s`,
    "", sessions, "", costTable(r), "", checks, "", ...(r.defaults.sessions.length > 0 ? [defaultsTables(r.defaults, r.sessions), ""] : []), ...(r.restore ? [restoreTables(r.restore), ""] : []), ...inv, "", `strays (unregistered keys, upgrade attempts): ${r.strays}`,
  ].join("\n");
}

/** The restore settings: one row per session (with and without Sluice's MCP tool), then their checks. */
export function restoreTables(r: RestoreReport): string {
  const sessions = table(
    ["setting", "MCP tool", "done", "requests", "steps", "4xx", "billed input", "cache hit", "tool in first request", "restore", "MCP requests"],
    r.sessions.map((s) => [
      s.setting, s.mcp ? "configured" : "—", s.completed ? "yes" : "NO", String(s.figures.requests), String(s.figures.steps), String(s.figures.validation_errors), String(s.billed.input_tokens),
      `${(s.cache_hit_ratio * 100).toFixed(2)} %`, s.restore.tool_first_request ? toolName(s.restore.tool_first_request) : s.restore.searched ? "deferred (searched)" : "—",
      s.restore.restore ? `${s.restore.restore.removed_bytes} B ${s.restore.restore.mcp_equal && s.restore.restore.delivered_equal ? "equal" : "DIFFERENT"}` : "—", tally(s.restore.mcp_requests) || "—",
    ]),
  );
  const checks = table(["setting", "check", "result", "figure"], r.checks.map((c) => [c.setting, c.check, c.pass ? "pass" : "FAIL", c.figure]));
  return [`Restore through Sluice's MCP tool (gateway config ${JSON.stringify(r.config)})`, sessions, "", checks].join("\n");
}
