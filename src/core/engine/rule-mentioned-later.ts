/**
 * Guard: a pair the agent still talks about stays ("reference-aware"). A later
 * assistant message's prose names one of the pair's referents — a file path it read or edited
 * (or that path's last segment), or its shell command — and no later call names that referent,
 * so this pair is the newest record in context of what the agent is talking about. The engine
 * keeps such a pair against every removal verdict (keep, confidence 1); a tier may still cut its
 * result to a head (../tiers/propose-collapse.ts), so the call and the start of what it
 * returned stay.
 *
 * A referent that a later call names again is not guarded here: the newer call is the record,
 * and the supersession rules (./rule-superseded-*.ts, ./rule-duplicate-result.ts,
 * ./rule-failed-retried.ts) only ever remove a pair for which such a newer call exists.
 *
 * Evidence: the mention keys of the calls (CallFacts.refs) and of each assistant message's prose
 * (MessageFacts.mentions), short hashes only (../text/mention-keys.ts).
 */
import type { MessageFacts, PairFacts } from "../facts/step-facts";

/** Ids of the pairs the guard keeps. `pairs` in call order; `messages` in order. */
export function ruleMentionedLater(pairs: readonly PairFacts[], messages: readonly MessageFacts[]): Set<string> {
  const kept = new Set<string>();
  // The last message that mentions each key (one pass; most messages mention nothing).
  const lastMention = new Map<string, number>();
  for (const m of messages) for (const k of m.mentions) lastMention.set(k, m.index);
  if (lastMention.size === 0) return kept;
  // Walk backwards: a key is "taken" once a later pair names it.
  const taken = new Set<string>();
  for (let i = pairs.length - 1; i >= 0; i--) {
    const p = pairs[i]!;
    const refs = p.call_class.refs;
    for (const k of refs) {
      if (taken.has(k)) continue;
      const at = lastMention.get(k);
      if (at !== undefined && at > p.result.message_index) kept.add(p.id);
    }
    for (const k of refs) taken.add(k);
  }
  return kept;
}
