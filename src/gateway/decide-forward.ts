/**
 * The second pure half of the compaction pipeline (DESIGN §1, invariant 5), shared by the Worker
 * pipeline (./compaction-pipeline.ts) and the replay's in-process host: given the session
 * step's answer, decide which bytes go upstream. Steps:
 * 1. session disabled, measurement mode, or an empty plan → the original bytes;
 * 2. apply the plan by splicing (src/core/plan/apply-plan.ts), then the guarantee checker
 *    (src/core/plan/check-guarantee.ts); a throw or a failed check → the original bytes, and the
 *    step is rolled back (a step that was not forwarded is never re-applied);
 * 3. else the edited bytes.
 * Each decision carries the outcome report for the session and the `x-sluice-compaction` note.
 */
import type { CompactionMode } from "../config/load-config";
import { applyPlan } from "../core/plan/apply-plan";
import { checkGuarantee } from "../core/plan/check-guarantee";
import type { OutcomeReport, StepOutput } from "../do/step-types";
import type { Prepared } from "./prepare-compaction";

/** What to forward. `kind` "edited" means the plan passed the check (the bytes may still equal the original when every action was refused). */
export interface ForwardDecision {
  kind: "original" | "edited";
  body: Uint8Array;
  /** Value of the `x-sluice-compaction` response header. */
  note: string;
  /** Outcome for the session (`tokens_sent` is also the estimate the usage tap reports). */
  report: OutcomeReport;
}

/** Decides the forwarded bytes for a prepared request and its step output. Never throws. */
export function decideForward(
  prepared: Extract<Prepared, { kind: "ready" }>,
  original: Uint8Array,
  out: StepOutput,
  mode: Exclude<CompactionMode, "off">,
  correlation_id: string,
): ForwardDecision {
  const base = { correlation_id, rollback_step: null, tokens_original: out.tokens_original, tokens_sent: out.tokens_original };
  const unchanged = (note: string, tier: OutcomeReport["tier"]): ForwardDecision => ({ kind: "original", body: original, note, report: { ...base, outcome: "unchanged", tier } });
  const failOpen = (reason: string): ForwardDecision => ({
    kind: "original",
    body: original,
    note: `skipped; reason=${reason}`,
    report: { ...base, outcome: reason, rollback_step: out.step, tier: out.tier },
  });

  // 1. Nothing to apply.
  if (out.disabled) return unchanged("off; reason=session_disabled", "none");
  const summary = `tier=${out.tier}; pairs_removed=${out.pairs_removed}; tokens_before=${out.tokens_original}; tokens_after=${out.tokens_after}`;
  if (mode === "measure") return unchanged(`measure; ${summary}`, out.tier);
  if (Object.keys(out.plan.actions).length === 0) return unchanged(`none; ${summary}`, out.tier);

  // 2. Apply and check.
  let edited: Uint8Array;
  try {
    edited = applyPlan(prepared.adapter, prepared.parsed, out.plan).bytes;
    if (!checkGuarantee(prepared.adapter, original, edited).ok) return failOpen("guarantee_check");
  } catch {
    return failOpen("apply_error");
  }

  // 3. Forward the edit.
  return {
    kind: "edited",
    body: edited,
    note: summary,
    report: { ...base, outcome: edited === original ? "unchanged" : "compacted", tokens_sent: out.tokens_after, tier: out.tier },
  };
}
