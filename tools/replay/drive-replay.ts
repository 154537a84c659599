/**
 * The replay driver: for each session and each strategy, sends every call in order through the
 * strategy to the injected `send` and records what was billed (I/O only through `send` and the
 * injected clock). Steps per call:
 * 1. virtual time from assign-call-times.ts;
 * 2. the strategy turns the recorded body into the body to send (timed: added latency);
 * 3. `send` bills it (key = per run/strategy/session, so caches never collide); a `gateway`
 *    strategy instead sends the original body through its own sender (the gateway over HTTP),
 *    which reports what the upstream received;
 * 4. the removed tool results are found by diffing the original and the sent bodies;
 * 5. an in-process Sluice gets the billed usage back (its session's report: calibration, cache
 *    diagnostics, the savings ledger).
 * Every call is also checked for used-after-removal (./uar-probe.ts: tokens its recorded answer
 * used that the forwarded body no longer held, and the removed pairs that held them, and which of
 * those pairs the forwarded body marks with a restore id: ./restore-answers.ts), and every
 * pair a call newly removed is recorded with the rule behind it (Sluice in-process reports it:
 * SluiceInfo.removal_rules) and the estimated tokens it took out of the request.
 * After a session: re-fetches and re-mentions of removed results (./find-removed.ts), and the estimated tokens of every removed
 * result (Sluice's own estimator, once per pair, at the call where it was first removed) for the
 * report's worst-case loss. Every call also records its shape for the hindsight step timing
 * (./step-shape.ts). `onForwarded` sees every body as forwarded (--save-forwarded). Runs of different (session, strategy) pairs are
 * independent (own key, own state) and may run concurrently.
 */
import { agentHeaders, strategySessionKey } from "./agent-headers";
import { assignCallTimes } from "./assign-call-times";
import { estimateTokens } from "../../src/core/tokens/estimate";
import { countRefetches, countRementions, findRemovedResults } from "./find-removed";
import { callShape } from "./step-shape";
import { historyOf, parseResultKey, toolCallsIn, toolResultsIn } from "./tool-pairs";
import { createUarProbe, type UarProbe } from "./uar-probe";
import { restorablePairs } from "./restore-answers";
import type { CallRecord, JsonObject, LedgerFigures, NewRemoval, RecordedSession, SendFn, SendResult, SessionRun, Strategy, SummaryFigures } from "./types";
import type { DeclinedCut } from "../../src/core/policy/types";

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
  /**
   * Called with every body a strategy forwarded (JSON text; for a gateway strategy, what the
   * upstream received, skipped when the sender could not read it back).
   */
  onForwarded?: (forwarded: ForwardedBody) => void;
  /** The common vocabulary of the used-after-removal check (./common-vocabulary.ts); absent: computed from `sessions`. */
  vocabulary?: ReadonlySet<string>;
}

/** One forwarded request body. */
export interface ForwardedBody {
  strategy: string;
  session_id: string;
  /** 0-based call index. */
  call_index: number;
  /** The body text as sent upstream. */
  body: string;
  /** Headers the strategy set on the call (e.g. the native edit's `anthropic-beta`), when any. */
  headers?: Record<string, string>;
}

/** Replays every session under every strategy; results ordered session-major, strategy-minor. */
export async function driveReplay(opts: DriveOptions): Promise<SessionRun[]> {
  const now = opts.now ?? (() => performance.now());
  const jobs = opts.sessions.flatMap((session) => opts.strategies.map((strategy) => ({ session, strategy })));
  const total = jobs.reduce((n, j) => n + j.session.calls.length, 0);
  let done = 0;
  const tick = () => opts.onCall?.(++done, total);
  const results: SessionRun[] = new Array(jobs.length);
  const probe = createUarProbe(opts.sessions, opts.vocabulary);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      const job = jobs[i]!;
      results[i] = await runSession(job.session, job.strategy, opts.send, opts.run_id, now, tick, probe, opts.onForwarded);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency ?? 1, jobs.length)) }, worker));
  return results;
}

