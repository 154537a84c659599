/**
 * Types of the tier policy (pure data): tiers and their cost weights, the budget pressure a
 * request is under, the config subset the core reads, the context every tier gets and the
 * result it returns (DESIGN §3).
 */
import type { GuaranteeLevel, EngineKind, MechanismSetting } from "../../config/defaults";
import type { CostParams, } from "../cost/cost-defaults";
import type { SummarizerBounds } from "../cost/summary-estimate";
import type { ModelPrice } from "../cost/prices";
import type { NetBenefit, StepTerms } from "../cost/net-benefit";
import type { RemainingCallsSource } from "../cost/estimate-remaining-calls";
import type { RuleName, Verdicts } from "../engine/verdict";
import type { TierMap } from "../memory/build-tier-map";
import type { EditPlan } from "../plan/types";
import type { StepFacts } from "../facts/step-facts";
import type { Ledger, LedgerAdditions } from "./ledger";
import type { NativeParams } from "./resolve-mechanism";
import type { Calibration } from "../tokens/calibrate";
import type { CompactionState } from "./native-compaction";

/** The tiers, highest priority first (selectTier order). */
export const TIERS = ["session_memory", "auto", "time_based", "micro", "none"] as const;
export type Tier = (typeof TIERS)[number];

/**
 * Relative cost of running each tier (DESIGN §3 table): cost_estimate = tokens_saved / 1000 ×
 * cost_per_1k_tokens × weight.
 */
export const TIER_COST_WEIGHT: Readonly<Record<Tier, number>> = {
  micro: 0.05,
  time_based: 0.1,
  auto: 0.5,
  session_memory: 1.0,
  none: 0,
};

/** How much pressure the session is under for this request (DESIGN §3). */
export interface BudgetPressure {
  /** Model calls of the session including this one, 1-based. */
  turn_count: number;
  /** Estimated request tokens / the model's context window, 0..1 (may exceed 1). */
  context_pct_used: number;
  /** Seconds since the session's previous activity (previous request or response). */
  idle_seconds: number;
  /** True once the session is over (complete alarm fired). */
  session_complete: boolean;
}

/** The config keys the core reads (names and defaults from src/config/defaults.ts). */
export interface CoreConfig {
  engine: EngineKind;
  threshold_tokens: number;
  min_result_bytes: number;
  preserve_recent_turns: number;
  decision_threshold: number;
  head_chars: number;
  min_reduction: number;
  guarantee_level: GuaranteeLevel;
  exclude_tools: readonly string[];
  idle_seconds: number;
  /** time_based age cutoff, seconds (src/core/tiers/time-based.ts). Absent or null: the idle gap itself. */
  time_based_age_seconds?: number | null;
  /** Turns a file stays in the agent's working set after its last read or edit (src/core/engine/file-views.ts); null: for good; absent: the default. */
  working_set_turns?: number | null;
  /** Floor of the seed prior's expected remaining calls R (../cost/estimate-remaining-calls.ts); absent: the default. */
  min_remaining_calls?: number;
  auto_context_pct: number;
  /** How a step reaches the provider (./resolve-mechanism.ts). Absent: auto. */
  mechanism?: MechanismSetting;
  /** Level `rewrite`: the summariser that writes a stretch's summary, for the cost model's bounds (../cost/summary-estimate.ts). Absent or null: the in-process extractive one. */
  summarizer?: SummarizerBounds;
}

/** Everything a tier needs for one request. The host (session DO) supplies it; nothing here does I/O. */
export interface TierContext {
  view: StepFacts;
  /** The session's ledger before this request. */
  ledger: Ledger;
  pressure: BudgetPressure;
  config: CoreConfig;
  /** Price table (src/core/cost/prices.ts MODEL_PRICES unless overridden); looked up by view.model. */
  prices: readonly ModelPrice[];
  /** Overrides of the cost model's seed parameters (β, Q, r, …); prices come from `prices`. */
  cost_params?: Partial<CostParams>;
  /** Current time, epoch milliseconds (the host's clock). */
  now_ms: number;
  /** R: expected remaining calls (see src/core/cost/estimate-remaining-calls.ts). */
  expected_remaining_calls: number;
  /** Where R came from (the deployment's session lengths or the seed estimate); absent: seed. */
  remaining_calls_source?: RemainingCallsSource;
  /** avg of the distortion term: the session's average request size, tokens (src/core/cost/average-request-tokens.ts). Absent: this request's estimate. */
  avg_request_tokens?: number;
  /** Correlates the trace event with the request. */
  correlation_id: string;
  /**
   * Verdicts of an HTTP engine (local/remote), fetched by the host. Absent with engine
   * "heuristic": the core runs the heuristic engine itself. Absent with an HTTP engine (it
   * failed or timed out): no engine removals this request (fail open).
   */
  verdicts?: Verdicts;
  /** USD the engine charged for the verdicts (compaction request cost of a removal step). 0 by default. */
  engine_cost_usd?: number;
  /**
   * The session's estimator calibration (src/core/tokens/calibrate.ts): the `threshold_tokens`
   * and `min_reduction` gates compare calibrated tokens. Absent: the estimates as they are.
   */
  calibration?: Calibration;
  /** The session's server-side compaction state (./native-compaction.ts). Absent: none. */
  native_compaction?: CompactionState;
}

