/**
 * The real-client conformance run (Node shell): installs the pinned clients, starts the scripted
 * upstream, `wrangler dev` with SLUICE_COMPACTION=1 in front of it and the recording proxy in
 * front of Sluice, then runs every client setting twice — straight at the upstream (the
 * baseline bill) and through Sluice (./run-session.ts) — then the defaults pass
 * (./run-defaults.ts: each setting once more through a gateway at the default config) and the
 * restore settings (./run-restore.ts: Sluice's MCP tool configured in the real clients) — and
 * returns each session's figures, the checks and an inventory of what the clients sent.
 * Sessions run one after another (2-core machines).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Json } from "../emulator/shared/json";
import { inventory, type ClientInventory } from "./client-inventory";
import { runCompactProbe, type CompactProbe } from "./compact-probe";
import { evaluate, type CheckResult } from "./expectations";
import { CLIENT_VERSIONS, installClients } from "./install-clients";
import { withGateway } from "./gateway";
import type { RecordedRequest, RecordedUpgrade } from "./request-record";
import { endsWithTrigger } from "./responses-lite";
import { runDefaults, type DefaultsReport } from "./run-defaults";
import { RESTORE_SETTINGS, runRestore, type RestoreReport, type RestoreSetting } from "./run-restore";
import { runSession, type SessionContext, type SessionReport } from "./run-session";
import { SESSION_PLAN } from "./session-plan";
import { SETTING_SPECS, SETTINGS, type ClientSetting } from "./settings";
import { startScriptedUpstream } from "./upstream-server";

export { SETTINGS };
export type { SessionReport };

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
  /** The defaults pass (./run-defaults.ts): each setting through a gateway at the default config, checked against its direct session. */
  defaults: DefaultsReport;
  /** The restore settings (./run-restore.ts): real clients with Sluice's MCP server, a restore and its bytes; null when none ran. */
  restore: RestoreReport | null;
}

/**
 * The gateway's compaction config for the conformance sessions when none is given: the defaults
 * with `working_set_turns` 16. A scripted session is 41 requests, about as long as the default
 * 40-turn working set, so at the default every file it reads stays current almost to its end and
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

/** Runs the conformance sessions and returns the report (never throws for a failing session). */
export async function runE2e(opts: RunOptions): Promise<E2eReport> {
  const log = opts.log ?? (() => {});
  const started = Date.now();
  const clients = installClients(log);
  const upstream = await startScriptedUpstream();
  const scratch = mkdtempSync(join(tmpdir(), "sluice-e2e-"));
  const nonce = started.toString(36);
  const settings = opts.settings ?? SETTINGS;
  try {
    return await withGateway(upstream.url, opts.compactionConfig ?? E2E_COMPACTION_CONFIG, async ({ url, proxy }) => {
      log(`upstream ${upstream.url}, sluice ${url}, proxy ${proxy.url}`);
      const sessions: SessionReport[] = [];
      const sentBy: Record<"claude" | "codex", RecordedRequest[]> = { claude: [], codex: [] };
      const upgradesBy: Record<"claude" | "codex", RecordedUpgrade[]> = { claude: [], codex: [] };
      const probes: Partial<Record<ClientSetting, CompactProbe>> = {};
      const ctx: SessionContext = { clients, upstream, scratch, nonce, reportDir: opts.reportDir, log };
      for (const setting of settings) {
        for (const mode of ["direct", "sluice"] as const) {
          const run = await runSession(ctx, { setting, tag: mode, ...(mode === "sluice" ? { proxy } : {}) });
          sessions.push(run.report);
          const client = SETTING_SPECS[setting].client;
          sentBy[client].push(...run.sent);
          upgradesBy[client].push(...run.upgrades);
          if (mode === "direct" && SETTING_SPECS[setting].autoCompactTokens !== undefined) {
            // The probe's body comes from the client's first compaction request (else its last request).
            const parsed = (r: RecordedRequest) => { try { return JSON.parse(r.body) as Json; } catch { return null; } };
            const source = run.sent.find((r) => endsWithTrigger(parsed(r))) ?? run.sent[run.sent.length - 1];
            if (source) {
              const probeKey = `sk-e2e-probe-${setting}-${nonce}`;
              upstream.register(probeKey, { projectDir: run.projectDir, label: `${setting}-probe` });
              probes[setting] = await runCompactProbe(url, source, probeKey, () => upstream.requests(probeKey));
              log(`${setting}: /responses/compact probe ${JSON.stringify(probes[setting])}`);
            }
          }
        }
      }
      const defaults = await runDefaults(ctx, settings, sessions);
      const restoreSettings = opts.restoreSettings ?? RESTORE_SETTINGS;
      const restore = restoreSettings.length === 0 ? null : await runRestore({ clients, upstream, scratch, nonce, settings: restoreSettings, log });
      const checks = settings.flatMap((s) => {
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
        defaults,
        restore,
        strays: upstream.strays.length + upstream.upgrades.length + proxy.upgrades.length - upgradesBy.claude.length - upgradesBy.codex.length,
      };
    });
  } finally {
    await upstream.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}
