/**
 * The session DO's RPC shapes (pure data): what the gateway sends per request and what it gets
 * back. The view is sent slimmed (tool-result text cut to a head) so no whole body crosses the RPC.
 */
import type { CompactionConfig } from "../config/schema";
import type { CompactionMode } from "../config/load-config";
import type { EditPlan } from "../core/plan/types";
import type { StepLease } from "../core/policy/step-lease";
import type { Tier, TierResult } from "../core/policy/types";
import type { NativeParams } from "../core/policy/resolve-mechanism";
import type { ConversationView, ToolPair } from "../core/view/types";
import type { Usage } from "../usage/extract-usage";
import type { ViewDelta } from "./view-delta";

/** Characters of each tool result's text kept in the slim view (rules read heads and first lines only). */
export const SLIM_RESULT_CHARS = 4_096;

/** `text` cut to its first SLIM_RESULT_CHARS UTF-16 units (unchanged when shorter). */
export function slimText(text: string): string {
  return text.length > SLIM_RESULT_CHARS ? text.slice(0, SLIM_RESULT_CHARS) : text;
}

/**
 * A plain copy of every field of `p` but the result text (lazy fields are computed; the result
 * text, whose decoding is the costly one, is not read).
 */
export function pairRecord(p: ToolPair): Omit<ToolPair, "result_text"> {
  return {
    id: p.id, tool_name: p.tool_name, input_text: p.input_text, input_bytes: p.input_bytes, call: p.call, result: p.result, turn_index: p.turn_index,
    result_bytes: p.result_bytes, result_est_tokens: p.result_est_tokens, result_is_error: p.result_is_error,
    result_media_count: p.result_media_count, result_hash: p.result_hash, locked: p.locked,
  };
}

/** A plain copy of `p` for the step RPC with the given texts (pairRecord for the rest), so only the texts decide what decoding a step view costs. */
export function stepPair(p: ToolPair, input_text: string, result_text: string): ToolPair {
  return { ...pairRecord(p), input_text, result_text };
}

/** Returns `view` with each pair's `result_text` cut to SLIM_RESULT_CHARS (sizes and hashes untouched). */
export function slimView(view: ConversationView): ConversationView {
  return { ...view, pairs: view.pairs.map((p) => stepPair(p, p.input_text, slimText(p.result_text))) };
}

/**
 * slimView for a step run in this isolate (the lease holder's, ../gateway/decide-leased.ts): the
 * same values, without the plain copies a step RPC needs. A pair whose result text already fits
 * in SLIM_RESULT_CHARS is `view`'s own pair object (its lazy fields stay lazy); only the longer
 * ones are copied with the text cut (stepPair). Measured (Node, 36 load calls of three corpus
 * sessions, lazy fields already read): 0.012 → 0.004 ms per view, of a holder's step of
 * 0.25–0.45 ms; it also allocates a copy only for the few long results (8 of 298 pairs in
 * codex-rtchess-01's last call).
 */
export function localSlimView(view: ConversationView): ConversationView {
  return {
    ...view,
    pairs: view.pairs.map((p) => {
      const text = p.result_text;
      return text.length > SLIM_RESULT_CHARS ? stepPair(p, p.input_text, text.slice(0, SLIM_RESULT_CHARS)) : p;
    }),
  };
}

/** One request's step call. */
export interface StepInput {
  session_id: string;
  /** The whole slim view, or with `delta` the part that differs from the base view (./view-delta.ts). */
  view: ConversationView;
  /** Names this view for the next request's delta (the request's correlation id); absent: not remembered. */
  view_token?: string;
  /** Present (stepDelta only) when `view` is a delta against the view sent under `delta.base_token`. */
  delta?: ViewDelta;
  config: CompactionConfig;
  mode: Exclude<CompactionMode, "off">;
  correlation_id: string;
  /** Request time, epoch ms (the Worker's clock). */
  now_ms: number;
  /** The calling isolate's lease token: the DO may answer with a step lease for it (../core/policy/step-lease.ts); absent: no lease. */
  lease_holder?: string;
  /**
   * Calls the caller decided under its lease whose reports have not gone yet (their answers
   * still streaming, or waiting in the report buffer), in order: recorded before this step
   * (./session-calls.ts recordLeasedCall), so it is decided from the state the DO path would
   * have (calls, last activity, idle mark, first-seen times). Their reports then omit them.
   */
  leased_calls?: LeasedCall[];
  /**
   * Set on the step of a request whose own lease ask was granted (../gateway/compaction-pipeline.ts:
   * its local decision would step): that ask recorded the request's activity
   * (./open-lease.ts), so the step is decided from the activity before it, the lease's
   * `last_activity_ms` (epoch ms).
   */
  previous_activity_ms?: number;
}

/** The DO's answer to a delta it cannot rebuild (no base view under that token): send the whole view. Nothing was changed. */
export interface NeedFullView {
  need_full: true;
}

