/**
 * What the gateway tells the global session index after a request (pure data + pure
 * derivation, DESIGN §9). Two kinds: `outcome` (one forwarded chat request: outcome, tier,
 * step, tokens and USD saved, step latency; or a request Sluice stood aside on) and `usage` (the provider-reported usage of that
 * call, which arrives later from the response tap). Counts, ids, enums and sizes only — never
 * text (DESIGN invariant 7); the zod schema at the DO boundary enforces it (ids and enums are
 * pattern-checked, there is no free-text field).
 */
import { z } from "zod";
import { TIERS, type Tier } from "../core/policy/types";
import type { Provider } from "../core/view/types";
import type { OutcomeRecorded, OutcomeReport, StepOutput } from "../session/contract";
import type { Usage } from "../usage/extract-usage";
import type { StoodAside } from "../gateway/prepare-compaction";
import { estimateTokens } from "../core/tokens/estimate";
import { LEDGER_FIELDS, type LedgerDelta } from "../session/contract";
import { SERVER_MANAGED_TYPE } from "../session/session-record";

export const PROVIDERS = ["anthropic", "openai-chat", "openai-responses"] as const satisfies readonly Provider[];

/** Outcome label of a request in the index and the metrics (bounded set, unlike fail-open reasons). `stood_aside`: Sluice stood aside before the session step (src/gateway/prepare-compaction.ts). */
export const OUTCOME_LABELS = ["compacted", "unchanged", "measured", "disabled", "fail_open", "stood_aside"] as const;
export type OutcomeLabel = (typeof OUTCOME_LABELS)[number];

/** Session id as the pipeline derives it (src/gateway/session-id.ts: ≤ 200 chars or `h:` hash). */
const sessionId = z.string().min(1).max(210);
/** A fail-open reason: a snake_case code written by our code (e.g. do_timeout, guarantee_check). */
const reason = z.string().regex(/^[a-z][a-z0-9_]{0,47}$/);
/** A model id: ASCII id characters, ≤ 200 (the config `model` cap, src/config/schema.ts). */
export const MODEL_ID = /^[A-Za-z0-9._:@/+-]{1,200}$/;
const model = z.string().regex(MODEL_ID).nullable();
const count = z.number().finite().min(0);

/**
 * A stand-aside's `type` as a metric label: the type when it is a snake_case word of at most 48
 * characters (every type src/providers/known-types.ts lists, and a provider's new ones), else
 * "other" — so a client's text never becomes a label, and the rendered series stay bounded
 * (src/admin/metrics-catalog.ts MAX_STAND_ASIDE_TYPES).
 */
export const STAND_ASIDE_TYPE = /^[a-z][a-z0-9_]{0,47}$/;
export const standAsideTypeLabel = (type: string): string => (STAND_ASIDE_TYPE.test(type) ? type : "other");

export const indexUpdateSchema = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("outcome"),
    session_id: sessionId,
    provider: z.enum(PROVIDERS),
    model,
    /** Request time, epoch ms. */
    at_ms: z.number().int().min(0),
    outcome: z.enum(OUTCOME_LABELS),
    /** The fail-open reason when outcome = fail_open, else null. */
    fail_open_reason: reason.nullable(),
    /** Tier the policy chose for this request. */
    tier: z.enum(TIERS),
    /** Tier of the compaction step this request took and kept (not rolled back), else null. */
    step_tier: z.enum(TIERS).nullable(),
    /** Assistant turns in the request's history (view.turn_count). */
    turns: count.int(),
    /** The session's model calls so far (the DO's count), null when the DO did not answer. */
    calls: count.int().nullable(),
    tokens_original: count,
    tokens_sent: count,
    tokens_saved: count,
    usd_saved: count,
    /** Wall time of the session step RPC (ledger, tier, engine) seen by the gateway, ms; null without an answer. */
    step_ms: count.nullable(),
    /** `memory_inject`: the estimated tokens of the memory block this request's session claimed on this call (src/session/run-step.ts); absent on every other request. */
    memory_injected_tokens: count.optional(),
    /** A request Sluice stood aside on: why, and the feature or unknown type (its label: standAsideTypeLabel). Outcome `stood_aside` (before the session step), or the outcome of a step that stood aside because the session recorded a server-managed compaction (outcomeUpdate). */
    stand_aside: z.strictObject({ reason: z.enum(["server_managed", "unknown_type"]), type: z.string().regex(STAND_ASIDE_TYPE).or(z.literal("other")) }).optional(),
  }),
  z.strictObject({
    kind: z.literal("usage"),
    session_id: sessionId,
    provider: z.enum(PROVIDERS),
    at_ms: z.number().int().min(0),
    input_tokens: count,
    cache_read_input_tokens: count,
    cache_creation_input_tokens: count,
    output_tokens: count,
  }),
  z.strictObject({
    kind: z.literal("ledger"),
    session_id: sessionId,
    provider: z.enum(PROVIDERS),
    at_ms: z.number().int().min(0),
    mode: z.enum(["compact", "measure"]),
    /** The savings ledger's figures of one report (src/session/contract.ts LedgerDelta; USD may be negative: a call that cost more). */
    ...Object.fromEntries(LEDGER_FIELDS.map((f) => [f, z.number().finite()])) as Record<(typeof LEDGER_FIELDS)[number], z.ZodNumber>,
  }),
]);

