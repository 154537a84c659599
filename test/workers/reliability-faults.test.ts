/**
 * Fault rows of docs/reliability.md not covered elsewhere: the upstream resets
 * mid-stream with the usage tap active, the client aborts mid-stream (the upstream connection
 * must close, no work leaks), the session DO is evicted between two calls (its state
 * survives), the config changes between two calls, and the clock jumps (an alarm fires late
 * and applies every deadline already passed). Exact expected outcomes per row.
 */
import { describe, expect, inject, it } from "vitest";
import { StateTx } from "../../src/session/state";
import { RECORD } from "../../src/session/session-record";
import { createExecutionContext, evictDurableObject, runDurableObjectAlarm, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { Env } from "../../src/config/env";
import type { SessionObject } from "../../src/session/session-object";
import worker from "../../src/worker";
import { SSE_GATED_EVENTS } from "../support/scenarios";
import { TEST_API_KEY, bytesOf, closedState, concat, gatewayWithEnv, newTestId, progress, received, sha256Hex, utf8 } from "./helpers";

const seed = inject("corpusSeeds").find((s) => s.name === "cc-cctrace-opus4#15")!;
const ORIGINAL = utf8(seed.body);
const sessions = () => (env as unknown as Env).SESSION as DurableObjectNamespace<SessionObject>;
const stubOf = (session: string) => sessions().get(sessions().idFromName(session));

/** Heuristic engine, gates at 0: this request gets a micro step on its first call (5 pairs). */
const COMPACT = JSON.stringify({ threshold_tokens: 0, min_reduction: 0, preserve_recent_turns: 1, min_remaining_calls: 8 });

/** Starts a request on the Worker with `vars` overridden, without waiting for its waitUntil work. */
function start(vars: Record<string, string>, path: string, init: RequestInit): { res: Promise<Response>; done: () => Promise<void> } {
  const ctx = createExecutionContext();
  const res = worker.fetch(new Request(`http://sluice.test${path}`, init) as Request<unknown, IncomingRequestCfProperties>, { ...(env as unknown as Env), ...vars }, ctx);
  return { res: Promise.resolve(res), done: () => waitOnExecutionContext(ctx) };
}

/** Polls `probe` every 50 ms until it returns non-null or `ms` pass. */
async function poll<T>(probe: () => Promise<T | null>, ms: number): Promise<T | null> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== null || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const sseHeaders = (id: string, scenario: string, session: string) => ({
  "content-type": "application/json", "x-api-key": TEST_API_KEY, "x-test-id": id, "x-test-scenario": scenario, "x-sluice-session": session,
});

describe("upstream resets mid-stream", () => {
  for (const [label, vars] of [["compaction off", {}], ["compaction on (usage tap active)", { COMPACTION_CONFIG: COMPACT }]] as const) {
    it(`${label}: the client gets the bytes sent before the reset, then a read error; one upstream attempt`, async () => {
      const id = newTestId("sse-reset");
      const { res, done } = start(vars, seed.path, { method: "POST", headers: sseHeaders(id, "sse-reset", `reset-${id}`), body: ORIGINAL });
      const r = await res;
      expect(r.status).toBe(200);
      const reader = r.body!.getReader();
      const chunks: Uint8Array[] = [];
      let error: unknown = null;
      try {
        for (;;) {
          const { done: end, value } = await reader.read();
          if (end) break;
          chunks.push(value);
        }
      } catch (e) {
        error = e;
      }
      expect(new TextDecoder().decode(concat(chunks))).toBe(SSE_GATED_EVENTS[0]! + SSE_GATED_EVENTS[1]!);
      expect(String(error)).toBe("Error: Network connection lost.");
      await done();
      expect(await received(id)).toHaveLength(1);
    });
  }
});

describe("client aborts mid-stream", () => {
  for (const [label, vars] of [["compaction off", {}], ["compaction on (usage tap active)", { COMPACTION_CONFIG: COMPACT }]] as const) {
    it(`${label}: cancelling after the first event closes the upstream connection before the answer ends`, async () => {
      const id = newTestId("abort");
      const { res, done } = start(vars, seed.path, { method: "POST", headers: sseHeaders(id, "sse-gated", `abort-${id}`), body: ORIGINAL });
      const reader = (await res).body!.getReader();
      const first = await reader.read();
      expect(new TextDecoder().decode(first.value)).toBe(SSE_GATED_EVENTS[0]);
      await reader.cancel();
      // sse-gated holds event 2 until released (or 3 s): a close seen before that is the abort.
      expect(await poll(() => closedState(id), 2_500)).toEqual({ finished: false });
      expect(await progress(id)).toEqual({ sent: 1, finished: false });
      await done();
    });
  }
});

describe("session DO evicted between two calls", () => {
  it("state survives: the second call forwards the same edited bytes (ledger re-applied), counters continue", async () => {
    const session = `evict-${newTestId("s")}`;
    const send = async () => {
      const id = newTestId("evict");
      const r = await gatewayWithEnv({ COMPACTION_CONFIG: COMPACT }, seed.path, { method: "POST", headers: { "content-type": "application/json", "x-api-key": TEST_API_KEY, "x-test-id": id, "x-sluice-session": session }, body: ORIGINAL });
      expect(r.status).toBe(200);
      return bytesOf((await received(id))[0]!);
    };
    const first = await send();
    expect(first.length).toBeLessThan(ORIGINAL.length);
    const stub = stubOf(session);
    await evictDurableObject(stub);
    const second = await send();
    expect(await sha256Hex(second)).toBe(await sha256Hex(first));
    const stats = await stubOf(session).stats();
    expect({ calls: stats.calls, steps: stats.steps.length, compacted: stats.counters.compacted, requests: stats.counters.requests }).toEqual({ calls: 2, steps: 1, compacted: 2, requests: 2 });
  });
});

describe("config changed between two calls", () => {
  it("compact → off → measure → compact: edited, original, original, the first edit again (ledger kept)", async () => {
    const session = `config-${newTestId("s")}`;
    const send = async (vars: Record<string, string>) => {
      const id = newTestId("cfg");
      const r = await gatewayWithEnv(vars, seed.path, { method: "POST", headers: { "content-type": "application/json", "x-api-key": TEST_API_KEY, "x-test-id": id, "x-sluice-session": session }, body: ORIGINAL });
      expect(r.status).toBe(200);
      return { sha: await sha256Hex(bytesOf((await received(id))[0]!)), header: r.headers.get("x-sluice-compaction") };
    };
    const original = await sha256Hex(ORIGINAL);
    const a = await send({ COMPACTION_CONFIG: COMPACT });
    const off = await send({ COMPACTION_CONFIG: "", SLUICE_COMPACTION: "0" });
    const measure = await send({ COMPACTION_CONFIG: COMPACT, SLUICE_MEASURE: "1" });
    const again = await send({ COMPACTION_CONFIG: COMPACT });
    expect(a.sha).not.toBe(original);
    expect([off.sha, off.header]).toEqual([original, null]);
    expect(measure.sha).toBe(original);
    expect(measure.header).toMatch(/^measure; tier=/);
    expect(again.sha).toBe(a.sha);
    const stats = await stubOf(session).stats();
    // The DO saw 3 calls (off never reaches it); one step, re-applied by the last call.
    expect({ calls: stats.calls, steps: stats.steps.length, measure: stats.counters.measure_requests }).toEqual({ calls: 3, steps: 1, measure: 1 });
  });
});

describe("clock jumps: the alarm fires late", () => {
  /** idle 1 s, complete 2 s, retention 60 s (schema minimums). */
  const TIMED = JSON.stringify({ ...JSON.parse(COMPACT), idle_seconds: 1, complete_after_seconds: 2, retention_seconds: 60 });

  async function sessionWithActivity(): Promise<{ session: string; stub: DurableObjectStub<SessionObject> }> {
    const session = `clock-${newTestId("s")}`;
    const r = await gatewayWithEnv({ COMPACTION_CONFIG: TIMED }, seed.path, { method: "POST", headers: { "content-type": "application/json", "x-api-key": TEST_API_KEY, "x-test-id": newTestId("clock"), "x-sluice-session": session }, body: ORIGINAL });
    expect(r.status).toBe(200);
    return { session, stub: stubOf(session) };
  }
  /** Moves the session's last activity `seconds` into the past (as if the clock jumped forward). */
  const jump = (stub: DurableObjectStub<SessionObject>, seconds: number) =>
    runInDurableObject(stub, (_o: SessionObject, state: DurableObjectState) => {
      const tx = new StateTx(state.storage.sql);
      const last = tx.get(RECORD).last_activity_ms!;
      tx.update(RECORD, { last_activity_ms: last - seconds * 1000 });
      tx.commit();
      return last - seconds * 1000;
    });

  it("past idle and complete: one late idle alarm marks both, and the next alarm is retention at last + 60 s", async () => {
    const { stub } = await sessionWithActivity();
    const last = await jump(stub, 10);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const stats = await stub.stats();
    expect({ idle: stats.idle, complete: stats.complete, alarms_idle: stats.counters.alarms_idle, alarms_complete: stats.counters.alarms_complete }).toEqual({ idle: true, complete: true, alarms_idle: 1, alarms_complete: 1 });
    // Idle and complete are both marked: the pending alarm is retention's.
    const next = await runInDurableObject(stub, async (_o: SessionObject, state: DurableObjectState) => state.storage.getAlarm());
    expect(next).toBe(last + 60_000);
  });

  it("past retention: a late idle alarm deletes the state (a fresh instance sees an empty session)", async () => {
    const { session, stub } = await sessionWithActivity();
    await jump(stub, 120);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    await evictDurableObject(stub);
    const stats = await stubOf(session).stats();
    expect({ calls: stats.calls, session_id: stats.session_id, counters: stats.counters }).toEqual({ calls: 0, session_id: null, counters: {} });
  });
});
