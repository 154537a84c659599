/**
 * Used after removal, per call (pure; definition and examples in docs/replay.md). A call is used
 * after removal when its recorded answer holds a project-specific token (./project-tokens.ts, not
 * common vocabulary: ./common-vocabulary.ts) that the original request held and the forwarded
 * one does not: the agent, as recorded, wrote something the strategy had hidden from it.
 *
 * Split in two so a replay does the strategy-free half once per call:
 * - `answerCandidates`: the answer's tokens outside the vocabulary that the original request
 *   holds (the same for every strategy);
 * - `usedAfterRemoval`: those the forwarded request does not hold.
 * Then `holdersOf` says, for each such token, which removed pairs held it in the original
 * request (the tool call's input or its result), so a removal can be charged to what removed it.
 */
import { partsHave } from "./body-tokens";
import { jsonTokens } from "./project-tokens";
import { historyOf, parseResultKey, toolCallsIn, toolResultsIn } from "./tool-pairs";
import type { Json, JsonObject, Provider } from "./types";

/** The answer's tokens outside `vocabulary` that `original` (the original request's parts: ./body-tokens.ts) holds, sorted. */
export function answerCandidates(reply: Json, original: readonly ReadonlySet<string>[], vocabulary: ReadonlySet<string>): string[] {
  return [...jsonTokens(reply)].filter((t) => !vocabulary.has(t) && partsHave(original, t)).sort();
}

/** The candidates the forwarded request (its parts) does not hold, in the candidates' order. */
export function usedAfterRemoval(candidates: readonly string[], forwarded: readonly ReadonlySet<string>[]): string[] {
  return candidates.filter((t) => !partsHave(forwarded, t));
}

/**
 * For each token, the result keys (./tool-pairs.ts ToolResultRef.key) among `removed` whose pair
 * held it in `original`: in the tool call's input or in its result. A token no removed pair held
 * maps to [] (a strategy that removed something else, e.g. a whole stretch of history).
 */
export function holdersOf(provider: Provider, original: JsonObject, removed: readonly string[], tokens: readonly string[]): Record<string, string[]> {
  const history = historyOf(provider, original);
  const results = new Map(toolResultsIn(provider, history).map((r) => [r.key, r.text]));
  const calls = toolCallsIn(provider, history);
  const pairTokens = removed.map((key) => {
    const { id, occurrence } = parseResultKey(key);
    const call = calls.filter((c) => c.id === id)[occurrence - 1];
    // A text that encodes JSON (a function call's arguments, a JSON tool output) is read as what it encodes, as in the request's parts.
    const set = jsonTokens(results.get(key) ?? "");
    if (call !== undefined) for (const t of jsonTokens(call.input)) set.add(t);
    return { key, set };
  });
  return Object.fromEntries(tokens.map((t) => [t, pairTokens.filter((p) => p.set.has(t)).map((p) => p.key)]));
}
