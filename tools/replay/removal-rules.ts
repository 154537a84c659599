/**
 * What each removal rule brings and costs (pure), from one strategy's calls over one session:
 * per rule or tier that decided a removal (CallRecord.new_removals: Sluice reports it; src/core/
 * policy/types.ts RemovalRule) —
 * - `pairs_removed`: pairs it removed first;
 * - `tokens_removed`: the estimated tokens those removals took out of the request, each pair once;
 * - `tokens_not_sent`: the same summed over every call that went without them (each call the pair
 *   stayed removed counts its tokens again): the input tokens the rule kept out of the session's
 *   requests, before any prompt caching;
 * - `uar_calls`: calls used after removal (./used-after-removal.ts) with a token that a pair this
 *   rule removed had held; `uar_tokens`: those tokens, counted per call.
 * A token held by pairs of two rules counts for both; a token no removed pair held counts for
 * UNATTRIBUTED, and a pair whose rule the strategy did not give for UNKNOWN. So the rules' UAR
 * calls can add up to more than the strategy's.
 */
import type { CallRecord } from "./types";

/** One rule's figures (see the module header). */
export interface RuleStats {
  pairs_removed: number;
  tokens_removed: number;
  tokens_not_sent: number;
  uar_calls: number;
  uar_tokens: number;
}

/** The bucket of a used token that no removed pair held. */
export const UNATTRIBUTED = "unattributed";
/** The bucket of a removed pair whose rule the strategy did not say. */
export const UNKNOWN = "unknown";

const zero = (): RuleStats => ({ pairs_removed: 0, tokens_removed: 0, tokens_not_sent: 0, uar_calls: 0, uar_tokens: 0 });

/** The figures per rule of one session's calls (in call order), or null when no new removal names a rule (a strategy that does not say). */
export function ruleStatsOf(calls: readonly CallRecord[]): Record<string, RuleStats> | null {
  if (!calls.some((c) => c.new_removals?.some((r) => r.rule !== null))) return null;
  const out: Record<string, RuleStats> = {};
  const at = (rule: string) => (out[rule] ??= zero());
  const removal = new Map<string, { rule: string; tokens: number }>();
  for (const c of calls) {
    for (const r of c.new_removals ?? []) {
      const rule = r.rule ?? UNKNOWN;
      removal.set(r.key, { rule, tokens: r.tokens });
      at(rule).pairs_removed++;
      at(rule).tokens_removed += r.tokens;
    }
    for (const key of c.removed_ids) {
      const r = removal.get(key);
      if (r !== undefined) at(r.rule).tokens_not_sent += r.tokens;
    }
    const hit = new Set<string>();
    for (const u of c.used_after_removal ?? []) {
      const rules = new Set(u.pairs.length === 0 ? [UNATTRIBUTED] : u.pairs.map((k) => removal.get(k)?.rule ?? UNKNOWN));
      for (const rule of rules) {
        at(rule).uar_tokens++;
        hit.add(rule);
      }
    }
    for (const rule of hit) at(rule).uar_calls++;
  }
  return sortedByRule(out);
}

/** The per-rule sums of several sessions' figures (null ones skipped); null when all are null. */
export function sumRuleStats(list: readonly (Record<string, RuleStats> | null)[]): Record<string, RuleStats> | null {
  if (list.every((x) => x === null)) return null;
  const out: Record<string, RuleStats> = {};
  for (const by of list) {
    for (const [rule, s] of Object.entries(by ?? {})) {
      const t = (out[rule] ??= zero());
      t.pairs_removed += s.pairs_removed;
      t.tokens_removed += s.tokens_removed;
      t.tokens_not_sent += s.tokens_not_sent;
      t.uar_calls += s.uar_calls;
      t.uar_tokens += s.uar_tokens;
    }
  }
  return sortedByRule(out);
}

/** `by` with its keys in alphabetical order (a stable JSON and table order). */
function sortedByRule(by: Record<string, RuleStats>): Record<string, RuleStats> {
  return Object.fromEntries(Object.entries(by).sort(([a], [b]) => a.localeCompare(b)));
}
