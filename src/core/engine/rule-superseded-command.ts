/**
 * Rule: a command whose output was superseded — a later call of the same tool with the same
 * intent (the same shell command text, or the same read-only tool with the same input:
 * ./read-tool-call.ts) that did not fail. The later run is the current output; the earlier run,
 * call and output, goes whole: drop_pair, confidence 0.75 (a re-run reflects the same state or a
 * newer one, but what changed between the runs is no longer shown). Only shell commands and
 * read-only tools: another tool called twice with one input (an MCP "create", a poll of a
 * background shell that returns only new output) may have done or shown something different
 * each time. Edits are ./rule-superseded-edit.ts's concern.
 *
 * Small pairs stay (input + result under REPEATED_CALL_MIN_BYTES): a short check or status
 * (`node --check app.js`, `git status -sb`) is one the agent runs again after each change
 * whatever its context holds, so removing it saves under ~256 tokens while every later run counts
 * as a re-fetch of it (in the Codex corpus session such repeats were 44 of 49 re-fetches:
 * tools/replay/find-removed.ts).
 *
 * Evidence: the tool name, the intent hash (CallFacts.intent) and the failure flags — no text.
 */
import type { CallFacts, PairFacts } from "../facts/step-facts";
import type { Verdict, Verdicts } from "./verdict";

/** Confidence of a command run again later. */
export const SUPERSEDED_COMMAND_CONFIDENCE = 0.75;

/** Smallest shell or read-only pair (input + result bytes) removed for being repeated later; also used by ./rule-duplicate-result.ts. */
export const REPEATED_CALL_MIN_BYTES = 1024;

/** A shell command or read-only call whose input and result together are under REPEATED_CALL_MIN_BYTES. */
export function isSmallCommand(p: PairFacts): boolean {
  return (p.call_class.shell || p.call_class.readonly) && p.input_bytes + p.result_bytes < REPEATED_CALL_MIN_BYTES;
}

const DROP_PAIR: Verdict = Object.freeze({ kind: "drop_pair", confidence: SUPERSEDED_COMMAND_CONFIDENCE, rule: "superseded_command" });

/** Verdicts for superseded commands. Parallel arrays in call order; `failed[i]` marks failed calls (they supersede nothing). */
export function ruleSupersededCommand(pairs: PairFacts[], infos: CallFacts[], failed: boolean[]): Verdicts {
  const out: Verdicts = {};
  // Intents run later without failing, per tool (nested: no key string per pair).
  const later = new Map<string, Set<string>>();
  for (let i = pairs.length - 1; i >= 0; i--) {
    const c = infos[i]!;
    if (c.kind === "edit" || !(c.shell || c.readonly)) continue;
    const tool = pairs[i]!.tool_name;
    let intents = later.get(tool);
    if (intents?.has(c.intent) && !isSmallCommand(pairs[i]!)) out[pairs[i]!.id] = DROP_PAIR;
    if (failed[i] || pairs[i]!.reference_reply) continue;
    if (intents === undefined) later.set(tool, (intents = new Set()));
    intents.add(c.intent);
  }
  return out;
}
