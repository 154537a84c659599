/**
 * The session's own record (DESIGN §6) and its alarm schedule: the typed slots the session
 * keeps besides the compaction ledger (./compaction-ledger.ts) and what its observers own —
 * counts, times, marks, the model it last saw, the estimator calibration, the server-side
 * compaction state, whether the provider manages the history, the previous request's prefix, its
 * tier map and memory block — and the pure
 * rules of its three alarms. Counts, hashes and ids only, but for the memory block and tier map
 * of level `rewrite`'s opt-in (DESIGN invariant 7).
 */
import { z } from "zod";
import { DEFAULTS } from "../config/defaults";
import type { CompactionConfig } from "../config/schema";
import { NO_CALIBRATION, type Calibration } from "../core/tokens/calibrate";
import type { TierMap } from "../core/memory/build-tier-map";
import type { PrefixFacts } from "../core/facts/prefix-facts";
import { tierMapSchema } from "../admin/search-memory";
import { defineSlot } from "./state";

const count = z.number().int().nonnegative();
const num = z.number().finite();

/** Which alarm is pending: idle → complete → retention. */
export type AlarmKind = "idle" | "complete" | "retention";

const calibrationSchema = z.object(Object.fromEntries(Object.keys(NO_CALIBRATION).map((k) => [k, num])) as Record<keyof Calibration, typeof num>);

const recordSchema = z.object({
  session_id: z.string().nullable(),
  /** Model calls stepped so far. */
  calls: count,
  /** Epoch ms of the first call, and of the last activity (a step or an answer). */
  first_seen_ms: num.nullable(),
  last_activity_ms: num.nullable(),
  idle: z.boolean(),
  complete: z.boolean(),
  /** The model and route of the last call (prices: ../core/cost/find-model-price.ts). */
  model: z.string().nullable(),
  provider: z.enum(["anthropic", "openai-chat", "openai-responses"]).nullable(),
  /** `configHash` of the config the last step ran under (the alarms read its timings). */
  config_hash: z.string().nullable(),
  last_tier: z.string().nullable(),
  calibration: calibrationSchema,
  /** Server-side compaction (../core/policy/native-compaction.ts CompactionState). */
  native_compaction: z.enum(["none", "answered", "returned", "dropped"]),
  /** What the provider did with the last native edit (contract.ts ProviderCleared); null before any. */
  provider_cleared: z.object({ applied: z.boolean(), tool_uses: count, input_tokens: count }).nullable(),
  /** `memory_inject`: the block text this session carries on every call; null: none. */
  memory_block: z.string().nullable(),
});

/** The session's record (see recordSchema). */
export type SessionRecord = z.infer<typeof recordSchema>;

/** The record of a session that has seen no call. */
export const NEW_RECORD: SessionRecord = {
  session_id: null, calls: 0, first_seen_ms: null, last_activity_ms: null, idle: false, complete: false,
  model: null, provider: null, config_hash: null, last_tier: null, calibration: NO_CALIBRATION, native_compaction: "none", provider_cleared: null, memory_block: null,
};

export const RECORD = defineSlot<SessionRecord>("session", recordSchema, () => ({ ...NEW_RECORD }));

/**
 * An operator turned compaction off for this session (the per-session kill switch). A slot of its
 * own, so a record that fails its schema and starts over never turns the switch back on.
 */
export const DISABLED = defineSlot<boolean>("disabled", z.boolean(), () => false);

/**
 * The provider manages this session's history: the first request whose history held a
 * `compaction` block or item the session did not cause (../core/policy/native-compaction.ts
 * viewFromCompaction keeps Sluice's own block out). From then on every step stands aside
 * (`server_managed`), whether or not a later request still carries the block: the client chose
 * the provider's compaction, and two compactors on one history work against each other (Sluice's
 * removals move the provider's threshold; its summary may stand for what Sluice removed). A slot
 * of its own, so it survives a record that fails its schema. Null: not seen.
 */
export interface ServerManaged {
  /** What `server_managed` named on that request ("compaction"). */
  type: string;
  /** The session's call number of that request (1-based). */
  since_call: number;
}

