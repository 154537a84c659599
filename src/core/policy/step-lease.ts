/**
 * The step lease (pure): how a gateway isolate may decide a session's requests without the
 * session DO's step call, and exactly when it may not (docs/config.md "Step lease").
 *
 * Why: DESIGN §1 puts one DO call before every forward. Most requests of a session take no new
 * step — they only re-apply the ledger (invariant 6) — and that decision needs only the
 * ledger, the call count and the last activity, all of which the DO can hand over. Measured
 * under `wrangler dev` (docs/reliability.md): the synchronous step call alone took the
 * compaction-on added latency from 1.42× to 2.82× compaction-off.
 *
 * The rules:
 * 1. The DO grants a lease with a step answer (heuristic engine, session not disabled,
 *    `step_lease_ms` > 0), to the calling isolate (`holder`), until
 *    now + min(step_lease_ms, idle_seconds) — so it ends before the idle alarm could fire.
 * 2. While it lasts, the holder runs the same `compact` over the same state (./step-context.ts)
 *    for the session's requests. A request whose result takes no step is forwarded with that
 *    plan (the re-applied ledger) and reported after the answer; one that would take a step,
 *    build memory, or see another config or mode goes to the DO as usual.
 * 3. While a lease is held by one isolate (plus LEASE_SKEW_MS for clock skew), the DO takes no
 *    new step for any other isolate (`steps_held`): the holder's copy of the ledger stays the
 *    session's ledger, so every later request re-applies every removal (invariant 6).
 * 4. A rolled-back step voids the lease it came with (the gateway drops it; the DO clears it).
 */
import { compact } from "./compact";
import { mergeLedger, type Ledger } from "./ledger";
import { stepContext } from "./step-context";
import type { CoreConfig, TierResult } from "./types";
import type { ConversationView } from "../view/types";

/** Margin for clock skew between the DO's and the holder's clocks, ms: the DO holds steps this long past a lease's end. */
export const LEASE_SKEW_MS = 1_000;

/** What the DO hands the calling isolate with a step answer. */
export interface StepLease {
  /** The isolate it was granted to (a random token per isolate). */
  holder: string;
  /** Epoch ms (the gateway's clock, as the step's `now_ms`) from which it is void. */
  expires_ms: number;
  /** The config and mode it was granted under (configKey); any other config goes to the DO. */
  config_key: string;
  /** The session's calls including the granting request. */
  calls: number;
  /** Epoch ms of the granting request. */
  last_activity_ms: number;
  /** The session's ledger after the granting request's additions. */
  ledger: Ledger;
}

/** The key a lease is tied to: the config (as JSON) and the mode. */
export function configKey(config: object, mode: string): string {
  return `${mode} ${JSON.stringify(config)}`;
}

/**
 * True when the DO may grant a lease (rule 1): the caller asked for one (`holder`), leases are
 * on (`step_lease_ms` > 0), the engine is the built-in heuristic (an HTTP engine's verdicts come
 * from the DO) and no other isolate holds one (`steps_held`).
 */
export function mayGrantLease(config: { step_lease_ms: number; engine: string }, holder: string | undefined, steps_held: boolean): holder is string {
  return holder !== undefined && config.step_lease_ms > 0 && config.engine === "heuristic" && !steps_held;
}

/**
 * The lease granted to `holder` at `now_ms` (epoch ms, the gateway's clock) under `config` (the
 * whole config: its JSON is part of the lease's key) and `mode`, for a session with `calls` model calls recorded (`last_activity_ms` the latest) and
 * `ledger` (rule 1): it ends at leaseExpiry.
 */
export function grantLease(
  holder: string,
  now_ms: number,
  config: object & { step_lease_ms: number; idle_seconds: number },
  mode: string,
  state: { calls: number; last_activity_ms: number; ledger: Ledger },
): StepLease {
  return {
    holder,
    expires_ms: leaseExpiry(now_ms, config.step_lease_ms, config.idle_seconds),
    config_key: configKey(config, mode),
    calls: state.calls,
    last_activity_ms: state.last_activity_ms,
    ledger: state.ledger,
  };
}

/** Epoch ms at which a lease granted at `now_ms` ends: now + min(step_lease_ms, idle_seconds × 1000). */
export function leaseExpiry(now_ms: number, step_lease_ms: number, idle_seconds: number): number {
  return now_ms + Math.min(step_lease_ms, idle_seconds * 1000);
}

/**
 * True when a lease held by someone other than `caller` (undefined: an isolate that takes no
 * lease) is still in force at `now_ms` (rule 3). A null or empty holder means none.
 */
export function foreignLeaseHeld(held: { holder: string | null; expires_ms: number }, caller: string | undefined, now_ms: number): boolean {
  return held.holder !== null && held.holder !== "" && held.holder !== caller && now_ms < held.expires_ms + LEASE_SKEW_MS;
}

/** True when `lease` still covers a request at `now_ms` under config key `key` (not ended, same config and mode). */
export function leaseApplies(lease: StepLease, key: string, now_ms: number): boolean {
  return now_ms < lease.expires_ms && key === lease.config_key;
}

/**
 * The holder's decision for `view` at `now_ms` (rule 2): the tier result when it takes no step
 * and builds no memory, else null (ask the DO). Null also when the lease does not apply
 * (leaseApplies).
 */
export function leasedStep(lease: StepLease, key: string, view: ConversationView, config: CoreConfig, now_ms: number, correlation_id: string): TierResult | null {
  if (!leaseApplies(lease, key, now_ms)) return null;
  const state = { calls: lease.calls + 1, last_activity_ms: lease.last_activity_ms, idle: false, complete: false, ledger: lease.ledger };
  const result = compact(stepContext(state, view, config, now_ms, correlation_id));
  return result.step === null && result.memory === null ? result : null;
}

/** The lease after the holder decided one request at `now_ms` with `result`: one call more, that activity, its first-seen times. */
export function advanceLease(lease: StepLease, now_ms: number, result: TierResult): StepLease {
  return {
    ...lease,
    calls: lease.calls + 1,
    last_activity_ms: Math.max(lease.last_activity_ms, now_ms),
    ledger: mergeLedger(lease.ledger, result.ledger_additions),
  };
}
