/**
 * time_based tier (weight 0.10; DESIGN §3): the live session has been idle ≥ idle_seconds
 * (default 300 = the provider cache TTL), so the cache is cold and a step costs no extra
 * write. Drops whole every eligible pair first seen at least the age cutoff before now
 * (timeBasedAgeSeconds; first-seen times come from the ledger, i.e. from the caller); younger eligible
 * pairs get the micro collapse (./propose-collapse.ts), since this is the free moment. An old
 * pair a later assistant message still names (the engine's mentioned_later guard:
 * src/core/engine/rule-mentioned-later.ts) is not dropped but collapsed like a young one, so what
 * the agent still talks about keeps its call and a head of its result; so is a short shell check
 * (src/core/engine/rule-superseded-command.ts isSmallCommand: the agent re-runs those whatever its
 * context holds, and dropping one saves under ~256 tokens).
 */
import { takeStep, type Propose, type Proposal } from "../policy/take-step";
import type { BudgetPressure, CoreConfig, TierContext, TierResult } from "../policy/types";
import { proposeCollapse } from "./propose-collapse";
import { resolveVerdicts } from "./resolve-verdicts";
import { isSmallCommand } from "../engine/rule-superseded-command";

/**
 * Age cutoff, seconds: `time_based_age_seconds` when the config sets it, else the idle gap itself
 * (pressure.idle_seconds). With the default every pair first seen before the session went idle
 * is old: the provider cache (5 min TTL) has expired on all of them, so dropping them whole
 * costs no extra cache write, and an idle step removes whole pairs rather than collapsing them.
 */
export function timeBasedAgeSeconds(pressure: BudgetPressure, config: CoreConfig): number {
  return config.time_based_age_seconds ?? pressure.idle_seconds;
}

/** The cold-cache proposal: old pairs dropped whole, younger ones collapsed (also used by session_memory below level rewrite). */
export const proposeTimeBased: Propose = (c, eligible) => {
  const cutoff = c.now_ms - timeBasedAgeSeconds(c.pressure, c.config) * 1000;
  const verdicts = resolveVerdicts(c);
  const old: Proposal[] = [];
  const young = eligible.filter((p) => {
    const seen = c.ledger.first_seen[p.id] ?? c.now_ms;
    const guard = verdicts[p.id]?.rule;
    if (seen > cutoff || guard === "working_set" || guard === "mentioned_later" || isSmallCommand(p)) return true;
    old.push({ pair: p, action: { kind: "drop_pair" }, rule: "age" });
    return false;
  });
  return [...old, ...proposeCollapse(young, verdicts, c.config)];
};

/** Runs the time_based tier. */
export function compactTimeBased(ctx: TierContext): TierResult {
  return takeStep(ctx, "time_based", proposeTimeBased);
}
