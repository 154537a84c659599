/**
 * The replay driver: for each session and each strategy, sends every call in order through the
 * strategy to the injected `send` and records what was billed (I/O only through `send` and the
 * injected clock). Steps per call:
 * 1. virtual time from assign-call-times.ts;
 * 2. the strategy turns the recorded body into the body to send (timed: added latency);
 * 3. `send` bills it (key = per run/strategy/session, so caches never collide); a `gateway`
 *    strategy instead sends the original body through its own sender (the gateway over HTTP),
 *    which reports what the upstream received;
 * 4. the removed tool results are found by diffing the original and the sent bodies.
 * After a session: re-fetches of removed results. Runs of different (session, strategy) pairs are
 * independent (own key, own state) and may run concurrently.
 */
import { agentHeaders, strategySessionKey } from "./agent-headers";
import { assignCallTimes } from "./assign-call-times";
import { countRefetches, findRemovedResults } from "./find-removed";
import type { CallRecord, JsonObject, RecordedSession, SendFn, SendResult, SessionRun, Strategy } from "./types";

/** What the driver needs. */
export interface DriveOptions {
  sessions: readonly RecordedSession[];
  strategies: readonly Strategy[];
  send: SendFn;
  /** Run nonce, part of every cache key so two runs against one emulator never share caches. */
  run_id: string;
  /** Monotonic clock in ms for the added-latency measure (default performance.now). */
  now?: () => number;
  /** (session, strategy) runs in flight at once (default 1). */
  concurrency?: number;
  /** Called after every sent call (progress). */
  onCall?: (done: number, total: number) => void;
}

/** Replays every session under every strategy; results ordered session-major, strategy-minor. */
export async function driveReplay(opts: DriveOptions): Promise<SessionRun[]> {
  const now = opts.now ?? (() => performance.now());
  const jobs = opts.sessions.flatMap((session) => opts.strategies.map((strategy) => ({ session, strategy })));
  const total = jobs.reduce((n, j) => n + j.session.calls.length, 0);
  let done = 0;
  const tick = () => opts.onCall?.(++done, total);
  const results: SessionRun[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      const job = jobs[i]!;
      results[i] = await runSession(job.session, job.strategy, opts.send, opts.run_id, now, tick);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency ?? 1, jobs.length)) }, worker));
  return results;
}

async function runSession(session: RecordedSession, strategy: Strategy, send: SendFn, runId: string, now: () => number, tick: () => void): Promise<SessionRun> {
  const p = session.provider;
  const times = assignCallTimes(session.calls);
  const key = strategySessionKey(runId, strategy.name, session.id);
  const headers = agentHeaders(p, key, `${runId}-${session.id}`);
  const removedFirstAt = new Map<string, number>();
  const records: CallRecord[] = [];
  let state = strategy.kind === "pure" ? strategy.initial() : null;
  for (const call of session.calls) {
    const time_ms = times[call.index]!;
    const original = JSON.stringify(call.body);
    const opts = { time_ms, reply: call.reply, key };
    let sent: JsonObject | null;
    let engine = 0;
    let transform_ms = 0;
    let note: string | undefined;
    let res: SendResult;
    let callHeaders: Record<string, string> | undefined;
    if (strategy.kind === "gateway") {
      res = await strategy.send(p, original, opts);
      sent = typeof res.forwarded === "string" ? parseObject(res.forwarded) : null;
      note = res.note;
    } else {
      const t0 = now();
      let text: string;
      if (strategy.kind === "pure") {
        const step = strategy.apply(call.body, { provider: p, session_id: session.id, call_index: call.index, time_ms }, state);
        state = step.state;
        sent = step.body;
        text = step.body === call.body ? original : JSON.stringify(step.body);
      } else {
        const out = await strategy.transform(new TextEncoder().encode(original), headers, { provider: p, session_id: session.id, call_index: call.index, time_ms });
        text = new TextDecoder().decode(out.body);
        engine = out.info.engine_cost_usd ?? 0;
        note = out.info.note;
        callHeaders = out.headers;
        sent = parseObject(text);
      }
      transform_ms = now() - t0;
      res = await send(p, text, callHeaders ? { ...opts, headers: callHeaders } : opts);
    }
    const removed = sent === null ? [] : findRemovedResults(p, call.body, sent);
    for (const id of removed) if (!removedFirstAt.has(id)) removedFirstAt.set(id, call.index);
    records.push({
      index: call.index,
      time_ms,
      status: res.status,
      usage: res.usage,
      cost_usd: res.cost_usd,
      input_cost_usd: res.input_cost_usd,
      latency_ms: res.latency_ms,
      transform_ms,
      engine_cost_usd: engine,
      rejected: res.rejected ?? (res.status >= 400 ? `HTTP ${res.status}` : null),
      removed_ids: removed,
      ...(note !== undefined ? { note } : {}),
    });
    tick();
  }
  return {
    session_id: session.id,
    provider: p,
    model: session.model,
    strategy: strategy.name,
    route: strategy.kind === "gateway" ? "gateway" : "direct",
    calls: records,
    pairs_removed: removedFirstAt.size,
    refetches: countRefetches(session, removedFirstAt),
  };
}

function parseObject(text: string): JsonObject | null {
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as JsonObject) : null;
  } catch {
    return null;
  }
}
