/**
 * What a strategy removed from one request, and which removals the agent later re-fetched (pure).
 * - Removed: a tool result of the original body whose call id is absent from the sent body, or
 *   whose content differs (cleared, masked, truncated). Works for any strategy, Sluice included,
 *   because it only compares bodies.
 * - Re-fetch (issue 7): a removed result whose same tool call — same tool name and same
 *   canonical input — is issued again by the recorded session in the reply to the call where
 *   the removal first took effect or any later call.
 */
import { historyOf, replyToolCalls, toolCallsIn, toolResultsIn } from "./tool-pairs";
import type { JsonObject, Provider, RecordedSession } from "./types";

/** Call ids whose result the sent body dropped or altered, in original order. */
export function findRemovedResults(provider: Provider, original: JsonObject, sent: JsonObject): string[] {
  const sentResults = new Map(toolResultsIn(provider, historyOf(provider, sent)).map((r) => [r.id, r.content_key]));
  return toolResultsIn(provider, historyOf(provider, original))
    .filter((r) => sentResults.get(r.id) !== r.content_key)
    .map((r) => r.id);
}

/** Number of removed pairs (id → index of the call where first removed) that the session fetches again later. */
export function countRefetches(session: RecordedSession, removedFirstAt: ReadonlyMap<string, number>): number {
  const p = session.provider;
  const replyCalls = session.calls.map((c) => replyToolCalls(p, c.reply));
  let count = 0;
  for (const [id, k] of removedFirstAt) {
    const call = session.calls[k];
    if (call === undefined) continue;
    const def = toolCallsIn(p, historyOf(p, call.body)).find((c) => c.id === id);
    if (def === undefined) continue;
    const again = replyCalls.slice(k).some((calls) => calls.some((c) => c.id !== id && c.name === def.name && c.input === def.input));
    if (again) count++;
  }
  return count;
}
