/**
 * One session, one behaviour: a corpus session run (a) through the replay host
 * (tools/replay/sluice/run-in-process.ts `createInProcessSluice`: its `transform`, then `settle`
 * with the call's usage) and (b) through the Worker with its session Durable Object (each
 * call's original body sent through the app, the upstream stand-in answering) forwards the same
 * bytes on every call and prices the same savings-ledger figures on every call, and ends with
 * the same session statistics.
 *
 * Both halves run in workerd over a Durable Object's own SQLite: (a) builds the replay host with
 * `openSql` returning the storage of a second SessionObject instance, inside that instance's
 * context (runInDurableObject: a DO's storage cannot be used from another context). Both run on
 * one virtual clock: call k at T0 + (its recorded time − the first call's), T0 a fixed date after
 * any real clock these tests run under (the recorded times are in the past, and an alarm the DO
 * sets in the real past fires on its own, at the real time). The replay
 * host runs the alarms due before each call itself; for (b) the test runs the DO's own alarm
 * handler at each time the DO set that falls before the call (./virtual-alarms.ts). The report
 * goes at the call's time in both (the replay's `settle` has no answer duration).
 *
 * Usage: each call's usage is a function of the bytes (a) forwarded and of the previous call's
 * (`usageOf`); (a) settles with it and the stand-in answers (b) with the same four numbers
 * (test/support/upstream-server.ts scenario `usage-tokens`).
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import type { LedgerDelta } from "../../src/session/contract";
import type { IndexUpdate } from "../../src/admin/index-update";
import { Session, type SessionStats } from "../../src/session/session";
import type { SessionObject } from "../../src/session/session-object";
import { createInProcessSluice } from "../../tools/replay/sluice/run-in-process";
import { readCorpus } from "../../tools/replay/read-corpus";
import { assignCallTimes } from "../../tools/replay/assign-call-times";
import { ANTHROPIC_VERSION } from "../../tools/replay/defaults";
import type { CallUsage, LedgerFigures } from "../../tools/replay/types";
import { TEST_API_KEY, bytesOf, newTestId, received } from "./helpers";
import { send, sessionStub, SESSIONS } from "./pipeline-harness";
import { runAlarmsDue } from "./virtual-alarms";
import { commonPrefixLength } from "../../src/providers/shared/common-prefix";

/** A corpus session the workers project already receives (test/support/global-setup.ts PIPELINE_CORPUS): 144 Anthropic calls over 19 hours, idle gaps included. */
const CORPUS_ID = "cc-cctrace-opus4";
const PATH = "/anthropic/v1/messages";
/** 2031-01-01T00:00:00Z: the virtual time of the session's first call. */
const T0 = Date.UTC(2031, 0, 1);
/** Compaction on with every setting at its default, for both halves. */
const VARS = { COMPACTION_CONFIG: "", SLUICE_COMPACTION: "1", SLUICE_MEASURE: "0" };

/**
 * A provider's usage for `body` (bytes forwarded), after `previous` (null: the first call): about
 * 4 bytes a token, the prefix shared with the previous body read from the cache, all but 8 of the
 * rest written to it, 8 uncached; output varies with the call. Only needs to be the same for
 * both halves and to exercise every usage field.
 */
function usageOf(previous: Uint8Array | null, body: Uint8Array, call: number): CallUsage {
  const total = Math.ceil(body.length / 4);
  const cache_read = previous === null ? 0 : Math.min(total, Math.floor(commonPrefixLength(previous, body) / 4));
  const cache_write = Math.max(0, total - cache_read - 8);
  return { input: total - cache_read - cache_write, cache_read, cache_write, output: 40 + (call % 7) * 10 };
}

/** What one half did on one call. */
interface CallResult {
  forwarded: string;
  ledger: LedgerFigures;
}

/** The calls of the corpus session: original bodies (as the replay sends them) and virtual times from `t0`. */
function corpusCalls(t0: number): { body: string; time_ms: number }[] {
  const session = readCorpus(inject(`corpus:${CORPUS_ID}` as never) as string, `${CORPUS_ID}.json`);
  const times = assignCallTimes(session.calls);
  return session.calls.map((c, i) => ({ body: JSON.stringify(c.body), time_ms: t0 + (times[i]! - times[0]!) }));
}

/** The agent's headers on every call (tools/replay/agent-headers.ts, with the test's key). */
const agentHeaders = (sid: string): Record<string, string> => ({ "content-type": "application/json", "anthropic-version": ANTHROPIC_VERSION, "x-api-key": TEST_API_KEY, "x-sluice-session": sid });

