/**
 * The restore settings of the conformance run (Node shell): a second `wrangler dev` at
 * `guarantee_level: "placeholders"` with `archive_removed` on (so each cut result carries the
 * marker naming its restore id), behind its own recording proxy, and per client two sessions
 * through it — with Sluice's MCP server configured (`<proxy>/mcp`, ./mcp-setup.ts) and without.
 * In the first the scripted model meets a marker, calls `restore_tool_result` with its id
 * (./script-restore.ts), and the harness compares the bytes (./analyze-restore.ts); the second
 * is the same session without the tool, for the prompt cache hit ratio.
 */
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { analyzeRestore, type RestoreFigures } from "./analyze-restore";
import { analyzeSession, type SessionFigures } from "./analyze-session";
import type { InstalledClients } from "./install-clients";
import { writeFixtureProject } from "./fixture-project";
import { withGateway } from "./gateway";
import { MCP_PATH } from "./record-proxy";
import type { RecordedRequest } from "./request-record";
import { runClient } from "./run-client";
import { billedOf, keyOf } from "./run-session";
import { SESSION_PLAN } from "./session-plan";
import { CLAUDE_4X_MODEL, CODEX_MODEL, isCodex, type ClientSetting } from "./settings";
import type { ScriptedUpstream } from "./upstream-server";

/** The restore settings, each run on a base setting's client and model. */
export type RestoreSetting = "claude-restore" | "codex-restore";

/**
 * Base setting of each restore setting: the clients' spliced paths (a marker is written into the
 * forwarded bytes; on `claude-opus-5-5` Sluice goes by the native mechanism and the provider
 * clears, leaving no marker), with the tool list each client sends by default.
 */
export const RESTORE_BASE: Readonly<Record<RestoreSetting, ClientSetting>> = { "claude-restore": "claude-4x-no-thinking", "codex-restore": "codex" };
export const RESTORE_SETTINGS: readonly RestoreSetting[] = Object.keys(RESTORE_BASE) as RestoreSetting[];
/**
 * Client environment of both sessions of a restore setting. Claude Code 2.1.332 defers MCP tools
 * by default (their names in a system reminder; its `ToolSearch` loads one on demand and then
 * adds it to `tools`, which changes the tool list mid-session and breaks the prompt cache:
 * measured 1.52 points lower hit ratio); `ENABLE_TOOL_SEARCH=false` lists them in `tools` from
 * the first request — and the client's other deferred tools too, hence the same setting in the
 * session without Sluice's tool. Codex 0.171.0 defers them behind `tool_search` too, but the
 * loaded tool travels in the history (`tool_search_output`), so its tool list stays the same.
 */
export const RESTORE_CLIENT_ENV: Readonly<Record<RestoreSetting, Record<string, string>>> = { "claude-restore": { ENABLE_TOOL_SEARCH: "false" }, "codex-restore": {} };
/** Their models (the base settings' pinned ones). */
export const RESTORE_MODELS: Readonly<Record<RestoreSetting, string>> = { "claude-restore": CLAUDE_4X_MODEL, "codex-restore": CODEX_MODEL };

/** The restore gateway's config: markers naming a restore id, and the conformance run's 16-turn working set and R floor of 8 (./run-e2e.ts E2E_COMPACTION_CONFIG: at the defaults a 41-request session may take no step, so no marker to restore). */
export const RESTORE_CONFIG = { guarantee_level: "placeholders", archive_removed: true, working_set_turns: 16, min_remaining_calls: 8 } as const;

/** The cache hit ratios of the sessions with and without the tool may differ by at most this (ratio, i.e. 1 point). */
export const MAX_HIT_RATIO_GAP = 0.01;

/** One restore-setting session. */
export interface RestoreSession {
  setting: RestoreSetting;
  /** Sluice's MCP server configured in the client. */
  mcp: boolean;
  completed: boolean;
  exit_code: number | null;
  figures: SessionFigures;
  billed: { input_tokens: number; uncached: number; cache_read: number; cache_write: number; input_cost_usd: number };
  /** cache_read ÷ (uncached + cache_read + cache_write) of what the upstream billed. */
  cache_hit_ratio: number;
  restore: RestoreFigures;
  stderr_tail: string;
}

/** The restore checks, by name. */
export type RestoreCheckName = "completes" | "no_validation_errors" | "tool_listed_from_first_request" | "restore_called" | "restore_bytes_equal" | "cache_hit_within_1pt";

export interface RestoreCheck {
  setting: RestoreSetting;
  check: RestoreCheckName;
  figure: string;
  pass: boolean;
}

/** The restore part of the report. */
export interface RestoreReport {
  config: typeof RESTORE_CONFIG;
  sessions: RestoreSession[];
  checks: RestoreCheck[];
}

export interface RestoreRunOptions {
  clients: InstalledClients;
  upstream: ScriptedUpstream;
  /** Temp folder for projects and HOMEs (removed by the caller). */
  scratch: string;
  /** Run nonce, part of every API key. */
  nonce: string;
  settings: readonly RestoreSetting[];
  log: (line: string) => void;
}

const pct = (x: number) => `${(x * 100).toFixed(2)} %`;

/** A tool as the model sees it: `name`, or `namespace.name` for Codex's namespaced MCP tools. */
export const toolName = (t: { name: string; namespace?: string }): string => (t.namespace !== undefined ? `${t.namespace}.${t.name}` : t.name);

