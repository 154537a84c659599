/**
 * The conformance checks per session (pure) and the ones known to fail on today's main, each
 * with the reason and the change expected to make it pass. A known failure is still run and
 * reported; the vitest project marks it `fails`, so it turns red the day it starts passing and
 * the entry below must be removed.
 */
import type { ClientSetting } from "./settings";
import type { SessionReport } from "./run-e2e";

/** Billed input tokens through Sluice must be at least this much lower than without. */
export const MIN_BILLED_REDUCTION = 0.25;

/** The checks, by name. */
export type CheckName = "completes" | "no_validation_errors" | "compaction_steps" | "billed_input_reduction" | "no_dangling_references" | "prefix_changes_only_at_steps" | "websocket_answered_fast";

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

/**
 * Checks expected to fail today, with their reason and what fixes them (none at present).
 * Remove an entry once its fix has merged (the e2e vitest project then fails until it is removed).
 */
export const KNOWN_FAILING: Partial<Record<ClientSetting, Partial<Record<CheckName, string>>>> = {};

/** The checks of one setting from its direct and through-Sluice sessions. */
export function evaluate(setting: ClientSetting, direct: SessionReport, sluice: SessionReport): CheckResult[] {
  const f = sluice.figures;
  const reduction = direct.billed.input_tokens === 0 ? 0 : 1 - sluice.billed.input_tokens / direct.billed.input_tokens;
  const results: [CheckName, string, boolean][] = [
    ["completes", `direct ${direct.completed ? "yes" : "no"}, sluice ${sluice.completed ? "yes" : "no"}`, direct.completed && sluice.completed],
    ["no_validation_errors", `${f.validation_errors} (direct ${direct.figures.validation_errors})`, f.validation_errors === 0 && direct.figures.validation_errors === 0],
    ["compaction_steps", `${f.steps} of ${f.requests} requests`, f.steps > 0],
    ["billed_input_reduction", `${(reduction * 100).toFixed(1)} % (${direct.billed.input_tokens} → ${sluice.billed.input_tokens} tokens)`, reduction >= MIN_BILLED_REDUCTION],
    ["no_dangling_references", `${f.dangling_references} of ${f.reference_replies} reference replies`, f.dangling_references === 0],
    ["prefix_changes_only_at_steps", `${f.prefix_changes_outside_steps} changes outside steps`, f.prefix_changes_outside_steps === 0],
    [
      "websocket_answered_fast",
      `${sluice.websocket.attempts} attempts, answers ${JSON.stringify(sluice.websocket.statuses)}, slowest ${sluice.websocket.max_answer_ms} ms`,
      !("none" in sluice.websocket.statuses) && sluice.websocket.max_answer_ms <= MAX_WEBSOCKET_ANSWER_MS,
    ],
  ];
  return results.map(([check, figure, pass]) => ({ setting, check, figure, pass, known_failing: KNOWN_FAILING[setting]?.[check] ?? null }));
}
