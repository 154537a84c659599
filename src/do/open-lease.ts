/**
 * A step lease asked for before any view is sent (shell over the SQL store; "lease first",
 * docs/config.md "Step lease"): a gateway isolate that holds no lease for the session asks the
 * DO for one alone, decides the request itself (../gateway/decide-leased.ts) and sends its view
 * only when that decision would take a step. Until 2026-12-02 every such request sent its whole
 * slim view (every tool result's first 4 096 characters: up to hundreds of KB) to a step call:
 * slimView and its structured clone were 3.5–7.3 ms of a session's 9–17 ms first call in Node;
 * in workerd under the load a first call's main thread went 46.8 → 42.7 ms with this
 * (docs/reliability.md, ninth session) — and in production, where a session's calls land on
 * many isolates, every call that lands on one without the session's lease paid it.
 *
 * The lease is granted only when the DO's own step would decide the request from nothing but
 * what the lease carries (calls, last activity, ledger: ../core/policy/step-lease.ts rule 2):
 * not for a disabled session, one marked idle or complete by its alarms (their tiers read those
 * marks), an HTTP engine, `step_lease_ms` 0, or while another isolate holds a lease — those ask
 * for the step with the view, as before.
 */
import type { CompactionConfig } from "../config/schema";
import type { CompactionMode } from "../config/load-config";
import { foreignLeaseHeld, grantLease, mayGrantLease, type StepLease } from "../core/policy/step-lease";
import { loadLedger } from "./ledger-sql";
import { recordLeasedCall } from "./session-calls";
import type { SessionStore } from "./session-store";
import type { LeasedCall } from "./step-types";

/** The gateway's ask. */
export interface LeaseInput {
  session_id: string;
  config: CompactionConfig;
  mode: Exclude<CompactionMode, "off">;
  /** The request's time, epoch ms (the gateway's clock). */
  now_ms: number;
  /** The calling isolate's holder token. */
  lease_holder: string;
  /** The caller's leased calls not reported yet, recorded first (as StepInput.leased_calls). */
  leased_calls?: LeasedCall[];
}

/**
 * Records `input.leased_calls` and the config (the alarms' timings read it), then grants
 * `input.lease_holder` a lease and records the request's activity (`last_activity_ms` moves to
 * `now_ms`; the lease carries the one before), or returns null — nothing more recorded — when the
 * request must go to the step call. A session with no activity yet gets a lease with
 * `last_activity_ms` = `now_ms`: the request it is asked for then sees 0 s of idle time, as the
 * step call gives a first request. The caller flushes.
 */
export function openLease(store: SessionStore, sql: SqlStorage, input: LeaseInput): StepLease | null {
  const { config, now_ms } = input;
  for (const call of input.leased_calls ?? []) recordLeasedCall(store, sql, call, now_ms);
  store.setMeta("config", JSON.stringify(config));
  if (store.getMeta("disabled") === "1" || store.getMeta("idle") === "1" || store.getMeta("complete") === "1") return null;
  const held = { holder: store.getMeta("lease_holder"), expires_ms: store.getMetaNumber("lease_expires_ms") };
  if (!mayGrantLease(config, input.lease_holder, foreignLeaseHeld(held, input.lease_holder, now_ms))) return null;
  const last = store.getMeta("last_activity_ms");
  const lease = grantLease(input.lease_holder, now_ms, config, input.mode, { calls: store.getMetaNumber("calls"), last_activity_ms: last === null ? now_ms : Number(last), ledger: loadLedger(sql) });
  store.setMeta("lease_holder", lease.holder);
  store.setMeta("lease_expires_ms", lease.expires_ms);
  // The request is active now, as a step call records it: the idle alarm is timed from here, so it cannot fire under the
  // lease (rule 1), and another isolate's step sees this activity. Its call is counted by its report (or by its step, which
  // then reads the activity before this one: StepInput.previous_activity_ms).
  if (last === null || now_ms > Number(last)) store.setMeta("last_activity_ms", now_ms);
  return lease;
}