/** (a) The replay host over the storage of the SessionObject instance `stub`, run in its context. */
async function runReplayHost(stub: DurableObjectStub<SessionObject>, sid: string, calls: { body: string; time_ms: number }[]) {
  return runInDurableObject(stub, async (_o: SessionObject, state: DurableObjectState) => {
    const replay = createInProcessSluice({ env: VARS, openSql: () => ({ sql: state.storage.sql, close: () => undefined }) });
    const results: (CallResult & { usage: CallUsage })[] = [];
    let previous: Uint8Array | null = null;
    for (const [i, call] of calls.entries()) {
      const out = await replay.transform(new TextEncoder().encode(call.body), agentHeaders(sid), { provider: "anthropic", session_id: sid, call_index: i, time_ms: call.time_ms });
      const usage = usageOf(previous, out.body, i);
      previous = out.body;
      const ledger = await out.settle!(usage);
      results.push({ forwarded: new TextDecoder().decode(out.body), ledger, usage });
    }
    replay.close();
    // The same storage read by a Session as the DO would construct it: the replay's whole statistics.
    const stats = await new Session({ sql: state.storage.sql, env: VARS }).stats();
    return { results, stats };
  });
}

/** The ledger figures of one call as the replay's `settle` reports them, from the report answers' deltas the gateway passed to the index. */
function figuresOf(deltas: LedgerDelta[]): LedgerFigures {
  const sum = (f: keyof LedgerFigures) => deltas.reduce((s, d) => s + d[f], 0);
  return { without_usd: sum("without_usd"), with_usd: sum("with_usd"), removals: sum("removals"), removals_mentioned: sum("removals_mentioned"), removals_deterministic: sum("removals_deterministic") };
}

/** (b) The Worker with its DO: each call's original body through the app, on the virtual clock. */
async function runWorker(sid: string, calls: { body: string; time_ms: number }[], usages: CallUsage[]): Promise<{ results: CallResult[]; stats: SessionStats }> {
  const stub = sessionStub(sid);
  let clock = calls[0]!.time_ms;
  const updates: IndexUpdate[] = [];
  const overrides = {
    now: () => clock,
    index: { recordMany: async (u: IndexUpdate[]) => { updates.push(...u); return { ok: true }; } },
    // The replay host has no session index: the step goes without the deployment's remaining-calls table.
    remainingCallsTable: () => null,
  };
  const results: CallResult[] = [];
  for (const [i, call] of calls.entries()) {
    clock = call.time_ms;
    await runAlarmsDue(stub, clock);
    const u = usages[i]!;
    const testId = newTestId(`equivalence-${i}`);
    const headers = { ...agentHeaders(sid), "x-test-id": testId, "x-test-scenario": `usage-tokens:${u.input}:${u.cache_read}:${u.cache_write}:${u.output}` };
    const { res } = await send({ SLUICE_COMPACTION: "1" }, PATH, headers, call.body, overrides);
    expect(res.status).toBe(200);
    const got = await received(testId);
    expect(got.length).toBe(1);
    const deltas = updates.splice(0).flatMap((x) => (x.kind === "ledger" ? [x as unknown as LedgerDelta] : []));
    results.push({ forwarded: new TextDecoder().decode(bytesOf(got[0]!)), ledger: figuresOf(deltas) });
  }
  return { results, stats: await stub.stats() };
}

/** Where two texts first differ, with some context, or null when equal. */
function firstDifference(a: string, b: string): { at: number; replay: string; worker: string } | null {
  if (a === b) return null;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return { at: i, replay: a.slice(Math.max(0, i - 40), i + 80), worker: b.slice(Math.max(0, i - 40), i + 80) };
}

/** Stats without the per-request correlation ids (the replay names calls `<session>#<k>`, the Worker by request id). */
const withoutCorrelationIds = (s: SessionStats) => ({ ...s, steps: s.steps.map(({ correlation_id: _, ...rest }) => rest) });

describe("the replay host and the Worker with its Durable Object run one session the same way", () => {
  it(`${CORPUS_ID}: identical forwarded bytes and ledger figures on every call, identical statistics at the end`, async () => {
    const calls = corpusCalls(T0);
    const sid = newTestId("equivalence");
    const replayStub = SESSIONS.get(SESSIONS.idFromName(`replay-host-${sid}`));

    const a = await runReplayHost(replayStub, sid, calls);
    const b = await runWorker(sid, calls, a.results.map((r) => r.usage));

    expect(b.results.length).toBe(calls.length);
    const differences = a.results.flatMap((r, k) => {
      const d = firstDifference(r.forwarded, b.results[k]!.forwarded);
      return d === null ? [] : [{ call: k, ...d }];
    });
    expect(differences).toEqual([]);
    expect(b.results.map((r) => r.ledger)).toEqual(a.results.map((r) => r.ledger));
    expect(withoutCorrelationIds(b.stats)).toEqual(withoutCorrelationIds(a.stats));

    // Not a vacuous equality: the session was compacted, priced, and went idle in virtual time.
    const compacted = a.results.filter((r, k) => r.forwarded !== calls[k]!.body).length;
    expect(compacted).toBeGreaterThan(0);
    expect(a.stats.ledger.priced_calls).toBe(calls.length);
    expect(a.stats.counters.alarms_idle).toBeGreaterThan(0);
    // A clean run reads back every state slot it wrote (a slot failing its schema is a counted fail-open).
    expect(Object.keys(a.stats.counters).filter((k) => k.startsWith("state_invalid_"))).toEqual([]);
  }, 300_000);
});
