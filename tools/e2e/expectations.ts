/**
 * The conformance checks per session (pure) and the ones known to fail on today's main, each
 * with the reason and the change expected to make it pass. A known failure is still run and
 * reported; the vitest project marks it `fails`, so it turns red the day it starts passing and
 * the entry below must be removed.
 */
import type { CompactProbe } from "./compact-probe";
import type { SessionReport } from "./run-session";
import { SETTING_SPECS, type ClientSetting } from "./settings";

/**
 * Billed input tokens through Sluice must be at least this much lower than without. At the
 * conformance config (./run-e2e.ts E2E_COMPACTION_CONFIG: a 16-turn working set, R's floor 8) each
 * session takes one step and saved 19.4 % to 34.4 % (claude-4x-thinking to codex-default) in the
 * runs measured (docs/dev/e2e-clients.md).
 */
export const MIN_BILLED_REDUCTION = 0.15;

/**
 * Input dollars through Sluice may exceed the direct session's by at most this ratio. Two
 * sessions of the same setting never send quite the same prompts (temp folder names, session
 * ids, the wall times Codex prints in tool outputs): in runs of `codex-autocompact`, where Sluice
 * forwarded every request untouched, the Sluice session's input cost differed from the direct
 * one's by −0.05 % to +0.05 % (five runs).
 */
export const MAX_INPUT_COST_RATIO = 1.005;

/** The checks, by name. */
export type CheckName =
  | "completes"
  | "no_validation_errors"
  | "compaction_steps"
  | "billed_input_reduction"
  | "input_cost_not_higher"
  | "no_dangling_references"
  | "prefix_changes_only_at_steps"
  | "websocket_answered_fast"
  | "compaction_trigger_untouched"
  | "compact_route_passthrough";

/** A WebSocket upgrade on a chat route must be answered (proxied or refused) within this many ms: one deliberate, fast answer. */
export const MAX_WEBSOCKET_ANSWER_MS = 1_000;

/** One check's outcome for a setting. */
export interface CheckResult {
  setting: ClientSetting;
  check: CheckName;
  /** The measured figure, as printed. */
  figure: string;
  pass: boolean;
  /** Why it is expected to fail today (and what fixes it), when it is. */
  known_failing: string | null;
}

/** The checks every setting is asked. */
export const COMMON_CHECKS: readonly CheckName[] = ["completes", "no_validation_errors", "input_cost_not_higher", "no_dangling_references", "prefix_changes_only_at_steps", "websocket_answered_fast"];

/**
 * The checks of a setting. A setting where the client compacts itself (`autoCompactTokens`)
 * checks the compaction traffic instead of Sluice's savings: once a `compaction` item is in the
 * history, Sluice stands aside (DESIGN §6), and Codex compacts before Sluice's first step.
 */
export function checksFor(setting: ClientSetting): readonly CheckName[] {
  return SETTING_SPECS[setting].autoCompactTokens !== undefined
    ? [...COMMON_CHECKS, "compaction_trigger_untouched", "compact_route_passthrough"]
    : [...COMMON_CHECKS, "compaction_steps", "billed_input_reduction"];
}

/**
 * Checks expected to fail today, with their reason and what fixes them (none at present).
 * Remove an entry once its fix has merged (the e2e vitest project then fails until it is removed).
 */
export const KNOWN_FAILING: Partial<Record<ClientSetting, Partial<Record<CheckName, string>>>> = {};

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

/** The checks of one setting from its direct and through-Sluice sessions and, for a self-compacting setting, the `/responses/compact` probe (absent: that check fails). */
export function evaluate(setting: ClientSetting, direct: SessionReport, sluice: SessionReport, probe?: CompactProbe): CheckResult[] {
  const f = sluice.figures;
  const reduction = direct.billed.input_tokens === 0 ? 0 : 1 - sluice.billed.input_tokens / direct.billed.input_tokens;
  const costRatio = direct.billed.input_cost_usd === 0 ? Infinity : sluice.billed.input_cost_usd / direct.billed.input_cost_usd;
  const all: Record<CheckName, [string, boolean]> = {
    completes: [`direct ${direct.completed ? "yes" : "no"}, sluice ${sluice.completed ? "yes" : "no"}`, direct.completed && sluice.completed],
    no_validation_errors: [`${f.validation_errors} (direct ${direct.figures.validation_errors})`, f.validation_errors === 0 && direct.figures.validation_errors === 0],
    compaction_steps: [`${f.steps} of ${f.requests} requests`, f.steps > 0],
    billed_input_reduction: [`${pct(reduction)} (${direct.billed.input_tokens} → ${sluice.billed.input_tokens} tokens)`, reduction >= MIN_BILLED_REDUCTION],
    input_cost_not_higher: [`$${direct.billed.input_cost_usd.toFixed(4)} → $${sluice.billed.input_cost_usd.toFixed(4)} (${pct(costRatio - 1)})`, costRatio <= MAX_INPUT_COST_RATIO],
    no_dangling_references: [`${f.dangling_references} of ${f.reference_replies} reference replies`, f.dangling_references === 0],
    prefix_changes_only_at_steps: [`${f.prefix_changes_outside_steps} changes outside steps`, f.prefix_changes_outside_steps === 0],
    websocket_answered_fast: [
      `${sluice.websocket.attempts} attempts, answers ${JSON.stringify(sluice.websocket.statuses)}, slowest ${sluice.websocket.max_answer_ms} ms`,
      !("none" in sluice.websocket.statuses) && sluice.websocket.max_answer_ms <= MAX_WEBSOCKET_ANSWER_MS,
    ],
    compaction_trigger_untouched: [`${f.triggers_untouched} of ${f.trigger_requests} trigger requests forwarded as sent (direct ${direct.figures.trigger_requests})`, f.trigger_requests > 0 && f.triggers_untouched === f.trigger_requests],
    compact_route_passthrough: probe
      ? [
          `status ${probe.status}, ${probe.bytes} B, request ${probe.request_untouched ? "as sent" : "CHANGED"}, answer ${probe.answer_untouched ? "as answered" : "CHANGED"}, x-sluice headers ${probe.sluice_headers.join(",") || "none"}`,
          probe.status === 200 && probe.request_untouched && probe.answer_untouched && !probe.sluice_headers.includes("x-sluice-compaction"),
        ]
      : ["not probed", false],
  };
  return checksFor(setting).map((check) => ({ setting, check, figure: all[check][0], pass: all[check][1], known_failing: KNOWN_FAILING[setting]?.[check] ?? null }));
}
