/**
 * What a strategy removed from one request, and which removals the agent later re-fetched (pure).
 * - Removed: a tool result of the original body whose call id is absent from the sent body, or
 *   whose content differs (cleared, masked, truncated). Works for any strategy, Sluice included,
 *   because it only compares bodies.
 * - Re-fetch: a removed result whose same tool call — same tool name and same
 *   canonical input — is issued again by the recorded session in the reply to the call where
 *   the removal first took effect or any later call. A repeat of the very same recorded call (the
 *   export's copy of it, renamed `<id>_dup<n>` by ./dedupe-tool-ids.ts) is not a new call and
 *   does not count.
 * - Re-mention: a removed pair whose file path or shell command (its mention keys:
 *   src/core/text/mention-keys.ts callMentionKeys, the keys the gateway's facts use) the agent's
 *   prose names in the reply to that call or any later one — the agent still talks about it.
 */
import { historyOf, parseResultKey, replyProse, replyToolCalls, toolCallsIn, toolResultsIn, type ToolCallRef } from "./tool-pairs";
import { readToolCall } from "../../src/core/engine/read-tool-call";
import { recordedToolUseId } from "./dedupe-tool-ids";
import { callMentionKeys, proseMentionKeys } from "../../src/core/text/mention-keys";
import type { JsonObject, Provider, RecordedSession } from "./types";

/** Result keys (call id, "#n" for a repeated id) whose result the sent body dropped or altered, in original order. */
export function findRemovedResults(provider: Provider, original: JsonObject, sent: JsonObject): string[] {
  const sentResults = new Map(toolResultsIn(provider, historyOf(provider, sent)).map((r) => [r.key, r.content_key]));
  return toolResultsIn(provider, historyOf(provider, original))
    .filter((r) => sentResults.get(r.key) !== r.content_key)
    .map((r) => r.key);
}

/** The call of a removed pair (result key, index of the call where first removed), or undefined. */
function removedCall(session: RecordedSession, key: string, k: number): ToolCallRef | undefined {
  const call = session.calls[k];
  if (call === undefined) return undefined;
  const { id, occurrence } = parseResultKey(key);
  return toolCallsIn(session.provider, historyOf(session.provider, call.body)).filter((c) => c.id === id)[occurrence - 1];
}

/** Number of removed pairs (result key → index of the call where first removed) that the session fetches again later. */
export function countRefetches(session: RecordedSession, removedFirstAt: ReadonlyMap<string, number>): number {
  const replyCalls = session.calls.map((c) => replyToolCalls(session.provider, c.reply));
  let count = 0;
  for (const [key, k] of removedFirstAt) {
    const def = removedCall(session, key, k);
    if (def === undefined) continue;
    const own = recordedToolUseId(def.id);
    const again = replyCalls.slice(k).some((calls) => calls.some((c) => c.name === def.name && c.input === def.input && recordedToolUseId(c.id) !== own));
    if (again) count++;
  }
  return count;
}

/** Number of removed pairs (result key → index of the call where first removed) whose path or command the agent's prose names at that call or later. */
export function countRementions(session: RecordedSession, removedFirstAt: ReadonlyMap<string, number>): number {
  const replyKeys = session.calls.map((c) => new Set(proseMentionKeys(replyProse(c.reply))));
  let count = 0;
  for (const [key, k] of removedFirstAt) {
    const def = removedCall(session, key, k);
    if (def === undefined) continue;
    const refs = callMentionKeys(readToolCall({ tool_name: def.name, input_text: def.input }));
    if (refs.length > 0 && replyKeys.slice(k).some((keys) => refs.some((r) => keys.has(r)))) count++;
  }
  return count;
}