/** The checks of one restore setting from its sessions with and without the tool. */
export function evaluateRestore(setting: RestoreSetting, withTool: RestoreSession, without: RestoreSession): RestoreCheck[] {
  const r = withTool.restore.restore;
  const gap = Math.abs(withTool.cache_hit_ratio - without.cache_hit_ratio);
  const listed = withTool.restore.tool_first_request;
  const checks: Record<RestoreCheckName, [string, boolean]> = {
    completes: [`with tool ${withTool.completed ? "yes" : "no"}, without ${without.completed ? "yes" : "no"}`, withTool.completed && without.completed],
    no_validation_errors: [`${withTool.figures.validation_errors} (without ${without.figures.validation_errors})`, withTool.figures.validation_errors === 0 && without.figures.validation_errors === 0],
    tool_listed_from_first_request: [
      `${listed ? `${toolName(listed)} in tools` : withTool.restore.deferred_first_request ? "named as deferred" : "not named"}${withTool.restore.searched ? ", loaded by tool search" : ""}; tool list ${withTool.restore.tool_list_stable ? "the same on every request" : "CHANGED"}`,
      withTool.restore.tool_list_stable && (listed !== null || withTool.restore.deferred_first_request),
    ],
    restore_called: [r ? `${toolName(r.tool)}("${r.restore_id}"), MCP ${r.mcp_status ?? "no answer"}${r.mcp_is_error ? " isError" : ""}` : "no restore call", r !== null && r.mcp_status === 200 && !r.mcp_is_error],
    restore_bytes_equal: [
      r ? `removed ${r.removed_bytes} B; MCP text ${r.mcp_text_bytes ?? "—"} B ${r.mcp_equal ? "equal" : "DIFFERENT"}${r.mcp_blocks > 1 ? ` (+ the call's input: ${r.mcp_blocks} blocks)` : ""}; to the model ${r.delivered_text_bytes} B, ${r.delivered_equal ? "the answer unchanged" : "NOT the answer"}${r.delivered_wrapped ? " (unwrapped)" : ""}${r.delivered_framing ? ` after the client's ${JSON.stringify(r.delivered_framing.before)}${r.delivered_framing.after ? ` and before ${JSON.stringify(r.delivered_framing.after)}` : ""}` : ""}` : "no restore call",
      r !== null && r.removed_bytes > 0 && r.mcp_equal && r.delivered_equal,
    ],
    cache_hit_within_1pt: [`${pct(withTool.cache_hit_ratio)} with the tool, ${pct(without.cache_hit_ratio)} without (${(gap * 100).toFixed(2)} pt)`, gap <= MAX_HIT_RATIO_GAP && withTool.billed.input_tokens > 0],
  };
  return (Object.keys(checks) as RestoreCheckName[]).map((check) => ({ setting, check, figure: checks[check][0], pass: checks[check][1] }));
}

/** Runs the restore settings (never throws for a failing session). */
export async function runRestore(opts: RestoreRunOptions): Promise<RestoreReport> {
  const { upstream, log } = opts;
  return withGateway(upstream.url, JSON.stringify(RESTORE_CONFIG), async ({ url, proxy }) => {
    log(`restore: sluice ${url} (${JSON.stringify(RESTORE_CONFIG)}), proxy ${proxy.url}`);
    const sessions: RestoreSession[] = [];
    const checks: RestoreCheck[] = [];
    for (const setting of opts.settings) {
      const base = RESTORE_BASE[setting];
      const pair: RestoreSession[] = [];
      for (const mcp of [true, false]) {
        const codex = isCodex(base);
        const apiKey = `${codex ? "sk" : "sk-ant"}-e2e-${setting}-${mcp ? "mcp" : "plain"}-${opts.nonce}`;
        const projectDir = writeFixtureProject(mkdtempSync(join(opts.scratch, "proj-")));
        const home = mkdtempSync(join(opts.scratch, "home-"));
        upstream.register(apiKey, { projectDir, label: `${setting}-${mcp ? "mcp" : "plain"}` });
        const root = `${proxy.url}/${codex ? "openai/v1" : "anthropic"}`;
        log(`${setting} ${mcp ? "with" : "without"} the MCP tool: running`);
        const result = await runClient(opts.clients, { setting: base, baseUrl: root, apiKey, projectDir, home, timeoutMs: 300_000, env: RESTORE_CLIENT_ENV[setting], ...(mcp ? { mcpUrl: `${proxy.url}${MCP_PATH}` } : {}) });
        const sent = proxy.requests.filter((r) => keyOf(r) === apiKey);
        const forwarded = upstream.requests(apiKey);
        const billed = billedOf(upstream.totals(apiKey, codex ? "openai" : "anthropic"), forwarded);
        const finalText = (SESSION_PLAN[SESSION_PLAN.length - 1] as { text: string }).text;
        const session: RestoreSession = {
          setting, mcp,
          completed: result.exitCode === 0 && result.stdout.includes(finalText),
          exit_code: result.exitCode,
          figures: analyzeSession({ api: codex ? "openai-responses" : "anthropic", sent: sent.filter((r) => !r.url.startsWith(MCP_PATH)), forwarded }),
          billed,
          cache_hit_ratio: billed.input_tokens === 0 ? 0 : billed.cache_read / billed.input_tokens,
          restore: analyzeRestore(codex ? "openai-responses" : "anthropic", sent),
          stderr_tail: result.exitCode === 0 ? "" : (result.stderr + result.stdout).slice(-1500),
        };
        pair.push(session);
        sessions.push(session);
        log(`${setting} ${mcp ? "with" : "without"}: ${session.completed ? "completed" : `NOT completed (exit ${result.exitCode})`}, ${session.figures.requests} requests, ${session.figures.steps} steps, hit ${pct(session.cache_hit_ratio)}, restore ${JSON.stringify(session.restore.restore)}`);
      }
      checks.push(...evaluateRestore(setting, pair[0]!, pair[1]!));
    }
    return { config: RESTORE_CONFIG, sessions, checks };
  });
}
