/**
 * The session's RPC contract (DESIGN §1, §6): what the gateway sends per request — one `step`
 * before the forward, one `report` after the answer — and what it gets back, with the zod
 * schemas the session checks both inputs against at its boundary (./session.ts). Reasons and
 * outcomes are closed unions, so a new reason is a type error on both sides of the RPC, never a
 * free string. The config does not travel: the step carries its hash (`configHash`) and the
 * session loads the same config from its own env; only a hash the session does not know (a
 * Worker and a Durable Object of different versions during a deploy, or a test's modified vars)
 * is answered with `{ config_unknown: true }`, and the gateway sends the step once more with the
 * config attached, which the session keeps under its hash.
 */
import type { CompactionConfig } from "../config/schema";
import type { CompactionMode } from "../config/load-config";
import type { EditPlan } from "../core/plan/types";
import type { WireFacts } from "../core/facts/wire-facts";
import type { DeclinedCut, RemovalRule, SkipReason, Tier } from "../core/policy/types";
import type { NativeParams } from "../core/policy/resolve-mechanism";
import type { Usage } from "../usage/extract-usage";
import type { StepTerms } from "../core/cost/net-benefit";
import type { RemainingCallsTable } from "../core/cost/session-lengths";
import type { Calibration } from "../core/tokens/calibrate";
import { z } from "zod";
import { hashText } from "../core/hash";
import { TIERS } from "../core/policy/types";

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
 * would have been sent counted), `native_not_applied` (a native edit the provider did not apply:
 * ./record-report.ts), or the fail-open reason.
 */
export type Outcome = "compacted" | "unchanged" | "measured" | "native_not_applied" | FailOpenReason;

/** The one pre-forward RPC of a request (SessionObject.step). */
export interface StepInput {
  session_id: string;
  /** What the core reads of the request, computed in the gateway (src/core/facts/step-facts.ts), columnar (src/core/facts/wire-facts.ts): hashes, sizes, classifications, no result text beyond a failed result's first line (HTTP engines: head_chars). */
  facts: WireFacts;
  /** `configHash` of the Worker's compaction config. */
  config_hash: string;
  /** The config itself, sent only after the session answered `{ config_unknown: true }` to this hash. */
  config?: CompactionConfig;
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
   * > 0; the session keeps it for its complete alarm (src/observers/project-memory.ts).
   */
  project_key?: string;
  /**
   * `memory_inject`: true when the memory block has a place in this request
   * (src/providers/shared/memory-message.ts memoryPlaceable: Anthropic needs an assistant message
   * or nothing after the first user message). The session claims its project's map only then
   * (src/session/run-step.ts). Absent: no place, or injection off.
   */
  memory_placeable?: true;
  /**
   * The caller id of the request (src/http/middleware/caller.ts: "g:" or "p:" + SHA-256 hex);
   * the first one a session sees becomes its owner, the only caller its archive answers
   * (src/session/archive-store.ts). Absent: a host without callers (the replay).
   */
  caller_id?: string;
}

/** The step's answer: the plan, or a request for the config behind an unknown hash (module header). */
export type StepAnswer = StepOutput | { config_unknown: true };

