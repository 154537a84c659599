/**
 * auto tier (weight 0.50; DESIGN §3): context use ≥ auto_context_pct (70 %) of the model's
 * window. Strips media from old tool results and removes the old tool runs the engine marks
 * unneeded, plus the micro collapse of long results (./propose-collapse.ts). At guarantee level
 * `rewrite` (spliced, not native: a server-side edit only clears) it also summarises: the
 * oldest closed stretch of old tool pairs (./pick-stretch.ts) goes, one summary block in its
 * host's result stands for it, and the pairs outside the stretch get the proposals above. The
 * cost model prices the stretch as one candidate (../policy/stretch-candidates.ts).
 * Under the native mechanism at `rewrite`, the summarising step is the provider's server-side
 * compaction (./auto-native-compaction.ts).
 */
import { isRemoval } from "../engine/verdict";
import { takeStep, type Proposal } from "../policy/take-step";
import { resolveMechanism } from "../policy/resolve-mechanism";
import type { TierContext, TierResult } from "../policy/types";
import { pickStretch } from "./pick-stretch";
import { proposeCollapse } from "./propose-collapse";
import { resolveVerdicts } from "./resolve-verdicts";
import { withNativeCompaction } from "./auto-native-compaction";

/** Runs the auto tier. */
export function compactAuto(ctx: TierContext): TierResult {
  return withNativeCompaction(ctx, takeStep(ctx, "auto", (c, eligible) => {
    const summarizes = c.config.guarantee_level === "rewrite" && resolveMechanism(c.config.mechanism, c.view.provider, c.view.model) !== "native";
    const stretch = summarizes ? pickStretch(c.view, eligible) : [];
    const inStretch = new Set(stretch.map((p) => p.pair.id));
    const verdicts = resolveVerdicts(c);
    const media: Proposal[] = [];
    const rest = eligible.filter((p) => {
      if (inStretch.has(p.id)) return false;
      if (p.result_media_count === 0 || isRemoval(verdicts[p.id], c.config.decision_threshold)) return true;
      media.push({ pair: p, action: { kind: "strip_media" }, rule: "media" });
      return false;
    });
    return [...stretch, ...media, ...proposeCollapse(rest, verdicts, c.config)];
  }));
}
