/**
 * What one model call does to the session's state (shell over the SQL store), whether the DO
 * decided it (runStep, before the forward) or a step-lease holder did and reports it after the
 * answer (../core/policy/step-lease.ts). Counts, times, model names and first-seen times only.
 */
import type { CompactionConfig } from "../config/schema";
import type { SessionStepState } from "../core/policy/step-context";
import type { Ledger } from "../core/policy/ledger";
import type { Provider } from "../core/view/types";
import { saveAdditions } from "./ledger-sql";
import { alarmTimings } from "./session-alarms";
import type { SessionStore } from "./session-store";
import type { LeasedCall } from "./step-types";

/**
 * Records the call a step is deciding, at `now_ms` (epoch ms, the gateway's clock), and returns
 * the state it is decided under (read before this call's writes): calls including this one,
 * the previous activity (`previous_activity_ms` when the call's own granted lease ask already
 * recorded its activity), the idle and complete marks. Clears both marks (the session is active).
 */
export function beginCall(store: SessionStore, call: { now_ms: number; model: string | null; provider: Provider; config: CompactionConfig; previous_activity_ms?: number }, ledger: Ledger): SessionStepState {
  const calls = store.getMetaNumber("calls") + 1;
  const last = store.getMeta("last_activity_ms");
  const state: SessionStepState = {
    calls,
    // The call's own lease ask already moved the stored activity to this call (./open-lease.ts): the activity before it, as the ask saw it.
    last_activity_ms: call.previous_activity_ms !== undefined ? call.previous_activity_ms : last === null ? null : Number(last),
    idle: store.getMeta("idle") === "1",
    complete: store.getMeta("complete") === "1",
    ledger,
  };
  store.setMeta("calls", calls);
  store.setMeta("last_activity_ms", call.now_ms);
  store.setMeta("complete", 0);
  store.setMeta("idle", 0);
  store.setMeta("config", JSON.stringify(call.config));
  noteRequest(store, call);
  return state;
}

/** What every call records however it was decided: the model it named, the session's first time, one request more. */
function noteRequest(store: SessionStore, call: { now_ms: number; model: string | null; provider: Provider }): void {
  store.setMeta("model", call.model ?? "");
  store.setMeta("provider", call.provider);
  if (store.getMeta("first_seen_ms") === null) store.setMeta("first_seen_ms", call.now_ms);
  store.add("requests", 1);
}

/**
 * Records a call a lease holder decided at `call.now_ms`, reported at `now_ms` (the DO's
 * clock): the counts and first-seen times runStep would have written. The last activity only
 * moves forward. The idle and complete marks are cleared only while the session cannot have
 * been idle since the call (now_ms < call.now_ms + idle_seconds): an alarm that fired before
 * the report, timed from the activity the DO knew, fired too early; one that fired a whole idle
 * period after the call is right and stays.
 */
export function recordLeasedCall(store: SessionStore, sql: SqlStorage, call: LeasedCall, now_ms: number): void {
  store.setMeta("calls", store.getMetaNumber("calls") + 1);
  const last = store.getMeta("last_activity_ms");
  if (last === null || call.now_ms > Number(last)) store.setMeta("last_activity_ms", call.now_ms);
  if (now_ms < call.now_ms + alarmTimings(store).idle_seconds * 1000) {
    store.setMeta("idle", 0);
    store.setMeta("complete", 0);
  }
  store.setMeta("last_tier", call.tier);
  noteRequest(store, call);
  store.add("leased_requests", 1);
  saveAdditions(sql, { entries: [], first_seen: call.first_seen, step: null }, null);
}
