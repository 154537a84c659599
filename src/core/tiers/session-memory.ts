/**
 * session_memory tier (weight 1.00; DESIGN §3, §7): the session is complete. Builds the memory
 * tier map deterministically (src/core/memory/build-tier-map.ts) and returns it for the host
 * to store. At guarantee level `rewrite` the map stands in for the old history, so every
 * eligible pair is dropped whole (no cost gate: the session is over, this step is for memory,
 * not for savings); at `strict` and `placeholders` nothing is edited and the cost is 0.
 */
import { buildTierMap } from "../memory/build-tier-map";
import { takeStep } from "../policy/take-step";
import type { BudgetPressure, CoreConfig, TierContext, TierResult } from "../policy/types";
import { TIER_COST_WEIGHT } from "../policy/types";

export const SESSION_MEMORY_WEIGHT = TIER_COST_WEIGHT.session_memory;

/** Trigger: session complete. */
export function sessionMemoryTriggers(pressure: BudgetPressure, _config: CoreConfig): boolean {
  return pressure.session_complete;
}

/** Runs the session_memory tier. */
export function compactSessionMemory(ctx: TierContext): TierResult {
  const memory = buildTierMap(ctx.view, ctx.config.preserve_recent_turns);
  if (ctx.config.guarantee_level === "rewrite") {
    const r = takeStep(ctx, "session_memory", (_c, eligible) => eligible.map((pair) => ({ pair, action: { kind: "drop_pair" } })), { gate: false });
    return { ...r, tier: "session_memory", memory };
  }
  const r = takeStep(ctx, "session_memory", () => []);
  return { ...r, tier: "session_memory", skipped: null, memory };
}
