/**
 * The defaults pass of the conformance run (Node shell): a second `wrangler dev` whose
 * COMPACTION_CONFIG is `{}` (every key at its default), behind its own recording proxy, and per
 * setting one more session through it, compared with the setting's direct session of the main
 * pass (a direct session never touches a gateway, so it is the baseline of both). The main pass
 * runs at ./run-e2e.ts E2E_COMPACTION_CONFIG, which makes a 41-request session take steps; this
 * pass checks that at the config users get, no setting costs more through Sluice than direct.
 */
import { COMMON_CHECKS, evaluate, type CheckName, type CheckResult } from "./expectations";
import { withGateway } from "./gateway";
import { runSession, type SessionContext, type SessionReport } from "./run-session";
import { SETTING_SPECS, type ClientSetting } from "./settings";

/** The defaults gateway's COMPACTION_CONFIG: no key, so each one takes its default. */
export const DEFAULTS_CONFIG = {} as const;

/**
 * The checks of a defaults session (the main pass's `evaluate`, these only): whether Sluice takes
 * a step or saves tokens at the defaults depends on the session's length, so `compaction_steps`
 * and `billed_input_reduction` are not asked; WebSocket answers do not depend on the config.
 */
export const DEFAULTS_CHECKS: readonly CheckName[] = COMMON_CHECKS.filter((c) => c !== "websocket_answered_fast");

/**
 * The settings of the defaults pass among `settings`: all but the ones where the client compacts
 * itself (`codex-autocompact`): Codex compacts before Sluice's first step and Sluice stands aside
 * from then on, so the gateway's config does not come into it.
 */
export function defaultsSettings(settings: readonly ClientSetting[]): ClientSetting[] {
  return settings.filter((s) => SETTING_SPECS[s].autoCompactTokens === undefined);
}

/** The defaults part of the report. */
export interface DefaultsReport {
  config: typeof DEFAULTS_CONFIG;
  /** The sessions through the defaults gateway (`mode: "sluice"`), one per setting. */
  sessions: SessionReport[];
  /** DEFAULTS_CHECKS per setting, each against the setting's direct session of the main pass. */
  checks: CheckResult[];
}

/** The checks of one setting's defaults session against its direct session (pure). */
export function evaluateDefaults(setting: ClientSetting, direct: SessionReport, defaults: SessionReport): CheckResult[] {
  return evaluate(setting, direct, defaults)
    .filter((c) => DEFAULTS_CHECKS.includes(c.check))
    .map((c) => ({ ...c, known_failing: null }));
}

/**
 * Runs the defaults session of each setting in `settings` that has a direct session in `directs`
 * and returns them with their checks (never throws for a failing session). Transcripts go to
 * `transcripts/<setting>-defaults/`.
 */
export async function runDefaults(ctx: SessionContext, settings: readonly ClientSetting[], directs: readonly SessionReport[]): Promise<DefaultsReport> {
  const todo = defaultsSettings(settings).flatMap((setting) => {
    const direct = directs.find((s) => s.setting === setting && s.mode === "direct");
    return direct ? [{ setting, direct }] : [];
  });
  if (todo.length === 0) return { config: DEFAULTS_CONFIG, sessions: [], checks: [] };
  return withGateway(ctx.upstream.url, JSON.stringify(DEFAULTS_CONFIG), async ({ url, proxy }) => {
    ctx.log(`defaults: sluice ${url} (${JSON.stringify(DEFAULTS_CONFIG)}), proxy ${proxy.url}`);
    const sessions: SessionReport[] = [];
    const checks: CheckResult[] = [];
    for (const { setting, direct } of todo) {
      const { report } = await runSession(ctx, { setting, tag: "defaults", proxy });
      sessions.push(report);
      checks.push(...evaluateDefaults(setting, direct, report));
    }
    return { config: DEFAULTS_CONFIG, sessions, checks };
  });
}
