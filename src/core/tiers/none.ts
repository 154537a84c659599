/**
 * none tier (weight 0): nothing fires. The ledger is still re-applied (sticky decisions), no
 * step is taken, cost 0.
 */
import { takeStep } from "../policy/take-step";
import type { TierContext, TierResult } from "../policy/types";

/** Runs the none tier: the re-applied ledger only. */
export function compactNone(ctx: TierContext): TierResult {
  const r = takeStep(ctx, "none", () => []);
  return { ...r, skipped: null };
}
