/**
 * Re-targets recorded Anthropic sessions to another model (pure), for `--retarget-anthropic`:
 * the same histories replayed as if the agent had run on, e.g., `claude-opus-5-5` (a model whose
 * API runs the preserved-thinking prefix check), so the report compares what the splice and
 * native mechanisms save on the same sessions. Only `model` changes (the session's and every
 * call body's); OpenAI sessions are returned as they are. Inputs are not mutated.
 */
import type { RecordedSession } from "./types";

/** `sessions` with every Anthropic session's model set to `model`. */
export function retargetAnthropic(sessions: readonly RecordedSession[], model: string): RecordedSession[] {
  return sessions.map((s) =>
    s.provider !== "anthropic"
      ? s
      : { ...s, model, calls: s.calls.map((c) => ({ ...c, body: { ...c.body, model } })), notes: [...s.notes, `model re-targeted from ${s.model} to ${model}`] },
  );
}
