/**
 * The session's memory of its previous request's prefix (shell over the SQL store): the prefix
 * hashes (src/core/facts/prefix-facts.ts), the estimated tokens of every top-level member and
 * message, and when it came. Each step swaps it for the current request's, so the savings ledger
 * and the cache-breaker diagnostics can compare consecutive requests of the session. Hashes and
 * counts only, never text (DESIGN invariant 7).
 */
import type { PrefixFacts } from "../core/facts/prefix-facts";
import type { StepFacts } from "../core/facts/step-facts";
import type { SessionStore } from "./session-store";

/** Meta key of the stored previous prefix (JSON of LastPrefix). */
export const LAST_PREFIX_META = "last_prefix";

/** One request's prefix as the session remembers it. */
export interface LastPrefix {
  /** Epoch ms of the request (the step's clock). */
  at_ms: number;
  prefix: PrefixFacts;
  /** Estimated tokens per message, aligned with `prefix.message_hashes`. */
  message_tokens: number[];
  /** Estimated tokens of the whole request. */
  est_tokens: number;
}

/**
 * Stores the current request's prefix (when its facts carry one) and returns the previous one
 * (null for the session's first request, or when the previous request carried none). A stored
 * value that does not parse counts as none.
 */
export function swapLastPrefix(store: SessionStore, facts: StepFacts, now_ms: number): LastPrefix | null {
  const prev = store.getMetaJson<LastPrefix>(LAST_PREFIX_META);
  if (facts.prefix !== null) {
    const cur: LastPrefix = { at_ms: now_ms, prefix: facts.prefix, message_tokens: facts.messages.map((m) => m.est_tokens), est_tokens: facts.est_tokens };
    store.setMeta(LAST_PREFIX_META, JSON.stringify(cur));
  }
  return prev;
}
