/**
 * Tier registry (pure): every tier's compact function, keyed by tier name. Which tier fires is
 * decided in one place, src/core/policy/select-tier.ts; the policy (src/core/policy/compact.ts)
 * runs the one it picks.
 */
import type { Tier, TierContext, TierResult } from "../policy/types";
import { compactAuto } from "./auto";
import { compactMicro } from "./micro";
import { compactNone } from "./none";
import { compactSessionMemory } from "./session-memory";
import { compactTimeBased } from "./time-based";

/** Tier → the function that runs it. */
export const TIER_REGISTRY: Readonly<Record<Tier, (ctx: TierContext) => TierResult>> = {
  session_memory: compactSessionMemory,
  auto: compactAuto,
  time_based: compactTimeBased,
  micro: compactMicro,
  none: compactNone,
};
