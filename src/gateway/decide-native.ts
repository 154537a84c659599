/**
 * decideForward's native branch (pure; DESIGN §2 "Two mechanisms, one decision"): the plan's
 * removals are an oldest-first prefix of the clearable tool uses (src/core/policy/native-prefix.ts);
 * they reach the provider as one inserted `clear_tool_uses_20250919` edit
 * (src/providers/anthropic-messages/native-edit.ts), checked by the independent native checker
 * (src/providers/anthropic-messages/check-native-edit.ts). The messages go byte for byte.
 * A throw, a failed check, or a new step whose pairs are not all among the leading tool uses the
 * edit clears (`native_not_prefix`) forwards the original bytes and rolls the step back.
 *
 * Token figures: the estimate of what the provider will see, i.e. the request minus the
 * estimated tokens of the cleared results (the provider's short placeholder is not counted).
 * Whether the provider applied the edit is known only from its answer (`applied_edits`):
 * src/session/record-report.ts settles the saving then. A summarising step at level `rewrite`
 * (`out.native.compact`) sends one `compact_20260112` edit instead, with its own beta; the checker
 * refuses that edit at any other level.
 */
import type { CompactionMode } from "../config/load-config";
import type { FailOpenReason, OutcomeReport, StepOutput } from "../session/contract";
import type { NativeParams } from "../core/policy/resolve-mechanism";
import { checkNativeEdit } from "../providers/anthropic-messages/check-native-edit";
import { COMPACTION_BETA, CONTEXT_MANAGEMENT_BETA, insertNativeEdit, renderNativeEdit } from "../providers/anthropic-messages/native-edit";
import type { GuaranteeLevel } from "../config/defaults";
import type { ForwardDecision } from "./decide-forward";
import type { Prepared } from "./prepare-compaction";
import type { ProviderCleared } from "../session/contract";

/**
 * The `x-sluice-compaction` suffix of a native request: `; mechanism=native; cleared_tool_uses=<C>`,
 * then what the provider reported for the session's previous native edit, once a report came:
 * `; provider_cleared_tool_uses=<n>; provider_cleared_input_tokens=<n>` or `; provider_applied=no`.
 */
export function nativeNote(cleared: number, provider?: ProviderCleared): string {
  const last = provider === undefined ? ""
    : provider.applied ? `; provider_cleared_tool_uses=${provider.tool_uses}; provider_cleared_input_tokens=${provider.input_tokens}`
    : "; provider_applied=no";
  return `; mechanism=native; cleared_tool_uses=${cleared}${last}`;
}

/**
 * The forward decision for a native step output. `summary(pairs, sent, before)` is the splice
 * header text for those figures (decide-forward.ts summaryOf); `received` the outcome fields every
 * report shares.
 */
export function decideNative(
  prepared: Extract<Prepared, { kind: "ready" }>,
  original: Uint8Array,
  out: StepOutput & { native: NativeParams },
  mode: Exclude<CompactionMode, "off">,
  received: Omit<OutcomeReport, "outcome" | "tier">,
  summary: (pairs: number, sent: number, before: number) => string,
  level: GuaranteeLevel = "strict",
): ForwardDecision {
  // The session's estimate of what the provider reads: the parse's, except for a history the
  // session reads from its own compaction block on (the provider ignores what precedes the block).
  // The report keeps the whole body as the client sent it as `tokens_original`: without Sluice's
  // compaction the provider would read all of it, so the calibration counts what precedes the
  // block as removed and the savings ledger credits it on every later call.
  const est = out.tokens_original;
  const base = { ...received, tokens_original: Math.max(prepared.parsed.view.est_tokens, est), tokens_sent: est };
  const failOpen = (reason: FailOpenReason): ForwardDecision =>
    ({ kind: "original", body: original, note: `skipped; reason=${reason}`, report: { ...base, outcome: reason, rollback_step: out.step, tier: out.tier } });
  if (prepared.provider !== "anthropic") return failOpen("native_unsupported");
  let edited: Uint8Array;
  let cleared = 0;
  let sent = est;
  try {
    const render = renderNativeEdit(original, prepared.parsed.root, out.plan, out.native, prepared.parsed.caches.anthropic);
    // A new step the edit would not carry out (its pairs are not leading tool uses) is rolled back, never kept unapplied.
    const leading = new Set(render?.cleared_ids ?? []);
    if (out.new_pair_ids.some((id) => !leading.has(id))) return failOpen("native_not_prefix");
    if (render === null) {
      const note = summary(0, est, est) + nativeNote(0, out.provider_cleared);
      return { kind: "original", body: original, note, report: { ...base, outcome: mode === "measure" ? "measured" : "unchanged", tier: out.tier, ...(mode === "measure" ? { would_send: est } : {}) } };
    }
    edited = insertNativeEdit(original, prepared.parsed.root, render.edit);
    if (checkNativeEdit(original, edited, render.edit, level).length > 0) return failOpen("guarantee_check");
    if (render.edit.type === "compact_20260112") return compactDecision(edited, render.edit.trigger.value, out, mode, base, summary, original);
    cleared = render.cleared;
    const ids = new Set(render.cleared_ids);
    for (const p of prepared.parsed.view.pairs) if (ids.has(p.id)) sent -= p.result_est_tokens;
    sent = Math.max(0, sent);
  } catch {
    return failOpen("apply_error");
  }
  const note = summary(cleared, sent, est) + nativeNote(cleared, out.provider_cleared);
  if (mode === "measure") return { kind: "original", body: original, note, report: { ...base, outcome: "measured", tier: out.tier, pairs_removed: cleared, would_send: sent } };
  return {
    kind: "edited",
    body: edited,
    note,
    beta: CONTEXT_MANAGEMENT_BETA,
    report: { ...base, outcome: "compacted", tokens_sent: sent, tier: out.tier, pairs_removed: cleared, native_cleared: cleared },
  };
}

/**
 * The decision for a summarising step's compaction edit (`edited` already checked): the note adds
 * `; compaction_trigger=<T>`; the report's `tokens_sent` is the core's estimate after the summary
 * (the history replaced by the expected summary), settled against the answer's compaction
 * iteration (../session/record-report.ts); the beta is `compact-2026-01-12`.
 */
function compactDecision(
  edited: Uint8Array,
  trigger: number,
  out: StepOutput & { native: NativeParams },
  mode: Exclude<CompactionMode, "off">,
  base: Omit<OutcomeReport, "outcome" | "tier">,
  summary: (pairs: number, sent: number, before: number) => string,
  original: Uint8Array,
): ForwardDecision {
  const sent = out.tokens_after;
  const note = `${summary(0, sent, out.tokens_original)}${nativeNote(0, out.provider_cleared)}; compaction_trigger=${trigger}`;
  if (mode === "measure") return { kind: "original", body: original, note, report: { ...base, outcome: "measured", tier: out.tier, would_send: sent } };
  return { kind: "edited", body: edited, note, beta: COMPACTION_BETA, report: { ...base, outcome: "compacted", tokens_sent: sent, tier: out.tier, native_compaction_trigger: trigger } };
}