/** Why no step was taken. */
export type SkipReason =
  | "server_managed"
  | "under_threshold"
  | "no_candidates"
  | "under_min_reduction"
  | "not_positive"
  | "not_selected"
  /** A paying step waits to gather more removals (./step-timing.ts). */
  | "gathering";

/**
 * What decided a pair's removal in a step: the engine rule whose verdict it carried
 * (../engine/verdict.ts), or the tier's own reason when no verdict did —
 * - `age`: time_based (and session_memory below rewrite) drops a pair first seen before the idle gap;
 * - `long_result`: the collapse of a result over `min_result_bytes` to its head (../tiers/propose-collapse.ts);
 * - `media`: auto strips a result's images and documents;
 * - `stretch_summary`: level rewrite replaces a stretch of pairs by one summary (../tiers/pick-stretch.ts);
 * - `session_end`: session_memory at level rewrite drops what no stretch holds;
 * - `native_prefix`: under the native mechanism, a pair no tier proposed that the oldest-first
 *   clearing takes with it (./native-prefix.ts).
 */
export type RemovalRule = RuleName | "age" | "long_result" | "media" | "stretch_summary" | "session_end" | "native_prefix";

/** The step taken by this request, if any. */
export interface StepTaken {
  /** Step number in the session (1-based). */
  step: number;
  /** Pair ids newly edited, in history order. */
  pair_ids: string[];
  /** What decided each of `pair_ids` (id → rule). */
  rules: Record<string, RemovalRule>;
  /** Cut boundary: messages [0, boundary) were eligible. */
  boundary: number;
  /** Estimated tokens the step removes. */
  tokens_removed: number;
  /** The cost model's terms for the chosen cut, USD. */
  benefit: NetBenefit;
  /** The same terms with R, avg, H and K, for the audit record and the session's stats. */
  terms: StepTerms;
}

/**
 * The best cut a tier priced and did not take (skipped `not_positive`, `gathering` or
 * `under_min_reduction`): what the step would have done, for the replay's hindsight of the
 * savings a gate held back (tools/replay/held-back.ts). Estimated tokens; USD.
 */
export interface DeclinedCut {
  /** H: tokens the cut would have removed from every later request. */
  removed_tokens: number;
  /** K: tokens after its first edit the next request would have written again. */
  rewritten_tokens: number;
  /** Tokens of the request before the cut's first edit (system and tools included). */
  first_edit_tokens: number;
  /** Estimated tokens of the whole request (the unit of the three above). */
  request_tokens: number;
  /** The five-term net benefit it was priced at, USD. */
  net_usd: number;
}

/** What a tier returns. */
export interface TierResult {
  tier: Tier;
  /** Estimated tokens of the request after the ledger was re-applied, before this tier's step. */
  tokens_before: number;
  /** Estimated tokens forwarded (after the whole plan). Equal to tokens_before when no step. */
  tokens_after: number;
  /** USD: (tokens_before − tokens_after) / 1000 × cost_per_1k_tokens × TIER_COST_WEIGHT[tier]. */
  cost_estimate: number;
  /** The whole plan to apply: re-applied ledger actions plus this step's. */
  plan: EditPlan;
  correlation_id: string;
  /** Estimated tokens of the request as the client sent it. */
  tokens_original: number;
  /** What the host must add to the session's ledger (first-seen times always; entries and a step record when a step was taken). */
  ledger_additions: LedgerAdditions;
  step: StepTaken | null;
  /** The tier the policy selected and why it took no step (null when a step was taken or the selection was none). */
  skipped: { tier: Tier; reason: SkipReason } | null;
  /** The best cut the tier priced and did not take, when it skipped for the cost model, the timing rule or the minimum reduction; absent otherwise. */
  declined?: DeclinedCut;
  /** The memory tier map (session_memory tier only). */
  memory: TierMap | null;
  /** Non-fatal notes: unknown model price, ledger entries that could not be re-applied. */
  warnings: string[];
  /**
   * Present when the plan reaches the provider by the native mechanism (./resolve-mechanism.ts):
   * the plan's removals are then an oldest-first prefix rendered as one server-side edit, never
   * spliced. Absent: splice.
   */
  native?: NativeParams;
}
