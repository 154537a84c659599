/**
 * The session Durable Object's RPC shapes (pure data, no behaviour): what the gateway sends per
 * request — one `step` before the forward, one `report` after the answer — and what it gets
 * back (DESIGN §1, §6). Reasons and outcomes are closed unions, so a new reason is a type error
 * on both sides of the RPC, never a free string.
 */
import type { CompactionConfig } from "../config/schema";
import type { CompactionMode } from "../config/load-config";
import type { EditPlan } from "../core/plan/types";
import type { WireFacts } from "../core/facts/wire-facts";
import type { RemovalRule, SkipReason, Tier } from "../core/policy/types";
import type { NativeParams } from "../core/policy/resolve-mechanism";
import type { ProviderCleared } from "../usage/settle-native";
import type { Usage } from "../usage/extract-usage";
import type { StepTerms } from "../core/cost/net-benefit";
import type { RemainingCallsTable } from "../core/cost/session-lengths";
import type { Calibration } from "../core/tokens/calibrate";

/**
 * Why a request went upstream with its original bytes (DESIGN invariant 5):
 * - `parse`: the body did not parse as the route's chat request;
 * - `do_error` / `do_timeout`: the step RPC threw or passed its deadline;
 * - `apply_error`: applying the plan threw;
 * - `guarantee_check`: the edited bytes failed the independent check;
 * - `hook_error`: anything else the compaction hook threw (src/gateway/handle-request.ts).
 */
/**
 * Why the original bytes went: the body did not parse, the session DO failed or was late, the
 * plan could not be applied or failed the guarantee check, the compaction hook threw; native
 * mechanism only: the route has no native edit (`native_unsupported`), a new step's pairs are not
 * the leading tool uses the edit clears (`native_not_prefix`).
 */
export type FailOpenReason = "parse" | "do_error" | "do_timeout" | "apply_error" | "guarantee_check" | "hook_error" | "native_unsupported" | "native_not_prefix";

/**
 * What became of one request: `compacted` (edited bytes forwarded), `unchanged` (nothing to
 * edit, or the session is disabled), `measured` (measurement mode: original forwarded, what
 * would have been sent counted), or the fail-open reason.
 */
/** `native_not_applied`: a native edit the provider did not apply (../usage/settle-native.ts). */
export type Outcome = "compacted" | "unchanged" | "measured" | "native_not_applied" | FailOpenReason;

/** The one pre-forward RPC of a request (SessionObject.step). */
export interface StepInput {
  session_id: string;
  /** What the core reads of the request, computed in the gateway (src/core/facts/step-facts.ts), columnar (src/core/facts/wire-facts.ts): hashes, sizes, classifications, no result text beyond a failed result's first line (HTTP engines: head_chars). */
  facts: WireFacts;
  config: CompactionConfig;
  mode: Exclude<CompactionMode, "off">;
  correlation_id: string;
  /** Request time, epoch ms (the Worker's clock). */
  now_ms: number;
  /**
   * The deployment's remaining-calls table (src/core/cost/session-lengths.ts: a few dozen
   * numbers), as the gateway's isolate last read it from the session index
   * (src/gateway/session-lengths-cache.ts); absent: the seed estimate of R.
   */
  remaining_calls_table?: RemainingCallsTable;
  /**
   * The request's project key (src/gateway/project-key.ts: a hash of the caller and the working
   * directory, or of the caller and the conversation), sent only when `memory_retention_seconds`
   * > 0; the session keeps it for its complete alarm (src/do/project-memory.ts).
   */
  project_key?: string;
  /**
   * `memory_inject`: true when the memory block has a place in this request
   * (src/providers/shared/memory-message.ts memoryPlaceable: Anthropic needs an assistant message
   * or nothing after the first user message). The session claims its project's map only then
   * (src/do/memory-inject.ts). Absent: no place, or injection off.
   */
  memory_placeable?: true;
}

