/**
 * A small recorded Anthropic session for replay tests: four calls reading files a, b, then a
 * again (a re-fetch once t1's result is removed). `t1Result` is the text of the first result.
 */
import { readCorpus } from "../../tools/replay/read-corpus";
import type { RecordedSession } from "../../tools/replay/types";

/** A recorded Anthropic session `id` of `messages` (model claude-sonnet-4-5-20250929, no timestamps), read as the replay reads the corpus. */
export function anthropicSession(id: string, messages: readonly unknown[]): RecordedSession {
  return readCorpus(
    JSON.stringify({ id, provider: "anthropic", model: "claude-sonnet-4-5-20250929", system: null, tools: [], messages, timestamps: messages.map(() => null) }),
    `${id}.json`,
  );
}

/** The session `id` (model claude-sonnet-4-5-20250929, no timestamps). */
export function litSession(id: string, t1Result = "A"): RecordedSession {
  return anthropicSession(id, [
    { role: "user", content: "go" },
    { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Read", input: { p: "a" } }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: t1Result }] },
    { role: "assistant", content: [{ type: "tool_use", id: "t2", name: "Read", input: { p: "b" } }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "t2", content: "B" }] },
    { role: "assistant", content: [{ type: "tool_use", id: "t3", name: "Read", input: { p: "a" } }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "t3", content: "A" }] },
    { role: "assistant", content: [{ type: "text", text: "done" }] },
  ]);
}
