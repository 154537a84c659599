/**
 * Shape and serialisation of one evaluation-corpus session (pure). The format is the shared
 * corpus format that tools/replay/read-corpus.ts reads (../shared/corpus/MANIFEST.md): every
 * assistant message (Anthropic, Chat) or each `call_starts` index (Responses) is one model call
 * whose request was the history before it. `source` carries the provenance and is ignored by
 * the replay.
 */
import type { Json, JsonObject, Provider } from "../replay/types";

/** Where a session came from and what it is. */
export interface CorpusSource {
  /** GitHub owner/name. */
  repo: string;
  /** Path of the source file inside the repository. */
  path: string;
  /** Full 40-hex commit the file was read at. */
  commit: string;
  license: string;
  /** Agent that recorded the session (claude-code, codex, opencode, mini-swe-agent). */
  agent: string;
  /** Source format, as converted (session-export, claude-code-jsonl, mini-swe-agent-traj). */
  format: string;
}

/** One session file of the corpus. `timestamps[i]` belongs to `messages[i]`. */
export interface CorpusFile {
  id: string;
  source: CorpusSource;
  provider: Provider;
  model: string | null;
  system: Json | null;
  tools: JsonObject[];
  messages: JsonObject[];
  timestamps: (string | null)[];
  /** Responses only: index k of each call's first output item (request = messages[:k]). */
  call_starts?: number[];
}

/** The exact bytes committed for a session: compact JSON, keys in the order above, one trailing newline. */
export function serializeCorpusFile(f: CorpusFile): string {
  const ordered: Record<string, unknown> = {
    id: f.id,
    source: f.source,
    provider: f.provider,
    model: f.model,
    system: f.system,
    tools: f.tools,
    messages: f.messages,
    timestamps: f.timestamps,
  };
  if (f.call_starts !== undefined) ordered.call_starts = f.call_starts;
  return `${JSON.stringify(ordered)}\n`;
}

/** Number of model calls in a corpus file (assistant messages, or `call_starts` entries). */
export function countCalls(f: Pick<CorpusFile, "provider" | "messages" | "call_starts">): number {
  if (f.provider === "openai-responses") return f.call_starts?.length ?? 0;
  return f.messages.filter((m) => m.role === "assistant").length;
}