/** The DO's answer. `plan` is the whole plan to apply (re-applied ledger + any new step). */
export interface StepOutput {
  /** True when an operator turned compaction off for this session (nothing else was decided). */
  disabled: boolean;
  /** The tier the policy selected for this request (DESIGN §3), whether or not it took a step. */
  tier: Tier;
  /** Why the selected tier took no step, or null. */
  skipped: SkipReason | null;
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
  /** The rule or tier that decided each of `new_pair_ids` (measurement: the replay charges each removal to it). Absent: no step. */
  new_pair_rules?: { pair_id: string; rule: RemovalRule }[];
  warnings: string[];
  /**
   * Present when the plan goes by the native mechanism (../core/policy/resolve-mechanism.ts):
   * the gateway forwards the messages byte for byte and adds one server-side edit
   * (../gateway/decide-forward.ts). Absent: the plan is spliced.
   */
  native?: NativeParams;
  /** Native only: what the provider reported for the session's last native edit (from its `applied_edits`); absent before any report. */
  provider_cleared?: ProviderCleared;
  /** The cost model's five terms of the step this request took (with R, avg, H, K); absent without a step. */
  terms?: StepTerms;
  /**
   * The session's estimator calibration (../core/tokens/calibrate.ts), which the gateway applies
   * to the `x-sluice-compaction` header's figures. Absent before the session's first answer.
   */
  calibration?: Calibration;
  /**
   * `memory_inject` (level `rewrite`): the session's memory block text
   * (src/core/memory/render-memory-block.ts), the same on every call of the session; the gateway
   * inserts it directly after the first user message (src/providers/shared/memory-message.ts).
   * Absent: none.
   */
  memory_block?: string;
  /** True on the one call that claimed the block from the project's memory (counted in the metrics). */
  memory_block_claimed?: boolean;
}

/** An outcome as the gateway decided it (src/gateway/decide-forward.ts). */
export interface OutcomeReport {
  correlation_id: string;
  outcome: Outcome;
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
  /**
   * Native mechanism at level `rewrite`: the `trigger` value of the `compact_20260112` edit the
   * forwarded request carried (../core/policy/native-compaction.ts). The saving counts only once
   * the answer's `usage.iterations` reports a compaction (../usage/settle-native.ts). Absent: no
   * compaction asked.
   */
  native_compaction_trigger?: number;
  /**
   * Level `rewrite`: what the gateway's summariser did for this request's new `summarize`
   * actions (those whose plan text was null). The session stores a written text in the host's
   * ledger entry, so every later request re-applies the same bytes; a failed one turns the
   * host's entry into `drop_pair` (the step fell back to removal only). Absent: none was needed.
   */
  summaries?: WrittenSummary[];
  /** Estimated tokens of the memory block the forwarded body carries (StepOutput.memory_block); absent when it carries none. */
  memory_block_tokens?: number;
}

/** One summary the gateway wrote (or failed to write) for a `summarize` host pair. */
export type WrittenSummary =
  | {
      pair_id: string;
      ok: true;
      text: string;
      /** Tokens the summariser read and wrote, as it reported them. */
      input_tokens: number;
      output_tokens: number;
      /** USD: the summariser's cost (term ③ of the cost model); 0 for the in-process extractive one. */
      cost_usd: number;
      latency_ms: number;
    }
  | { pair_id: string; ok: false; /** Text-free reason (src/engines/summarizer.ts SummaryFailureReason). */ reason: string; latency_ms: number };

/**
 * The after-the-answer RPC of a request (SessionObject.report): its outcome and the provider's
 * usage, each possibly null (a rollback's outcome goes at once, its usage after the answer).
 */
export interface CallReport {
  outcome: OutcomeReport | null;
  usage: Usage | null;
  /** Estimated input tokens of the bytes forwarded (calibration against `usage` when `outcome` is null; else the outcome's figures count). */
  estimated_input_tokens: number;
}

/** What the session DO recorded for one outcome (report's answer; feeds the session index). */
export interface OutcomeRecorded {
  /** The session's model calls so far. */
  calls: number;
  /** max(0, tokens_original − tokens_sent) of this call, calibrated to the provider's counts once the session has an answer (src/core/tokens/calibrate.ts calibrateRemoved). */
  tokens_saved: number;
  /** tokens_saved priced at the session's effective input price, USD. */
  usd_saved: number;
}
