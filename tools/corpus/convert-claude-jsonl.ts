/**
 * Converter of Claude Code session transcripts (`~/.claude/projects/<dir>/<session>.jsonl`) →
 * corpus sessions (pure). The merge rules are the replay reader's (tools/replay/
 * read-claude-code.ts): the history of the last call plus its reply is the whole conversation,
 * so `npm run replay` gives the same calls from the corpus file as from the transcript.
 * `timestamps[k-1]` carries the time of the call starting at message k (the reader's call time);
 * other entries are null. A transcript with a compact boundary has two histories and is refused.
 */
import { readClaudeCode } from "../replay/read-claude-code";
import type { JsonObject } from "../replay/types";
import type { CorpusSource } from "./corpus-file";
import type { Converted } from "./convert-session-export";

/** Converts one transcript's text. Throws naming the file when it has no call or restarts its history. */
export function convertClaudeJsonl(text: string, id: string, source: Omit<CorpusSource, "agent" | "format">, name: string): Converted {
  const session = readClaudeCode(text, name);
  const last = session.calls[session.calls.length - 1];
  if (last === undefined) throw new Error(`${name}: no model call in the transcript`);
  if (session.notes.some((n) => n.includes("compact boundary"))) throw new Error(`${name}: the transcript restarts its history at a compact boundary; not one conversation`);
  const history = last.body.messages as JsonObject[];
  // The reader puts Claude Code's cache breakpoint back on the last message of each request;
  // it was never recorded, so the corpus keeps the message without it.
  const lastMsg = history[history.length - 1]!;
  const messages: JsonObject[] = [...history.slice(0, -1), stripBreakpoint(lastMsg), last.reply as JsonObject];
  const timestamps: (string | null)[] = messages.map(() => null);
  let k = 0;
  for (const call of session.calls) {
    // The i-th assistant message is the i-th call (the reader skips none here: checked below).
    while (k < messages.length && messages[k]!.role !== "assistant") k++;
    if (call.timestamp_ms !== null && k > 0) timestamps[k - 1] = new Date(call.timestamp_ms).toISOString();
    k++;
  }
  const assistants = messages.filter((m) => m.role === "assistant").length;
  if (assistants !== session.calls.length) throw new Error(`${name}: ${assistants} assistant messages for ${session.calls.length} calls`);
  const model = session.notes.some((n) => n.startsWith("model not recorded")) ? null : session.model;
  return {
    file: { id, source: { ...source, agent: "claude-code", format: "claude-code-jsonl" }, provider: "anthropic", model, system: null, tools: [], messages, timestamps },
    notes: session.notes.filter((n) => !n.startsWith("model not recorded")),
  };
}

function stripBreakpoint(m: JsonObject): JsonObject {
  if (!Array.isArray(m.content)) return m;
  return {
    ...m,
    content: m.content.map((b) => {
      if (typeof b !== "object" || b === null || Array.isArray(b) || !("cache_control" in b)) return b;
      const { cache_control: _dropped, ...rest } = b;
      return rest;
    }),
  };
}
