/**
 * Tier registry (pure): every tier's trigger predicate, cost weight and compact function, keyed
 * by tier name. The policy (src/core/policy/compact.ts) picks one and runs it.
 */
import type { BudgetPressure, CoreConfig, Tier, TierContext, TierResult } from "../policy/types";
import { TIER_COST_WEIGHT } from "../policy/types";
import { autoTriggers, compactAuto } from "./auto";
import { compactMicro, microTriggers } from "./micro";
import { compactNone, noneTriggers } from "./none";
import { compactSessionMemory, sessionMemoryTriggers } from "./session-memory";
import { compactTimeBased, timeBasedTriggers } from "./time-based";

/** One tier module. */
export interface TierModule {
  tier: Tier;
  weight: number;
  triggers: (pressure: BudgetPressure, config: CoreConfig) => boolean;
  compact: (ctx: TierContext) => TierResult;
}

export const TIER_REGISTRY: Readonly<Record<Tier, TierModule>> = {
  session_memory: { tier: "session_memory", weight: TIER_COST_WEIGHT.session_memory, triggers: sessionMemoryTriggers, compact: compactSessionMemory },
  auto: { tier: "auto", weight: TIER_COST_WEIGHT.auto, triggers: autoTriggers, compact: compactAuto },
  time_based: { tier: "time_based", weight: TIER_COST_WEIGHT.time_based, triggers: timeBasedTriggers, compact: compactTimeBased },
  micro: { tier: "micro", weight: TIER_COST_WEIGHT.micro, triggers: microTriggers, compact: compactMicro },
  none: { tier: "none", weight: TIER_COST_WEIGHT.none, triggers: noneTriggers, compact: compactNone },
};