/** The DO's answer. `plan` is the whole plan to apply (re-applied ledger + any new step). */
export interface StepOutput {
  /** True when an operator turned compaction off for this session. */
  disabled: boolean;
  /** The tier the policy selected for this request (DESIGN §3), whether or not it took a step. */
  tier: Tier;
  /** Why the selected tier took no step (`under_threshold`, `not_positive`, …), or null. */
  skipped: string | null;
  plan: EditPlan;
  /** Step number taken by this request, or null. */
  step: number | null;
  /** Estimated tokens of the request as sent by the client. */
  tokens_original: number;
  /** Estimated tokens after the plan. */
  tokens_after: number;
  /** Pairs whose action is a removal in the plan (before the adapter's refusals). */
  pairs_removed: number;
  /** The tier's cost estimate, USD (DESIGN §3: tokens_saved/1000 × cost_per_1k × weight). */
  cost_estimate: number;
  /** Pair ids newly edited by this request's step ([] without a step). */
  new_pair_ids: string[];
  warnings: string[];
  /**
   * Present when the plan goes by the native mechanism (../core/policy/resolve-mechanism.ts):
   * the gateway forwards the messages byte for byte and adds one server-side edit
   * (../gateway/decide-forward.ts). Absent: the plan is spliced.
   */
  native?: NativeParams;
  /** A step lease for the caller's `lease_holder`, when granted. */
  lease?: StepLease;
}

/** Counts a removal action. */
const isRemoval = (kind: string) => kind !== "keep";

/** The step answer for a tier result (the DO's, or a lease holder's own); `lease` when one is granted. */
export function stepOutputOf(result: TierResult, lease?: StepLease): StepOutput {
  const out: StepOutput = {
    disabled: false,
    // The selected tier: a tier that refused a step reports "none" in its result, with the reason.
    tier: result.skipped?.tier ?? result.tier,
    skipped: result.skipped?.reason ?? null,
    plan: result.plan,
    step: result.step?.step ?? null,
    tokens_original: result.tokens_original,
    tokens_after: result.tokens_after,
    pairs_removed: Object.values(result.plan.actions).filter((a) => isRemoval(a.kind)).length,
    cost_estimate: result.cost_estimate,
    new_pair_ids: result.step?.pair_ids ?? [],
    warnings: result.warnings,
  };
  if (result.native !== undefined) out.native = result.native;
  if (lease !== undefined) out.lease = lease;
  return out;
}

/** A request a step-lease holder decided itself (no step call), reported after its answer. */
export interface LeasedCall {
  /** Request time, epoch ms (the gateway's clock). */
  now_ms: number;
  model: string | null;
  provider: ConversationView["provider"];
  /** The tier the policy selected (as StepOutput.tier). */
  tier: Tier;
  /** First-seen times of pairs this request showed first (LedgerAdditions.first_seen). */
  first_seen: Record<string, number>;
}

/** One request's after-the-answer report (SessionObject.reportCalls): what the DO did not see before the forward. */
export interface CallReport {
  /** Set when a lease holder decided the request (the DO saw no step call for it). */
  leased: LeasedCall | null;
  outcome: OutcomeReport | null;
  usage: Usage | null;
  /** Estimated input tokens of the bytes forwarded (calibration against `usage`). */
  estimated_input_tokens: number;
}

/** An outcome the gateway reports after forwarding (off the hot path, in waitUntil). */
export interface OutcomeReport {
  correlation_id: string;
  /**
   * "compacted" (edited body forwarded), "unchanged" (nothing to edit), "measured" (measurement
   * mode: original forwarded, `would_send` counted), or a fail-open reason.
   */
  outcome: string;
  /** The step to roll back when the edited body was not forwarded (measurement mode keeps its steps: they are the simulation). */
  rollback_step: number | null;
  /** Estimated tokens of the request as the client sent it. */
  tokens_original: number;
  /** Estimated tokens of the bytes forwarded (the estimator over the edited body). */
  tokens_sent: number;
  tier: Tier;
  /** Pairs whose removal action was applied (refused ones excluded). */
  pairs_removed: number;
  /** Measurement mode: estimated tokens the edited body would have had; null otherwise. */
  would_send: number | null;
  /**
   * Native mechanism: the tool uses the forwarded edit asks the provider to clear (C). The
   * saving counts only once the provider's `applied_edits` confirms it (../usage/settle-native.ts).
   * Absent: a spliced (or unchanged) request.
   */
  native_cleared?: number;
}

/** What the session DO recorded for one outcome (reportOutcome's answer; feeds the session index). */
export interface OutcomeRecorded {
  /** The session's model calls so far. */
  calls: number;
  /** max(0, tokens_original − tokens_sent) of this call. */
  tokens_saved: number;
  /** tokens_saved priced at the session's effective input price, USD. */
  usd_saved: number;
}
