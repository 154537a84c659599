/**
 * session_memory tier (weight 1.00; DESIGN §3, §7): the session is complete. Builds the memory
 * tier map deterministically (src/core/memory/build-tier-map.ts) and returns it for the host
 * to store. At guarantee level `rewrite` summaries stand in for the old history: every closed
 * stretch of eligible pairs (./pick-stretch.ts pickStretches, at most MAX_STRETCH_PAIRS each)
 * is replaced by one summary block, and the eligible pairs no stretch holds are dropped whole
 * (no cost gate: the session is over, this step is for memory, not for savings). Under the
 * native mechanism, which cannot write a summary, every eligible pair is dropped. At `strict`
 * and `placeholders` the request that arrives is a resumption after ≥ complete_after_seconds
 * of idle, so the provider cache has expired as for time_based:
 * the time_based proposal runs under the usual cost gate (a step then costs no extra cache
 * write). Calibration: on the seed corpus, cc-cctrace-opus4 resumes three times after hours
 * away; without this, each resumption paid a full cold write and the next micro step a second.
 */
import { buildTierMap } from "../memory/build-tier-map";
import { takeStep, type Proposal } from "../policy/take-step";
import { resolveMechanism } from "../policy/resolve-mechanism";
import { pickStretches } from "./pick-stretch";
import type { TierContext, TierResult } from "../policy/types";
import { proposeTimeBased } from "./time-based";

/** Runs the session_memory tier. */
export function compactSessionMemory(ctx: TierContext): TierResult {
  const memory = buildTierMap(ctx.view, ctx.config.preserve_recent_turns);
  if (ctx.config.guarantee_level === "rewrite") {
    const summarises = resolveMechanism(ctx.config.mechanism, ctx.view.provider, ctx.view.model) !== "native";
    const r = takeStep(ctx, "session_memory", (c, eligible) => {
      const stretches = summarises ? pickStretches(c.view, eligible) : [];
      const inStretch = new Set(stretches.map((p) => p.pair.id));
      return [...stretches, ...eligible.filter((p) => !inStretch.has(p.id)).map((pair): Proposal => ({ pair, action: { kind: "drop_pair" }, rule: "session_end" }))];
    }, { gate: false });
    return { ...r, tier: "session_memory", memory };
  }
  const r = takeStep(ctx, "session_memory", proposeTimeBased);
  return { ...r, tier: "session_memory", skipped: null, memory };
}
