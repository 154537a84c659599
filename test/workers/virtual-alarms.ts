/**
 * The session Durable Object's alarms on a test's virtual clock (Workers runtime): the platform
 * runs an alarm at the time it was set for; a test whose calls carry virtual times runs the DO's
 * own alarm handler (`runDurableObjectAlarm`) with `Date` set to that time (the DO runs in the
 * tests' isolate, so the fake clock reaches its handler), then puts the real clock back.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { vi } from "vitest";
import type { SessionObject } from "../../src/session/session-object";

/** The alarm the DO has set, epoch ms, or null. */
export function scheduledAlarm(stub: DurableObjectStub<SessionObject>): Promise<number | null> {
  return runInDurableObject(stub, (_o: SessionObject, state: DurableObjectState) => state.storage.getAlarm());
}

/** Runs the DO's alarm handler with Date at `at_ms`; false when no alarm was set. */
export async function runAlarmAt(stub: DurableObjectStub<SessionObject>, at_ms: number): Promise<boolean> {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(at_ms);
  try {
    return await runDurableObjectAlarm(stub);
  } finally {
    vi.useRealTimers();
  }
}

/** Runs, in order, every alarm the DO sets for a time ≤ `now_ms`, each at its time. Returns how many ran. */
export async function runAlarmsDue(stub: DurableObjectStub<SessionObject>, now_ms: number): Promise<number> {
  let ran = 0;
  for (let at = await scheduledAlarm(stub); at !== null && at <= now_ms; at = await scheduledAlarm(stub)) {
    if (!(await runAlarmAt(stub, at))) throw new Error(`the alarm set for ${at} did not run`);
    ran++;
  }
  return ran;
}
