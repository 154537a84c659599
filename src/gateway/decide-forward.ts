/**
 * The second pure half of the compaction pipeline (DESIGN §1, invariant 5), shared by the Worker
 * pipeline (./compaction-pipeline.ts) and the replay's in-process host: given the session
 * step's answer, decide which bytes go upstream. Steps:
 * 1. session disabled → the original bytes;
 * 2. a non-empty plan is applied by splicing (src/core/plan/apply-plan.ts, with its
 *    drop_pair → drop_result fallback; at level `placeholders` with the markers of
 *    src/core/plan/placeholder.ts; with the summary blocks of the plan's written `summarize`
 *    actions) and checked at the same level (src/core/plan/check-guarantee.ts, given those blocks) — in
 *    measurement mode too, so it counts only what would really have been sent; a throw or a
 *    failed check → the original bytes and the step is rolled back (never re-applied);
 * 3. compact mode forwards the edited bytes; measurement mode forwards the original.
 * `memory_inject` (`out.memory_block`): the block's element is inserted directly after the first
 * user message (src/providers/shared/memory-message.ts) in the same splice, whether or not the
 * plan has actions, and the check accepts exactly that one element; with no place for it, or
 * when the check fails with it, the request goes without it (the plan alone, checked as usual).
 * A native step carries no block.
 * A step output under the native mechanism (`out.native`) takes ./decide-native.ts instead of
 * step 2: the messages go byte for byte with one inserted server-side edit.
 * Token figures are the estimator's count of the bytes actually forwarded (the checker's parse
 * of the edited body), not the DO's planning estimate: refused actions save less than planned.
 */
import type { CompactionMode } from "../config/load-config";
import { applyPlan } from "../core/plan/apply-plan";
import { checkGuarantee } from "../core/plan/check-guarantee";
import type { FailOpenReason, OutcomeReport, StepOutput } from "../session/contract";
import type { Prepared } from "./prepare-compaction";
import { decideNative } from "./decide-native";
import type { GuaranteeLevel } from "../config/defaults";
import { calibrate } from "../core/tokens/calibrate";
import type { Insertion, PlaceholderOptions } from "../core/plan/placeholder";
import { memoryInsertion, memoryMessageBytes } from "../providers/shared/memory-message";
import { spliceOut } from "../providers/shared/splice";
import { estimateTokens } from "../core/tokens/estimate";
import { summaryBlockBytes } from "../core/plan/summary-block";
import type { EditPlan } from "../core/plan/types";

/** Host pair id → summary block bytes of each written `summarize` action of `plan` (the checker's `summaries`). */
export function summaryBlocks(plan: EditPlan): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  for (const [id, a] of Object.entries(plan.actions)) if (a.kind === "summarize" && a.text !== null) out.set(id, summaryBlockBytes(a.covers.length, a.text));
  return out;
}

/** What to forward. `kind` "edited" means the plan passed the check (the bytes may still equal the original when every action was refused). */
export interface ForwardDecision {
  kind: "original" | "edited";
  body: Uint8Array;
  /** Value of the `x-sluice-compaction` response header. */
  note: string;
  /** Outcome for the session (`tokens_sent` is also the estimate the usage tap reports). */
  report: OutcomeReport;
  /**
   * A value the forwarded request's `anthropic-beta` header must carry (the native edit's beta),
   * added by the shell only when the client's header lacks it (./request-headers.ts). Absent: none.
   */
  beta?: string;
}

/**
 * The header value: `<mode>; tier=<selected tier>; step=<n|none>[; skipped=<why>];
 * pairs_removed=<n>; tokens_before=<n>; tokens_after=<n>[; estimated_tokens_before=<est>;
 * estimated_tokens_after=<est>]` (mode "compact" or "measure"; `skipped` is the selected tier's
 * reason for taking no step). `before` and `after` are the estimator's counts of the body as
 * received and as forwarded; once the session has an answer (`out.calibration`),
 * tokens_before/tokens_after are calibrated against the provider's counts
 * (src/core/tokens/calibrate.ts) and the estimates follow as estimated_tokens_*.
 */
export function summaryOf(mode: Exclude<CompactionMode, "off">, out: StepOutput, pairs: number, before: number, after: number): string {
  const step = out.step !== null ? `step=${out.step}` : out.skipped !== null ? `step=none; skipped=${out.skipped}` : "step=none";
  const head = `${mode}; tier=${out.tier}; ${step}; pairs_removed=${pairs}`;
  if (out.calibration === undefined || out.calibration.answers === 0) return `${head}; tokens_before=${before}; tokens_after=${after}`;
  const cal = out.calibration;
  return `${head}; tokens_before=${calibrate(cal, before)}; tokens_after=${calibrate(cal, before, after)}; estimated_tokens_before=${before}; estimated_tokens_after=${after}`;
}

/**
 * Decides the forwarded bytes for a prepared request and its step output. Never throws. The
 * check scans the edited bytes fresh: nothing of the reader's parse of them, no cache.
 * `placeholders`: the level's options (src/core/plan/placeholder.ts `placeholderOptionsOf`);
 * null (the default) is level `strict`. `level`: the deployment's guarantee level, which the native
 * checker reads (a compaction edit only at `rewrite`).
 */
