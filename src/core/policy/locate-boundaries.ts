/**
 * Where the protected recent turns start and where the previously-sent (cached) part of a
 * request ends (pure). Turn indexes as defined in src/core/view/types.ts.
 */
import type { PairFacts, StepFacts } from "../facts/step-facts";

/** Message roles / Responses item types that are model output. */
const OUTPUT_ROLES = new Set(["assistant", "reasoning", "function_call", "custom_tool_call", "local_shell_call", "web_search_call", "file_search_call", "computer_call", "code_interpreter_call", "image_generation_call", "mcp_call"]);

/** Highest turn index a message may have to be editable: turn_count − preserve_recent_turns. */
export function lastEditableTurn(view: StepFacts, preserve_recent_turns: number): number {
  return view.turn_count - preserve_recent_turns;
}

/** Index of the first message of the protected recent turns (messages.length when none). */
export function protectedStart(view: StepFacts, preserve_recent_turns: number): number {
  const last = lastEditableTurn(view, preserve_recent_turns);
  const i = view.messages.findIndex((m) => m.turn_index > last);
  return i < 0 ? view.messages.length : i;
}

/** True when both halves of the pair lie in editable (non-recent) turns. */
export function pairIsOld(view: StepFacts, pair: PairFacts, preserve_recent_turns: number): boolean {
  const last = lastEditableTurn(view, preserve_recent_turns);
  const r = view.messages[pair.result.message_index];
  const c = view.messages[pair.call.message_index];
  return r !== undefined && c !== undefined && r.turn_index <= last && c.turn_index <= last;
}

/**
 * End of the part the previous request already sent: the index of the first message of the
 * last run of model output (the previous call's answer and everything after it are new).
 */
export function cachedEnd(view: StepFacts): number {
  let i = view.messages.length - 1;
  while (i >= 0 && !OUTPUT_ROLES.has(view.messages[i]!.role)) i--;
  while (i > 0 && OUTPUT_ROLES.has(view.messages[i - 1]!.role)) i--;
  return Math.max(0, i);
}
