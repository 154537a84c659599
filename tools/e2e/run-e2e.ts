/**
 * The real-client conformance run (Node shell): installs the pinned clients, starts the scripted
 * upstream, `wrangler dev` with SLUICE_COMPACTION=1 in front of it and the recording proxy in
 * front of Sluice, then runs every client setting twice — straight at the upstream (the
 * baseline bill) and through Sluice — then the restore settings (./run-restore.ts: Sluice's MCP
 * tool configured in the real clients) — and returns each session's figures, the checks and an
 * inventory of what the clients sent. Sessions run one after another (2-core machines).
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { startWranglerDev } from "../shared/start-wrangler-dev";
import { analyzeSession, type ClientApi, type SessionFigures } from "./analyze-session";
import { inventory, type ClientInventory } from "./client-inventory";
import { runCompactProbe, type CompactProbe } from "./compact-probe";
import { evaluate, type CheckResult } from "./expectations";
import { writeFixtureProject } from "./fixture-project";
import { CLIENT_VERSIONS, installClients } from "./install-clients";
import { startRecordProxy } from "./record-proxy";
import type { RecordedRequest, RecordedUpgrade } from "./request-record";
import type { Json } from "../emulator/shared/json";
import { runClient } from "./run-client";
import { RESTORE_SETTINGS, runRestore, type RestoreReport, type RestoreSetting } from "./run-restore";
import { SESSION_PLAN } from "./session-plan";
import { endsWithTrigger } from "./responses-lite";
import { isCodex, SETTING_SPECS, SETTINGS, type ClientSetting } from "./settings";
import { startScriptedUpstream } from "./upstream-server";

export { SETTINGS };

/** One client session's report. */
export interface SessionReport {
  setting: ClientSetting;
  mode: "direct" | "sluice";
  /** Exit code 0 and the scripted final answer in the client's output. */
  completed: boolean;
  exit_code: number | null;
  duration_ms: number;
  figures: SessionFigures;
  /** What the scripted upstream billed: input tokens (uncached + cache read + cache write) and their cost. */
  billed: { input_tokens: number; uncached: number; cache_read: number; cache_write: number; input_cost_usd: number };
  /** WebSocket upgrade attempts during the session: count, answers by status (`none` = no answer), slowest answer or give-up, ms. */
  websocket: { attempts: number; statuses: Record<string, number>; max_answer_ms: number };
  /** Transcript / rollout files kept (relative to the report folder). */
  transcripts: string[];
  /** Last lines of the client's stderr when it did not complete. */
  stderr_tail: string;
}

/** The whole run. */
export interface E2eReport {
  versions: typeof CLIENT_VERSIONS;
  /** The model each setting's direct session used (the client's default, or the pinned one). */
  models: Partial<Record<ClientSetting, string>>;
  plan_tool_steps: number;
  started_at: string;
  duration_ms: number;
  sessions: SessionReport[];
  checks: CheckResult[];
  /** The `/responses/compact` probe through Sluice, for each setting where the client compacts itself. */
  probes: Partial<Record<ClientSetting, CompactProbe>>;
  /** What each client sent (straight and through Sluice), by client. */
  inventory: Record<"claude" | "codex", ClientInventory>;
  /** Requests with an unregistered key at the upstream, and upgrade attempts outside any session. */
  strays: number;
  /** The restore settings (./run-restore.ts): real clients with Sluice's MCP server, a restore and its bytes; null when none ran. */
  restore: RestoreReport | null;
}

/**
 * The gateway's compaction config for the conformance sessions when none is given: the defaults
 * with `working_set_turns` 16. A scripted session is 41 requests, shorter than the default 48-turn
 * working set, so at the default every file it reads stays current for the whole session and
 * Sluice has almost nothing it may remove (measured: 0 steps for claude-4x-thinking); 16, a
 * documented point of the frontier (docs/dev/decisions/working-set.md), lets files leave it, so
 * the run exercises real edits through the real clients. `min_remaining_calls` 8 for the same
 * reason: at the default floor 2, R at call n is 1 + ⌊n/9⌋, and a step in the middle of a
 * 41-request session is priced over 3 or 4 more calls and declined (measured: 0 Claude Code
 * steps). What the default saves on recorded sessions is the replay's figure (docs/replay.md);
 * ./run-defaults.ts checks that the defaults cost no more than direct.
 */
