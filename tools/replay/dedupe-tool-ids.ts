/**
 * Repairs repeated Anthropic `tool_use` ids in a recorded history (pure). The Messages API
 * refuses a request in which one id appears twice ("messages.{i}.content.{j}: `tool_use` ids
 * must be unique" — docs/emulator.md rule A16), so no request the agent really sent held such a
 * history; recordings can (cc-brain-explore-cleanup and -ies-thinking repeat a stretch of their
 * transcript with the same ids: an export artefact). Each repeat of an id becomes
 * `<id>_dup<n>` (n = 1, 2, … per id, within the API's id pattern ^[a-zA-Z0-9_-]+$), and so does
 * the first later `tool_result` answering it. Nothing else changes; unchanged messages are the
 * same objects.
 */
import type { Json, JsonObject } from "./types";

const isObj = (v: Json | undefined): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

/** The history with repeated tool_use ids renamed, and how many were renamed. */
export function dedupeToolUseIds(messages: readonly Json[]): { messages: Json[]; renamed: number } {
  const seen = new Map<string, number>();
  const pending = new Map<string, string>();
  let renamed = 0;
  const out = messages.map((m): Json => {
    if (!isObj(m) || !Array.isArray(m.content)) return m;
    let changed = false;
    const content = m.content.map((b): Json => {
      if (!isObj(b)) return b;
      if (m.role === "assistant" && b.type === "tool_use" && typeof b.id === "string") {
        const n = seen.get(b.id);
        seen.set(b.id, (n ?? 0) + 1);
        if (n === undefined) return b;
        const id = `${b.id}_dup${n}`;
        pending.set(b.id, id);
        renamed++;
        changed = true;
        return { ...b, id };
      }
      if (m.role === "user" && b.type === "tool_result" && typeof b.tool_use_id === "string" && pending.has(b.tool_use_id)) {
        const id = pending.get(b.tool_use_id)!;
        pending.delete(b.tool_use_id);
        changed = true;
        return { ...b, tool_use_id: id };
      }
      return b;
    });
    return changed ? { ...m, content } : m;
  });
  return { messages: out, renamed };
}

/** The id a recorded call had before dedupeToolUseIds renamed a repeat of it (`<id>_dup<n>` → `<id>`); other ids as they are. */
export function recordedToolUseId(id: string): string {
  return id.replace(/_dup\d+$/, "");
}

/** The note a reader adds when it renamed ids. */
export function dedupeNote(renamed: number): string {
  return `renamed ${renamed} repeated tool_use id(s) to <id>_dup<n> (the API refuses a request repeating an id)`;
}