/**
 * The one `server_managed` type a session records: every other stands aside before the session
 * step (src/gateway/prepare-compaction.ts), so a `compaction` block or item alone reaches it.
 */
export const SERVER_MANAGED_TYPE = "compaction";

export const SERVER_MANAGED = defineSlot<ServerManaged | null>("server_managed", z.object({ type: z.string(), since_call: count }).nullable(), () => null);

/** One request's prefix as the session remembers it, for the savings ledger and the cache diagnostics. Hashes and counts only. */
export interface LastPrefix {
  /** Epoch ms of the request (the step's clock). */
  at_ms: number;
  prefix: PrefixFacts;
  /** Estimated tokens per message, aligned with `prefix.message_hashes`. */
  message_tokens: number[];
  /** Estimated tokens of the whole request. */
  est_tokens: number;
}

const lastPrefixSchema = z.object({
  at_ms: num,
  prefix: z.looseObject({ members: z.array(z.looseObject({})), message_hashes: z.array(z.string()) }),
  message_tokens: z.array(num),
  est_tokens: num,
}) as unknown as z.ZodType<LastPrefix>;

/** The previous request's prefix (null before the first, or when it carried none). */
export const LAST_PREFIX = defineSlot<LastPrefix | null>("last_prefix", lastPrefixSchema.nullable(), () => null);

/** The session's tier map (session_memory, or the complete alarm's with project memory on); null before one. */
export const MEMORY = defineSlot<TierMap | null>("memory", (tierMapSchema as unknown as z.ZodType<TierMap>).nullable(), () => null);

/** Configs the gateway sent with their hash (contract.ts module header): hash → config JSON, at most MAX_SENT_CONFIGS. */
export const SENT_CONFIGS = defineSlot<Record<string, unknown>>("sent_configs", z.record(z.string(), z.unknown()), () => ({}));
/** Sent configs kept (a deploy has two versions at most; tests a few). */
export const MAX_SENT_CONFIGS = 8;

/** Alarm timings, seconds (DESIGN §6). */
export type AlarmTimings = Pick<CompactionConfig, "idle_seconds" | "complete_after_seconds" | "retention_seconds">;

/** The defaults' timings (a session whose config is unknown). */
export const DEFAULT_TIMINGS: AlarmTimings = { idle_seconds: DEFAULTS.idle_seconds, complete_after_seconds: DEFAULTS.complete_after_seconds, retention_seconds: DEFAULTS.retention_seconds };

/** The next pending alarm of `r` (epoch ms), and its kind; null before the first activity. */
export function nextAlarm(r: SessionRecord, t: AlarmTimings): { kind: AlarmKind; at_ms: number } | null {
  if (r.last_activity_ms === null) return null;
  const last = r.last_activity_ms;
  if (!r.idle) return { kind: "idle", at_ms: last + t.idle_seconds * 1000 };
  if (!r.complete) return { kind: "complete", at_ms: last + t.complete_after_seconds * 1000 };
  return { kind: "retention", at_ms: last + t.retention_seconds * 1000 };
}

/**
 * What the alarm due at `now_ms` does to `r`: idle → marks idle; complete → marks complete;
 * retention → `delete` (the session wipes its state). An alarm that fires late (clock jump,
 * eviction) also applies every later deadline already passed. `counters` are what to count.
 */
export function runAlarm(r: SessionRecord, now_ms: number, t: AlarmTimings): { delete: true } | { delete: false; record: SessionRecord; counters: Record<string, number> } {
  const next = nextAlarm(r, t);
  const last = r.last_activity_ms ?? now_ms;
  if (next?.kind === "retention" || now_ms >= last + t.retention_seconds * 1000) return { delete: true };
  const counters: Record<string, number> = {};
  let complete = r.complete;
  if (next?.kind === "complete" || now_ms >= last + t.complete_after_seconds * 1000) {
    complete = true;
    counters.alarms_complete = 1;
  }
  if (next?.kind === "idle") counters.alarms_idle = 1;
  return { delete: false, record: { ...r, idle: true, complete }, counters };
}