async function runSession(session: RecordedSession, strategy: Strategy, send: SendFn, runId: string, now: () => number, tick: () => void, probe: UarProbe, onForwarded?: (f: ForwardedBody) => void): Promise<SessionRun> {
  const p = session.provider;
  const times = assignCallTimes(session.calls);
  const key = strategySessionKey(runId, strategy.name, session.id);
  const headers = agentHeaders(p, key, `${runId}-${session.id}`);
  const removedFirstAt = new Map<string, number>();
  const records: CallRecord[] = [];
  let removedTokens = 0;
  /** Sluice: the rule behind each pair id its steps removed (the latest step's word for a pair decided twice). */
  const ruleOf = new Map<string, string>();
  let state = strategy.kind === "pure" ? strategy.initial() : null;
  for (const call of session.calls) {
    const time_ms = times[call.index]!;
    const original = JSON.stringify(call.body);
    const opts = { time_ms, reply: call.reply, key };
    let sent: JsonObject | null;
    let sentText = original;
    let engine = 0;
    let transform_ms = 0;
    let note: string | undefined;
    let summaries: SummaryFigures | undefined;
    let declined: DeclinedCut | undefined;
    let res: SendResult;
    let callHeaders: Record<string, string> | undefined;
    let settle: ((u: SendResult["usage"] | null) => Promise<LedgerFigures>) | undefined;
    if (strategy.kind === "gateway") {
      res = await strategy.send(p, original, opts);
      sent = typeof res.forwarded === "string" ? parseObject(res.forwarded) : null;
      if (typeof res.forwarded === "string") sentText = res.forwarded;
      note = res.note;
      if (typeof res.forwarded === "string") onForwarded?.({ strategy: strategy.name, session_id: session.id, call_index: call.index, body: res.forwarded });
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
        summaries = out.info.summaries;
        declined = out.info.declined;
        note = out.info.note;
        for (const r of out.info.removal_rules ?? []) ruleOf.set(r.pair_id, r.rule);
        callHeaders = out.headers;
        settle = out.settle;
        sent = parseObject(text);
      }
      transform_ms = now() - t0;
      sentText = text;
      onForwarded?.({ strategy: strategy.name, session_id: session.id, call_index: call.index, body: text, ...(callHeaders ? { headers: callHeaders } : {}) });
      res = await send(p, text, callHeaders ? { ...opts, headers: callHeaders } : opts);
    }
    // The session's report after the answer: the billed usage reaches the ledger (a rejected call bills nothing).
    const settled = settle !== undefined ? await settle(res.status < 400 ? res.usage : null) : undefined;
    const ledger = res.status < 400 ? settled : undefined;
    const removed = sent === null ? [] : findRemovedResults(p, call.body, sent);
    const fresh = removed.filter((id) => !removedFirstAt.has(id));
    for (const id of fresh) removedFirstAt.set(id, call.index);
    let newRemovals: NewRemoval[] | undefined;
    if (fresh.length > 0) {
      const text = new Map(toolResultsIn(p, historyOf(p, call.body)).map((r) => [r.key, r.text]));
      for (const id of fresh) removedTokens += estimateTokens(text.get(id) ?? "");
      newRemovals = newRemovalsOf(p, call.body, sent, fresh, ruleOf);
    }
    const used = probe.check(session, call, sent, removed);
    const restorable = used.length > 0 && sent !== null ? restorablePairs(p, sent, [...new Set(used.flatMap((u) => u.pairs))]) : [];
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
      shape: callShape(p, call.body, original, sent, sentText, fresh),
      ...(note !== undefined ? { note } : {}),
      ...(summaries !== undefined ? { summaries } : {}),
      ...(declined !== undefined ? { declined } : {}),
      ...(ledger !== undefined ? { ledger } : {}),
      ...(newRemovals !== undefined ? { new_removals: newRemovals } : {}),
      ...(used.length > 0 ? { used_after_removal: used, uar_restorable: restorable } : {}),
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
    rementions: countRementions(session, removedFirstAt),
    removed_result_tokens: removedTokens,
  };
}

/**
 * The pairs first removed by this call (result keys `fresh`): the rule behind each (Sluice's word
 * for the pair id, null without one: another strategy, or a repeated id Sluice never edits) and
 * the estimated tokens it took out — the result's text as it shrank, plus the call's input when
 * the sent body no longer holds the call.
 */
function newRemovalsOf(p: RecordedSession["provider"], original: JsonObject, sent: JsonObject | null, fresh: readonly string[], ruleOf: ReadonlyMap<string, string>): NewRemoval[] {
  const results = new Map(toolResultsIn(p, historyOf(p, original)).map((r) => [r.key, r.text]));
  const sentResults = new Map(sent === null ? [] : toolResultsIn(p, historyOf(p, sent)).map((r) => [r.key, r.text]));
  const calls = toolCallsIn(p, historyOf(p, original));
  const sentCalls = new Set(sent === null ? [] : toolCallsIn(p, historyOf(p, sent)).map((c) => c.id));
  return fresh.map((key) => {
    const { id, occurrence } = parseResultKey(key);
    const call = calls.filter((c) => c.id === id)[occurrence - 1];
    const callTokens = call !== undefined && !sentCalls.has(id) ? estimateTokens(call.input) : 0;
    const tokens = Math.max(0, estimateTokens(results.get(key) ?? "") - estimateTokens(sentResults.get(key) ?? "")) + callTokens;
    return { key, rule: occurrence === 1 ? (ruleOf.get(id) ?? null) : null, tokens };
  });
}

function parseObject(text: string): JsonObject | null {
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as JsonObject) : null;
  } catch {
    return null;
  }
}
