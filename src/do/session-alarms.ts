/**
 * The session's alarm schedule and what each alarm does to the state (shell over the SQL store,
 * shared by the session DO — which owns the real alarm and deleteAll — and the replay's
 * in-process host, which catches up on the alarms a virtual-time gap would have fired).
 * Deadlines count from the last activity: idle (marks the session idle so the next request is
 * priced as cache-cold) → complete (next request gets session_memory) → retention (delete all).
 */
import { DEFAULTS } from "../config/defaults";
import type { SessionStore } from "./session-store";

/** Timing settings, seconds. */
export interface AlarmTimings {
  idle_seconds: number;
  complete_after_seconds: number;
  retention_seconds: number;
}

/** Which alarm is pending. */
export type AlarmKind = "idle" | "complete" | "retention";

/** Timing settings from the last config the session saw (defaults before any). */
export function alarmTimings(store: SessionStore): AlarmTimings {
  const raw = store.getMeta("config");
  const c = raw ? (JSON.parse(raw) as Partial<typeof DEFAULTS>) : {};
  return {
    idle_seconds: c.idle_seconds ?? DEFAULTS.idle_seconds,
    complete_after_seconds: c.complete_after_seconds ?? DEFAULTS.complete_after_seconds,
    retention_seconds: c.retention_seconds ?? DEFAULTS.retention_seconds,
  };
}

/** The next pending alarm after activity at `last` (epoch ms), remembering its kind in meta `alarm_kind`. */
export function nextAlarm(store: SessionStore, last: number): { kind: AlarmKind; at_ms: number } {
  const t = alarmTimings(store);
  const next: { kind: AlarmKind; at_ms: number } =
    store.getMeta("idle") !== "1" ? { kind: "idle", at_ms: last + t.idle_seconds * 1000 }
    : store.getMeta("complete") !== "1" ? { kind: "complete", at_ms: last + t.complete_after_seconds * 1000 }
    : { kind: "retention", at_ms: last + t.retention_seconds * 1000 };
  store.setMeta("alarm_kind", next.kind);
  return next;
}

/**
 * Runs the alarm that was scheduled (`alarm_kind`) at `now` (epoch ms): idle → mark idle;
 * complete → mark complete; retention → "delete" (the host deletes all state). An alarm that
 * fires late (clock jump, eviction) also applies every later deadline already passed.
 * Returns what the host must do next: delete the state, or schedule the next alarm.
 */
export function runAlarm(store: SessionStore, now: number): "delete" | "reschedule" {
  const t = alarmTimings(store);
  const last = store.getMetaNumber("last_activity_ms", now);
  const kind = store.getMeta("alarm_kind") ?? "idle";
  if (kind === "retention" || now >= last + t.retention_seconds * 1000) return "delete";
  if (kind === "complete" || now >= last + t.complete_after_seconds * 1000) {
    store.setMeta("complete", 1);
    store.add("alarms_complete", 1);
  }
  if (kind === "idle") store.add("alarms_idle", 1);
  store.setMeta("idle", 1);
  return "reschedule";
}