export const E2E_COMPACTION_CONFIG = JSON.stringify({ working_set_turns: 16, min_remaining_calls: 8 });

/** Options: the report folder (transcripts are copied there) and a log sink. */
export interface RunOptions {
  reportDir: string;
  settings?: readonly ClientSetting[];
  log?: (line: string) => void;
  /** A COMPACTION_CONFIG block (JSON text) for the gateway, e.g. a guarantee level; absent: E2E_COMPACTION_CONFIG. */
  compactionConfig?: string;
  /** The restore settings to run (./run-restore.ts); absent: all of them. */
  restoreSettings?: readonly RestoreSetting[];
}

const apiOf = (s: ClientSetting): ClientApi => (isCodex(s) ? "openai-responses" : "anthropic");

/** Runs the conformance sessions and returns the report (never throws for a failing session). */
export async function runE2e(opts: RunOptions): Promise<E2eReport> {
  const log = opts.log ?? (() => {});
  const started = Date.now();
  const clients = installClients(log);
  const upstream = await startScriptedUpstream();
  const scratch = mkdtempSync(join(tmpdir(), "sluice-e2e-"));
  let dev: Awaited<ReturnType<typeof startWranglerDev>> | undefined;
  let proxy: Awaited<ReturnType<typeof startRecordProxy>> | undefined;
  try {
    dev = await startWranglerDev({ vars: { SLUICE_COMPACTION: "1", ANTHROPIC_BASE_URL: upstream.url, OPENAI_BASE_URL: upstream.url, COMPACTION_CONFIG: opts.compactionConfig ?? E2E_COMPACTION_CONFIG } });
    proxy = await startRecordProxy(dev.url);
    log(`upstream ${upstream.url}, sluice ${dev.url}, proxy ${proxy.url}`);
    const sessions: SessionReport[] = [];
    const sentBy: Record<"claude" | "codex", RecordedRequest[]> = { claude: [], codex: [] };
    const upgradesBy: Record<"claude" | "codex", RecordedUpgrade[]> = { claude: [], codex: [] };
    const probes: Partial<Record<ClientSetting, CompactProbe>> = {};
    for (const setting of opts.settings ?? SETTINGS) {
      for (const mode of ["direct", "sluice"] as const) {
        const api = apiOf(setting);
        const apiKey = `${api === "anthropic" ? "sk-ant" : "sk"}-e2e-${setting}-${mode}-${started.toString(36)}`;
        const projectDir = writeFixtureProject(mkdtempSync(join(scratch, "proj-")));
        const home = mkdtempSync(join(scratch, "home-"));
        upstream.register(apiKey, { projectDir, label: `${setting}-${mode}` });
        const root = mode === "direct" ? upstream.url : `${proxy.url}/${api === "anthropic" ? "anthropic" : "openai"}`;
        const baseUrl = api === "anthropic" ? root : `${root}/v1`;
        log(`${setting} ${mode}: running`);
        const wsBefore = (mode === "direct" ? upstream.upgrades : proxy.upgrades).length;
        const result = await runClient(clients, { setting, baseUrl, apiKey, projectDir, home, timeoutMs: 300_000 });
        const forwarded = upstream.requests(apiKey);
        const ws = (mode === "direct" ? upstream.upgrades : proxy.upgrades).slice(wsBefore);
        const statuses: Record<string, number> = {};
        for (const u of ws) statuses[String(u.status ?? "none")] = (statuses[String(u.status ?? "none")] ?? 0) + 1;
        const keyOf = (r: RecordedRequest) => r.headers["x-api-key"] ?? r.headers["authorization"]?.replace(/^Bearer\s+/i, "");
        const sent = mode === "direct" ? forwarded : proxy.requests.filter((r) => keyOf(r) === apiKey);
        sentBy[api === "anthropic" ? "claude" : "codex"].push(...sent);
        upgradesBy[api === "anthropic" ? "claude" : "codex"].push(...ws);
        const totals = upstream.totals(apiKey, api === "anthropic" ? "anthropic" : "openai");
        const keptDir = join(opts.reportDir, "transcripts", `${setting}-${mode}`);
        rmSync(keptDir, { recursive: true, force: true });
        mkdirSync(keptDir, { recursive: true });
        const transcripts = result.transcripts.map((t) => {
          cpSync(t, join(keptDir, basename(t)));
          return join("transcripts", `${setting}-${mode}`, basename(t));
        });
        const finalText = (SESSION_PLAN[SESSION_PLAN.length - 1] as { text: string }).text;
        const report: SessionReport = {
          setting,
          mode,
          completed: result.exitCode === 0 && result.stdout.includes(finalText),
          exit_code: result.exitCode,
          duration_ms: result.durationMs,
          figures: analyzeSession({ api, sent, forwarded }),
          billed: {
            input_tokens: totals.input_tokens + totals.cache_read_tokens + totals.cache_write_tokens,
            uncached: totals.input_tokens,
            cache_read: totals.cache_read_tokens,
            cache_write: totals.cache_write_tokens,
            input_cost_usd: forwarded.reduce((n, f) => n + Number(f.responseHeaders["x-emulator-input-cost-usd"] ?? 0), 0),
          },
          websocket: { attempts: ws.length, statuses, max_answer_ms: Math.max(0, ...ws.map((u) => u.answer_ms)) },
          transcripts,
          stderr_tail: result.exitCode === 0 ? "" : (result.stderr + result.stdout).slice(-1500),
        };
        sessions.push(report);
        log(`${setting} ${mode}: ${report.completed ? "completed" : `NOT completed (exit ${result.exitCode})`}, ${report.figures.requests} requests, ${report.figures.steps} steps, ${report.billed.input_tokens} input tokens billed`);
        if (mode === "direct" && SETTING_SPECS[setting].autoCompactTokens !== undefined) {
          // The probe's body comes from the client's first compaction request (else its last request).
          const parsed = (r: RecordedRequest) => { try { return JSON.parse(r.body) as Json; } catch { return null; } };
          const source = sent.find((r) => endsWithTrigger(parsed(r))) ?? sent[sent.length - 1];
          if (source) {
            const probeKey = `sk-e2e-probe-${setting}-${started.toString(36)}`;
            upstream.register(probeKey, { projectDir, label: `${setting}-probe` });
            probes[setting] = await runCompactProbe(dev.url, source, probeKey, () => upstream.requests(probeKey));
            log(`${setting}: /responses/compact probe ${JSON.stringify(probes[setting])}`);
          }
        }
      }
    }
    const restoreSettings = opts.restoreSettings ?? RESTORE_SETTINGS;
    const restore = restoreSettings.length === 0 ? null : await runRestore({ clients, upstream, scratch, nonce: started.toString(36), settings: restoreSettings, log });
    const checks = (opts.settings ?? SETTINGS).flatMap((s) => {
      const direct = sessions.find((r) => r.setting === s && r.mode === "direct")!;
      const sluice = sessions.find((r) => r.setting === s && r.mode === "sluice")!;
      return evaluate(s, direct, sluice, probes[s]);
    });
    return {
      versions: CLIENT_VERSIONS,
      models: Object.fromEntries(sessions.filter((r) => r.mode === "direct").map((r) => [r.setting, r.figures.model])),
      plan_tool_steps: SESSION_PLAN.length - 1,
      started_at: new Date(started).toISOString(),
      duration_ms: Date.now() - started,
      sessions,
      checks,
      probes,
      inventory: { claude: inventory(sentBy.claude, upgradesBy.claude), codex: inventory(sentBy.codex, upgradesBy.codex) },
      restore,
      strays: upstream.strays.length + upstream.upgrades.length + proxy.upgrades.length - upgradesBy.claude.length - upgradesBy.codex.length,
    };
  } finally {
    await proxy?.close();
    await dev?.close();
    await upstream.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}
