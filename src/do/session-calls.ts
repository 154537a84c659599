/**
 * What one model call does to the session's state (shell over the SQL store), written by the
 * DO's step (./run-step.ts) before the forward: counts, times, model names. Counts, times and
 * model names only.
 */
import type { CompactionConfig } from "../config/schema";
import type { SessionStepState } from "../core/policy/step-context";
import type { Ledger } from "../core/policy/ledger";
import type { Provider } from "../core/view/types";
import type { SessionStore } from "./session-store";

/**
 * Records the call a step is deciding, at `now_ms` (epoch ms, the gateway's clock), and returns
 * the state it is decided under (read before this call's writes): calls including this one,
 * the previous activity, the idle and complete marks. Clears both marks (the session is active).
 */
export function beginCall(store: SessionStore, call: { now_ms: number; model: string | null; provider: Provider; config: CompactionConfig }, ledger: Ledger): SessionStepState {
  const calls = store.getMetaNumber("calls") + 1;
  const last = store.getMeta("last_activity_ms");
  const state: SessionStepState = {
    calls,
    last_activity_ms: last === null ? null : Number(last),
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