export function decideForward(
  prepared: Extract<Prepared, { kind: "ready" }>,
  original: Uint8Array,
  out: StepOutput,
  mode: Exclude<CompactionMode, "off">,
  correlation_id: string,
  placeholders: PlaceholderOptions | null = null,
  level: GuaranteeLevel = "strict",
): ForwardDecision {
  const est = prepared.parsed.view.est_tokens;
  const base = { correlation_id, rollback_step: null, tokens_original: est, tokens_sent: est, pairs_removed: 0, would_send: null };
  const asReceived = (note: string, report: Partial<OutcomeReport> & Pick<OutcomeReport, "outcome" | "tier">): ForwardDecision =>
    ({ kind: "original", body: original, note, report: { ...base, ...report } });
  const failOpen = (reason: FailOpenReason) => asReceived(`skipped; reason=${reason}`, { outcome: reason, rollback_step: out.step, tier: out.tier });

  // 1. Disabled by an operator.
  if (out.disabled) return asReceived("off; reason=session_disabled", { outcome: "unchanged", tier: "none" });

  // 2. Native: one inserted server-side edit instead of splicing.
  if (out.native !== undefined) return decideNative(prepared, original, { ...out, native: out.native }, mode, base, (pairs, sent, before) => summaryOf(mode, out, pairs, before, sent), level);

  // 3. Apply and check (with the memory block's element when the session carries one; when the
  // block fails the check, the plan is tried alone: the block's place is the same on every
  // request, so its failure is too, and it must not stop the session's compaction).
  const element = out.memory_block === undefined ? null : memoryMessageBytes(prepared.provider, out.memory_block);
  const placed = element === null ? null : memoryInsertion(prepared.provider, original, prepared.parsed.root, prepared.adapter.historyKey, element);
  let tried = applyAndCheck(prepared, original, out, placeholders, placed === null ? null : { insertion: placed, element: element! });
  if (tried.kind === "guarantee_check" && placed !== null) tried = applyAndCheck(prepared, original, out, placeholders, null);
  if (tried.kind !== "ok") return failOpen(tried.kind);
  const { edited, sent, pairs, memory } = tried;
  const note = summaryOf(mode, out, pairs, est, sent);

  // 4. Measurement forwards the original and reports what would have been sent.
  if (mode === "measure") return asReceived(note, { outcome: "measured", tier: out.tier, pairs_removed: pairs, would_send: sent });
  if (edited === original) return asReceived(note, { outcome: "unchanged", tier: out.tier });
  const carried = memory ? { memory_block_tokens: estimateTokens(out.memory_block!) } : {};
  return { kind: "edited", body: edited, note, report: { ...base, outcome: "compacted", tokens_sent: sent, tier: out.tier, pairs_removed: pairs, ...carried } };
}

/** What applyAndCheck made: the bytes to forward, their estimate, the pairs edited, whether the memory block is in them; or why not. */
type Tried = { kind: "ok"; edited: Uint8Array; sent: number; pairs: number; memory: boolean } | { kind: "guarantee_check" | "apply_error" };

/**
 * Applies `out.plan` (and the memory block's insertion when given) in one splice and checks the
 * result at the level (`placeholders`, the inserted element). `sent` is the estimate of the bytes
 * (the checker's parse of them; the request's own estimate when they are the original). Never throws.
 */
function applyAndCheck(
  prepared: Extract<Prepared, { kind: "ready" }>,
  original: Uint8Array,
  out: StepOutput,
  placeholders: PlaceholderOptions | null,
  memory: { insertion: Insertion; element: Uint8Array } | null,
): Tried {
  const hasActions = Object.keys(out.plan.actions).length > 0;
  const unchanged: Tried = { kind: "ok", edited: original, sent: prepared.parsed.view.est_tokens, pairs: 0, memory: false };
  if (!hasActions && memory === null) return unchanged;
  try {
    const applied = hasActions ? applyPlan(prepared.adapter, prepared.parsed, out.plan, placeholders) : null;
    const edited = memory === null ? applied!.bytes : spliceOut(original, applied?.deletions ?? [], [...(applied?.insertions ?? []), memory.insertion]);
    if (edited === original) return unchanged;
    const summaries = summaryBlocks(out.plan);
    const check = checkGuarantee(prepared.adapter, original, edited, { input: prepared.parsed, ...(placeholders ? { placeholders } : {}), ...(summaries.size > 0 ? { summaries } : {}), ...(memory ? { inserted: memory.element } : {}) });
    if (!check.ok || !check.output) return { kind: "guarantee_check" };
    const pairs = applied === null ? 0 : Object.entries(out.plan.actions).filter(([id, a]) => a.kind !== "keep" && applied.refused[id] === undefined).length;
    return { kind: "ok", edited, sent: check.output.view.est_tokens, pairs, memory: memory !== null };
  } catch {
    return { kind: "apply_error" };
  }
}
