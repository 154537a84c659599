/**
 * The replay driver's used-after-removal check (./used-after-removal.ts) with its caches: one
 * body-token memo for every body of the replay (./body-tokens.ts), the corpus's common
 * vocabulary (./common-vocabulary.ts, computed from the replayed sessions unless given), and
 * each call's strategy-free candidates, computed on the first strategy that asks.
 */
import { createBodyTokenCache } from "./body-tokens";
import { commonVocabulary } from "./common-vocabulary";
import { answerCandidates, holdersOf, usedAfterRemoval } from "./used-after-removal";
import type { JsonObject, RecordedCall, RecordedSession } from "./types";

/** One token a call used after removal, and the removed pairs (result keys) whose original content held it. */
export interface UsedToken {
  token: string;
  pairs: string[];
}

/** The check, bound to a replay's sessions. */
export interface UarProbe {
  /** The common vocabulary in use. */
  vocabulary: ReadonlySet<string>;
  /**
   * The tokens `call`'s answer used that `sent` (the body forwarded; null: unknown) no longer
   * holds, sorted, each with the pairs among `removed` (result keys) that held it.
   */
  check(session: RecordedSession, call: RecordedCall, sent: JsonObject | null, removed: readonly string[]): UsedToken[];
}

/** A probe over `sessions`; `vocabulary` overrides the one computed from them (a replay of part of a corpus measured against the whole). */
export function createUarProbe(sessions: readonly RecordedSession[], vocabulary?: ReadonlySet<string>): UarProbe {
  const cache = createBodyTokenCache();
  const vocab = vocabulary ?? commonVocabulary(sessions, cache);
  const candidates = new WeakMap<RecordedCall, string[]>();
  return {
    vocabulary: vocab,
    check(session, call, sent, removed) {
      if (sent === null || sent === call.body) return [];
      let cand = candidates.get(call);
      if (cand === undefined) candidates.set(call, (cand = answerCandidates(call.reply, cache.partsOf(session.provider, call.body), vocab)));
      if (cand.length === 0) return [];
      const used = usedAfterRemoval(cand, cache.partsOf(session.provider, sent));
      if (used.length === 0) return [];
      const holders = holdersOf(session.provider, call.body, removed, used);
      return used.map((token) => ({ token, pairs: holders[token] ?? [] }));
    },
  };
}
