/**
 * Audit trail records (pure data + zod schemas). Each kind has a strict field schema holding
 * counts, sizes, ids, hosts, hashes and prices only — never prompt text or a secret (DESIGN
 * invariant 7): an entry that does not fit its schema cannot be written.
 *
 * A record: {seq, time, kind, fields, prev_hash, hash, hmac}
 * - seq: 1, 2, 3… without gaps; time: ISO 8601 UTC written by the audit DO.
 * - hash = SHA-256(canonical JSON of {seq, time, kind, fields, prev_hash}); prev_hash of seq 1
 *   is GENESIS_HASH.
 * - hmac = HMAC-SHA-256(key, hash).
 */
import { z } from "zod";
import type { StepTerms } from "../cost/net-benefit";

/** prev_hash of the first record: 64 zeros. */
export const GENESIS_HASH = "0".repeat(64);

const hex64 = z.string().regex(/^[0-9a-f]{64}$/);
/** Correlation and session ids: printable id characters only, so no text can ride in them. */
const id = z.string().regex(/^[A-Za-z0-9._:@-]{1,200}$/);
/** `URL.host` of a destination: hostname or bracketed IPv6, optional port. */
const host = z.string().regex(/^[A-Za-z0-9.\-[\]:]{1,260}$/);
const count = z.number().int().nonnegative();
/** A cost-model term, USD (net may be negative for an ungated step). */
const usdTerm = z.number().finite();

/** Field schemas per kind. */
export const AUDIT_FIELDS = {
  /** A config was loaded: its canonical hash (the config holds secret NAMES only), mode and engine. */
  config_loaded: z.strictObject({ config_hash: hex64, mode: z.enum(["off", "measure", "compact"]), engine: z.enum(["heuristic", "local", "remote"]) }),
  /** An HTTP engine was first used in an isolate: where requests go. */
  engine_destination: z.strictObject({ engine: z.enum(["local", "remote"]), host }),
  /** Consent to export prompt excerpts to `host` (consent_export_prompt: true). Dated by the record time; stays valid after config changes. */
  consent: z.strictObject({ scope: z.literal("export_prompt"), host, config_hash: hex64 }),
  /** The global kill switch was set (POST /admin/compaction/disable | /enable): compaction off (`disabled: true`) or on for the whole deployment. */
  global_compaction: z.strictObject({ disabled: z.boolean() }),
  /**
   * One compaction step (DESIGN §3 record_tier_event): counts only, and the cost model's terms
   * it was taken on (USD; R in calls; avg in tokens: ../cost/net-benefit.ts StepTerms), absent in
   * records written before the terms were kept.
   */
  compaction_step: z.strictObject({
    tier: z.enum(["micro", "time_based", "auto", "session_memory", "none"]),
    tokens_before: count,
    tokens_after: count,
    usd: z.number().nonnegative().finite(),
    correlation_id: id,
    session_id: id,
    remaining_calls: z.number().nonnegative().finite().optional(),
    remaining_calls_source: z.enum(["deployment", "seed"]).optional(),
    avg_request_tokens: z.number().nonnegative().finite().optional(),
    future_savings_usd: usdTerm.optional(),
    cache_miss_usd: usdTerm.optional(),
    request_cost_usd: usdTerm.optional(),
    distortion_usd: usdTerm.optional(),
    quality_gain_usd: usdTerm.optional(),
    net_usd: usdTerm.optional(),
  }),
} as const;

export type AuditKind = keyof typeof AUDIT_FIELDS;

/** The compaction_step fields that carry a step's cost-model terms. */
export type StepTermFields = Pick<z.infer<(typeof AUDIT_FIELDS)["compaction_step"]>, "remaining_calls" | "remaining_calls_source" | "avg_request_tokens" | "future_savings_usd" | "cache_miss_usd" | "request_cost_usd" | "distortion_usd" | "quality_gain_usd" | "net_usd">;

/** The audit fields of `terms` (../cost/net-benefit.ts StepTerms). */
export function stepTermFields(terms: StepTerms): Required<StepTermFields> {
  return {
    remaining_calls: terms.remaining_calls,
    remaining_calls_source: terms.remaining_calls_source,
    avg_request_tokens: terms.avg_request_tokens,
    future_savings_usd: terms.future_savings,
    cache_miss_usd: terms.cache_miss,
    request_cost_usd: terms.request_cost,
    distortion_usd: terms.distortion,
    quality_gain_usd: terms.quality_gain,
    net_usd: terms.net,
  };
}
export const AUDIT_KINDS = Object.keys(AUDIT_FIELDS) as AuditKind[];

/** What a writer supplies: a kind and its fields. */
export type AuditEntry = { [K in AuditKind]: { kind: K; fields: z.infer<(typeof AUDIT_FIELDS)[K]> } }[AuditKind];

/** Validates an entry from outside (RPC, tests). */
export const auditEntrySchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("config_loaded"), fields: AUDIT_FIELDS.config_loaded }),
  z.strictObject({ kind: z.literal("engine_destination"), fields: AUDIT_FIELDS.engine_destination }),
  z.strictObject({ kind: z.literal("consent"), fields: AUDIT_FIELDS.consent }),
  z.strictObject({ kind: z.literal("global_compaction"), fields: AUDIT_FIELDS.global_compaction }),
  z.strictObject({ kind: z.literal("compaction_step"), fields: AUDIT_FIELDS.compaction_step }),
]);

/** A stored, sealed record. `fields` is kept as parsed JSON. */
export interface AuditRecord {
  seq: number;
  time: string;
  kind: AuditKind;
  fields: Record<string, string | number | boolean>;
  prev_hash: string;
  hash: string;
  hmac: string;
}
