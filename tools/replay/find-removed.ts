/**
 * What a strategy removed from one request, and which removals the agent later re-fetched (pure).
 * - Removed: a tool result of the original body whose call id is absent from the sent body, or
 *   whose content differs (cleared, masked, truncated). Works for any strategy, Sluice included,
 *   because it only compares bodies.
 * - Re-fetch (issue 7): a removed result whose same tool call — same tool name and same
 *   canonical input — is issued again by the recorded session in the reply to the call where
 *   the removal first took effect or any later call.
 */
import { historyOf, parseResultKey, replyToolCalls, toolCallsIn, toolResultsIn } from "./tool-pairs";
import type { JsonObject, Provider, RecordedSession } from "./types";

/** Result keys (call id, "#n" for a repeated id) whose result the sent body dropped or altered, in original order. */
export function findRemovedResults(provider: Provider, original: JsonObject, sent: JsonObject): string[] {
  const sentResults = new Map(toolResultsIn(provider, historyOf(provider, sent)).map((r) => [r.key, r.content_key]));
  return toolResultsIn(provider, historyOf(provider, original))
    .filter((r) => sentResults.get(r.key) !== r.content_key)
    .map((r) => r.key);
}

/** Number of removed pairs (result key → index of the call where first removed) that the session fetches again later. */
export function countRefetches(session: RecordedSession, removedFirstAt: ReadonlyMap<string, number>): number {
  const p = session.provider;
  const replyCalls = session.calls.map((c) => replyToolCalls(p, c.reply));
  let count = 0;
  for (const [key, k] of removedFirstAt) {
    const call = session.calls[k];
    if (call === undefined) continue;
    const { id, occurrence } = parseResultKey(key);
    const def = toolCallsIn(p, historyOf(p, call.body)).filter((c) => c.id === id)[occurrence - 1];
    if (def === undefined) continue;
    const again = replyCalls.slice(k).some((calls) => calls.some((c) => c.name === def.name && c.input === def.input));
    if (again) count++;
  }
  return count;
}
