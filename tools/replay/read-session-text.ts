/**
 * Picks the reader for a session file by its content (pure): a JSON object with `messages`
 * and `provider` is our corpus format; JSONL whose lines carry `payload` with type
 * session_meta / response_item / turn_context is a Codex rollout; JSONL with user/assistant
 * lines carrying `message` is a Claude Code transcript.
 */
import { parseJsonl } from "./parse-jsonl";
import { readClaudeCode } from "./read-claude-code";
import { readCodexRollout } from "./read-codex-rollout";
import { readCorpus } from "./read-corpus";
import type { RecordedSession } from "./types";

const CODEX_TYPES = new Set(["session_meta", "response_item", "turn_context", "event_msg", "compacted"]);

/** Reads one session file's text, whatever its format. Throws naming the file when no reader fits. */
export function readSessionText(text: string, name: string): RecordedSession {
  let whole: unknown;
  try {
    whole = JSON.parse(text);
  } catch {
    whole = undefined; // not one JSON document: JSONL
  }
  if (typeof whole === "object" && whole !== null && Array.isArray((whole as Record<string, unknown>).messages) && typeof (whole as Record<string, unknown>).provider === "string") {
    return readCorpus(text, name);
  }
  const lines = parseJsonl(text, name);
  if (lines.some((l) => typeof l.value.type === "string" && CODEX_TYPES.has(l.value.type) && "payload" in l.value)) return readCodexRollout(text, name);
  if (lines.some((l) => (l.value.type === "user" || l.value.type === "assistant") && "message" in l.value)) return readClaudeCode(text, name);
  throw new Error(`${name}: not a corpus JSON file, a Claude Code transcript or a Codex rollout`);
}