export type IndexUpdate = z.infer<typeof indexUpdateSchema>;
export type OutcomeUpdate = Extract<IndexUpdate, { kind: "outcome" }>;
export type UsageUpdate = Extract<IndexUpdate, { kind: "usage" }>;
export type LedgerUpdate = Extract<IndexUpdate, { kind: "ledger" }>;

/** Everything the pipeline knows once a request's outcome is reported. */
export interface OutcomeFacts {
  session_id: string;
  provider: Provider;
  model: string | null;
  turns: number;
  now_ms: number;
  /** The DO's step answer, or null when the step RPC failed (do_error, do_timeout). */
  step: StepOutput | null;
  /** What the pipeline reported to the session DO. */
  report: OutcomeReport;
  /** What the DO recorded (SessionObject.report's answer), or null when it did not answer. */
  recorded: OutcomeRecorded | null;
  step_ms: number | null;
}

/** Outcome label of a report: the session DO's own names, fail-open reasons folded into one label. */
export function outcomeLabel(report: Pick<OutcomeReport, "outcome">, step: Pick<StepOutput, "disabled"> | null): OutcomeLabel {
  if (report.outcome === "compacted") return "compacted";
  if (report.outcome === "unchanged") return step?.disabled ? "disabled" : "unchanged";
  if (report.outcome === "measured") return "measured";
  return "fail_open";
}

/**
 * Derives the index update of one request (same figures the session DO stored). A step that stood
 * aside because the provider manages the session's history (skipped `server_managed`: the
 * request's own compaction, or one the session recorded earlier, src/session/run-step.ts) carries
 * `stand_aside` {server_managed, SERVER_MANAGED_TYPE}, so `sluice_stood_aside_total` counts it as
 * it counts the stand-asides before the step.
 */
export function outcomeUpdate(f: OutcomeFacts): OutcomeUpdate {
  const outcome = outcomeLabel(f.report, f.step);
  const kept = f.step !== null && f.step.step !== null && f.report.rollback_step === null && outcome !== "fail_open";
  return {
    kind: "outcome",
    session_id: f.session_id,
    provider: f.provider,
    model: f.model !== null && MODEL_ID.test(f.model) ? f.model : null,
    at_ms: f.now_ms,
    outcome,
    fail_open_reason: outcome === "fail_open" ? f.report.outcome : null,
    tier: f.report.tier as Tier,
    step_tier: kept ? f.step!.tier : null,
    turns: f.turns,
    calls: f.recorded?.calls ?? null,
    tokens_original: f.report.tokens_original,
    tokens_sent: f.report.tokens_sent,
    tokens_saved: f.recorded?.tokens_saved ?? Math.max(0, f.report.tokens_original - f.report.tokens_sent),
    usd_saved: f.recorded?.usd_saved ?? 0,
    step_ms: f.step_ms,
    ...(f.step?.skipped === "server_managed" ? { stand_aside: { reason: "server_managed" as const, type: SERVER_MANAGED_TYPE } } : {}),
    ...(f.step?.memory_block_claimed === true && f.step.memory_block !== undefined ? { memory_injected_tokens: estimateTokens(f.step.memory_block) } : {}),
  };
}

/**
 * The index update of a request Sluice stood aside on before the session step (no step, nothing
 * removed: the client's bytes went): outcome `stood_aside` with its reason and type label, so
 * `sluice_stood_aside_total` counts it and the session list shows it. Null when its session key
 * could not be read.
 */
export function standAsideUpdate(s: StoodAside, now_ms: number): OutcomeUpdate | null {
  if (s.session === null) return null;
  const est = s.view.est_tokens;
  return {
    kind: "outcome", session_id: s.session.id, provider: s.provider,
    model: s.view.model !== null && MODEL_ID.test(s.view.model) ? s.view.model : null,
    at_ms: now_ms, outcome: "stood_aside", fail_open_reason: null, tier: "none", step_tier: null,
    turns: s.view.turn_count, calls: null, tokens_original: est, tokens_sent: est, tokens_saved: 0, usd_saved: 0, step_ms: null,
    stand_aside: { reason: s.reason, type: standAsideTypeLabel(s.type) },
  };
}

/**
 * Derives the index update of a call's provider-reported usage: the four token counts only (the
 * index's schema is strict, and what the provider cleared natively is the session's, not the
 * index's: a field more would make the index refuse the whole batch).
 */
export function usageUpdate(session_id: string, provider: Provider, now_ms: number, u: Usage): UsageUpdate {
  return {
    kind: "usage", session_id, provider, at_ms: now_ms,
    input_tokens: u.input_tokens, cache_read_input_tokens: u.cache_read_input_tokens,
    cache_creation_input_tokens: u.cache_creation_input_tokens, output_tokens: u.output_tokens,
  };
}

/** Derives the index update of what one report added to a session's savings ledger (src/observers/savings-ledger.ts). */
export function ledgerUpdate(session_id: string, provider: Provider, now_ms: number, d: LedgerDelta): LedgerUpdate {
  return { kind: "ledger", session_id, provider, at_ms: now_ms, ...d };
}