/** What the provider did with the last native edit of a session, as the next requests' header reports it. */
export interface ProviderCleared {
  /** The provider reported the edit applied. */
  applied: boolean;
  /** Tool uses it cleared (0 when not applied). */
  tool_uses: number;
  /** Input tokens it cleared (0 when not applied). */
  input_tokens: number;
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
  /** The best cut the selected tier priced and did not take (skipped for the cost model, the timing rule or the minimum reduction); absent otherwise. */
  declined?: DeclinedCut;
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
   * saving counts only once the provider's `applied_edits` confirms it (./record-report.ts).
   * Absent: a spliced (or unchanged) request.
   */
  native_cleared?: number;
  /**
   * Native mechanism at level `rewrite`: the `trigger` value of the `compact_20260112` edit the
   * forwarded request carried (../core/policy/native-compaction.ts). The saving counts only once
   * the answer's `usage.iterations` reports a compaction (./record-report.ts). Absent: no
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
  /** When the answer ended (or the outcome was decided), epoch ms: the gateway's clock. */
  now_ms: number;
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
/** How the session ran: compacting (the edited body went) or measuring (the original went). */
export type LedgerMode = "compact" | "measure";

/** What one report added to the session's ledger. */
export interface LedgerDelta {
  mode: LedgerMode;
  /** 1 when the report carried a request's outcome (the denominator of engine-wait shares), else 0. */
  requests: number;
  /** 1 when the report carried the provider's usage (the call is priced), else 0. */
  priced_calls: number;
  /** Input cost without Sluice, USD: compact — the client's body priced with the session's cache behaviour; measure — from the provider's usage. */
  without_usd: number;
  /** Input cost with Sluice, USD: compact — from the provider's usage; measure — the would-send body priced like the client's. */
  with_usd: number;
  /** What decision engines and the summariser charged, USD (the built-in heuristic and the extractive summariser cost 0). */
  engine_cost_usd: number;
  /** Worst-case loss of the removals this report made final, USD: each removed result re-sent once as uncached input. */
  loss_usd: number;
  /** Pairs newly removed (or, measuring, that would have been). */
  removals: number;
  /** Of `removals`, results of deterministic, re-runnable tools (reads, greps, listings: read-only calls). */
  removals_deterministic: number;
  /** Earlier removals whose same tool call (same tool, same input hash) the client issued again. */
  removals_refetched: number;
  /** Earlier removals whose file path a later call named again (by path hash). */
  removals_mentioned: number;
  /** 1 when the request waited on a decision engine (an HTTP engine consulted in the step), else 0. */
  engine_waits: number;
  /** How long it waited, ms. */
  engine_wait_ms: number;
}

/** A delta with every figure 0. */
export function emptyLedgerDelta(mode: LedgerMode): LedgerDelta {
  return {
    mode, requests: 0, priced_calls: 0, without_usd: 0, with_usd: 0, engine_cost_usd: 0, loss_usd: 0,
    removals: 0, removals_deterministic: 0, removals_refetched: 0, removals_mentioned: 0, engine_waits: 0, engine_wait_ms: 0,
  };
}

/** The numeric fields of a LedgerDelta, in a fixed order (counters, index series). */
export const LEDGER_FIELDS = [
  "requests", "priced_calls", "without_usd", "with_usd", "engine_cost_usd", "loss_usd", "removals", "removals_deterministic",
  "removals_refetched", "removals_mentioned", "engine_waits", "engine_wait_ms",
] as const satisfies readonly Exclude<keyof LedgerDelta, "mode">[];
export type LedgerField = (typeof LEDGER_FIELDS)[number];

/** The answer of the session's `report` RPC: what the outcome recorded (null without one) and what the savings ledger added (absent without that observer). */
export interface ReportAnswer {
  recorded: OutcomeRecorded | null;
  ledger?: LedgerDelta;
}

/** Hash of a compaction config as the step carries it (hex; the same config gives the same hash in the Worker and the session). */
export function configHash(config: CompactionConfig): string {
  return hashText(JSON.stringify(config));
}

const count = z.number().int().nonnegative();
const num = z.number().finite();
const int = z.number().int();

/** WireFacts (../core/facts/wire-facts.ts) as the session accepts them: every slot typed, the prefix's members and cache facts as objects. */
const wireFactsSchema = z.object({
  provider: z.enum(["anthropic", "openai-chat", "openai-responses"]),
  model: z.string().nullable(),
  est_tokens: count,
  turn_count: count,
  server_managed: z.string().nullable(),
  compaction_message: count.optional(),
  orphan_call_messages: z.array(count),
  betas: z.array(z.string()),
  strings: z.array(z.string()),
  message_roles: z.array(count),
  message_turns: z.array(count),
  message_tokens: z.array(count),
  message_mentions: z.array(z.tuple([count, z.array(count)])),
  pairs: z.array(z.tuple([
    z.string(), int, z.string(), int, int, int, int, int, int, int, int, int, int, z.string(),
    int, z.number().int().min(0).max(2), z.array(z.string()), int, int, z.string(), int, z.string(), z.string(), z.string(), z.array(int),
  ])),
  prefix: z.object({ members: z.array(z.looseObject({})), message_hashes: z.string(), cache: z.looseObject({}).optional() }).nullable(),
});

/** StepInput as the session checks it (`step`): a failure is answered with an error naming the field, and the gateway fails open. */
export const stepInputSchema = z.object({
  session_id: z.string().min(1),
  facts: wireFactsSchema,
  config_hash: z.string().min(1),
  config: z.looseObject({}).optional(),
  mode: z.enum(["compact", "measure"]),
  correlation_id: z.string(),
  now_ms: num,
  remaining_calls_table: z.object({ quantile: num, at: z.array(num), later: z.array(num), sessions: num }).optional(),
  project_key: z.string().optional(),
  memory_placeable: z.literal(true).optional(),
  caller_id: z.string().min(1).optional(),
});

const usageSchema = z.object({
  input_tokens: count,
  cache_read_input_tokens: count,
  cache_creation_input_tokens: count,
  output_tokens: count,
  applied_edits: z.array(z.object({ type: z.string(), cleared_tool_uses: count, cleared_thinking_turns: count, cleared_input_tokens: count })).optional(),
  compaction: z.object({ input_tokens: count, output_tokens: count }).optional(),
}) satisfies z.ZodType<Usage>;

const writtenSummarySchema = z.union([
  z.object({ pair_id: z.string(), ok: z.literal(true), text: z.string(), input_tokens: count, output_tokens: count, cost_usd: num, latency_ms: num }),
  z.object({ pair_id: z.string(), ok: z.literal(false), reason: z.string(), latency_ms: num }),
]) satisfies z.ZodType<WrittenSummary>;

const outcomeReportSchema = z.object({
  correlation_id: z.string(),
  outcome: z.enum(["compacted", "unchanged", "measured", "native_not_applied", "parse", "do_error", "do_timeout", "apply_error", "guarantee_check", "hook_error", "native_unsupported", "native_not_prefix"]),
  rollback_step: z.number().int().nullable(),
  tokens_original: count,
  tokens_sent: count,
  tier: z.enum(TIERS),
  pairs_removed: count,
  would_send: count.nullable(),
  native_cleared: count.optional(),
  native_compaction_trigger: count.optional(),
  summaries: z.array(writtenSummarySchema).optional(),
  memory_block_tokens: count.optional(),
}) satisfies z.ZodType<OutcomeReport>;

/** CallReport as the session checks it (`report`). */
export const callReportSchema = z.object({
  outcome: outcomeReportSchema.nullable(),
  usage: usageSchema.nullable(),
  estimated_input_tokens: count,
  now_ms: num,
}) satisfies z.ZodType<CallReport>;

/**
 * Parses `value` with `schema`; throws an Error naming the first failing field
 * (`step input: facts.pairs.3.1: …`), which the gateway turns into a fail-open.
 */
export function checkInput<T>(what: string, schema: z.ZodType<T>, value: unknown): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  throw new Error(`${what}: ${issue.path.join(".") || "(root)"}: ${issue.message}`);
}
