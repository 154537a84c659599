/**
 * The live compaction pipeline (shell, DESIGN §1): parse → neutral view (./prepare-compaction.ts,
 * pure) → the step: this isolate's own under a step lease when it takes no new step
 * (./decide-leased.ts; without a lease in force, one is asked for alone first: ../do/open-lease.ts),
 * else one session-DO RPC with the view (ledger re-application, tier, maybe a new step, maybe a
 * lease) → apply the plan by splicing and check the guarantee (./decide-forward.ts,
 * pure) → forward; then, off the hot path, the usage tap and one report per request, batched
 * per session (reportAfter). The Workers-specific parts live here: the DO stub,
 * its deadline, waitUntil, the archive and the audit hook. Every failure (parse, DO error or
 * deadline, check failed, any exception) forwards the ORIGINAL bytes and counts its reason
 * (DESIGN invariant 5).
 */
import type { CompactionConfig } from "../config/schema";
import type { CompactionMode } from "../config/load-config";
import type { ConversationView, Provider } from "../core/view/types";
import type { SessionObject } from "../do/session-object";
import type { CallReport, NeedFullView, OutcomeRecorded, OutcomeReport, StepInput, StepOutput } from "../do/step-types";
import { deltaAgainst, sentViewOf } from "../do/view-delta";
import { slimView } from "../do/step-types";
import { sentViews, type SentViews } from "./sent-views";
import { scanCache, type ScanCache } from "./scan-cache";
import { indexBuffer, type IndexBuffer } from "./index-buffer";
import { leaseStore, type LeaseStore } from "./lease-store";
import { reportBuffer, type ReportBuffer } from "./report-buffer";
import { decideLeased, leaseInForce } from "./decide-leased";
import { configKey, mayGrantLease } from "../core/policy/step-lease";
import { hashBytes } from "../core/hash";
import type { ProviderAdapter } from "../providers/types";
import { outcomeUpdate, usageUpdate, type IndexUpdate, type OutcomeFacts } from "../admin/index-update";
import type { Usage } from "../usage/extract-usage";
import { headerSessionId } from "./session-id";
import { tapUsage } from "../usage/tap-usage";
import { decideForward } from "./decide-forward";
import { betaHeaderFor } from "./request-headers";
import type { IncomingRequest, RouteKind } from "./handle-request";
import { COMPACTION_HEADER, prepareCompaction } from "./prepare-compaction";

export { COMPACTION_HEADER };

/**
 * Bytes of a body's head that key its scan-cache entry when no header names the session: the
 * model and the first messages, which a session repeats on every call.
 */
const SCAN_KEY_PREFIX_BYTES = 2048;

/** Suffix of the scan-cache key under which a session's forwarded (edited) bodies are kept, apart from the bodies received. */
export const SENT_SCAN_SUFFIX = "\u0000sent";

/** Dependencies of the pipeline, built per request by the app. */
export interface PipelineDeps {
  config: CompactionConfig;
  mode: Exclude<CompactionMode, "off">;
  sessions: DurableObjectNamespace<SessionObject>;
  waitUntil: (p: Promise<unknown>) => void;
  now: () => number;
  /** Deadline of the DO step RPC, ms. */
  doTimeoutMs: number;
  /** The global session index (admin list and metrics); best effort, off the hot path. */
  index?: { recordMany(u: IndexUpdate[]): Promise<unknown> };
  /** Provider → adapter (src/providers/registry.ts unless injected). */
  adapterFor?: (provider: Provider) => ProviderAdapter | undefined;
  /** Batches index updates across requests (./index-buffer.ts: the isolate's instance unless injected). */
  indexBuffer?: IndexBuffer;
  /** The last body scanned per session, for scan reuse (./scan-cache.ts: the isolate's instance unless injected). */
  scanCache?: ScanCache;
  /** The views last sent per session, for deltas (./sent-views.ts: the isolate's instance unless injected). */
  sentViews?: SentViews;
  /** The step leases this isolate holds (./lease-store.ts: the isolate's instance unless injected). */
  leases?: LeaseStore;
  /** Batches the after-the-answer reports per session (./report-buffer.ts: the isolate's instance unless injected). */
  reports?: ReportBuffer;
  /** Wait of a report flush a request starts in the isolate's buffer, ms (SLUICE_REPORT_WINDOW_MS; unset: the buffer's own). An injected `reports` keeps its own window. */
  reportWindowMs?: number;
  /** Wait of an index flush a request starts in the isolate's buffer, ms (SLUICE_INDEX_WINDOW_MS; unset: the buffer's own). An injected `indexBuffer` keeps its own window. */
  indexWindowMs?: number;
  /** Called when a new step was forwarded (audit trail: counts only). */
  onStep?: (step: { tier: StepOutput["tier"]; tokens_before: number; tokens_after: number; usd: number; correlation_id: string; session_id: string }) => void;
}

/** What the pipeline hands back to the request handler. */
export interface PipelineResult {
  body: Uint8Array;
  headers: Record<string, string>;
  /** Wraps the upstream response (usage tap); returns the response for the client. */
  after?: (res: Response) => Response;
  /** Called instead of `after` when no upstream response came (the held outcome is reported alone). */
  noResponse?: () => void;
  /** Headers to set on the forwarded request (the native edit's beta: ./request-headers.ts). Absent: the client's headers as they came. */
  requestHeaders?: Record<string, string>;
}

const PROVIDER_OF: Partial<Record<RouteKind, Provider>> = {
  "anthropic-messages": "anthropic",
  "openai-chat": "openai-chat",
  "openai-responses": "openai-responses",
};

class Deadline extends Error {}

function withDeadline<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const t = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Deadline(`no answer within ${ms} ms`)), ms); });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

/**
 * The step RPC for `view` (as parsed): sent as a delta against the last view this isolate sent
 * the session (../do/view-delta.ts); when the DO has no base for it (`need_full`), the whole
 * slim view goes in a second call. The view sent is remembered for the next request.
 */
async function stepWithDelta(
  deps: PipelineDeps,
  stub: DurableObjectStub<SessionObject>,
  sid: string,
  view: ConversationView,
  rest: Omit<StepInput, "view" | "view_token" | "delta">,
): Promise<StepOutput> {
  const views = deps.sentViews ?? sentViews;
  const token = rest.correlation_id;
  const { view: sent, delta } = deltaAgainst(views.get(sid), view);
  let out: StepOutput | NeedFullView = delta ? await stub.stepDelta({ ...rest, view: sent, view_token: token, delta }) : { need_full: true };
  if ("need_full" in out) out = await stub.step({ ...rest, view: delta ? slimView(view) : sent, view_token: token });
  views.set(sid, sentViewOf(token, view));
  return out;
}

/** The session DO named `sid`. */
function sessionStub(deps: PipelineDeps, sid: string): DurableObjectStub<SessionObject> {
  return deps.sessions.get(deps.sessions.idFromName(sid));
}

/** Runs the pipeline for one chat request. Never throws: failures return the original bytes. */
export async function runPipeline(deps: PipelineDeps, req: IncomingRequest): Promise<PipelineResult> {
  const original = req.body!;
  const scans = deps.scanCache ?? scanCache;
  const named = headerSessionId(req.headers);
  const scanKey = named?.id ?? `prefix:${hashBytes(original.subarray(0, SCAN_KEY_PREFIX_BYTES))}`;
  const prepared = prepareCompaction(PROVIDER_OF[req.route], req.headers, original, deps.adapterFor, (b) => scans.scan(scanKey, b));
  if (prepared.kind === "skip") {
    // Without a parsed body there is no fingerprint; a session named in a header still gets the count.
    if (prepared.reason === "parse" && named) deps.waitUntil(Promise.resolve(sessionStub(deps, named.id).countFailOpen("parse")).catch(() => undefined));
    return { body: original, headers: { [COMPACTION_HEADER]: prepared.note } };
  }

  const sid = prepared.session.id;
  // Made on first use: a request decided under a step lease usually calls no DO at all.
  let stubMade: DurableObjectStub<SessionObject> | undefined;
  const stub = () => (stubMade ??= sessionStub(deps, sid));
  const est = prepared.parsed.view.est_tokens;
  const t0 = deps.now();
  const facts = { session_id: sid, provider: prepared.provider, model: prepared.parsed.view.model, turns: prepared.parsed.view.turn_count, now_ms: t0 };
  const index = deps.index;
  const record = (updates: IndexUpdate[]) => (index ? (deps.indexBuffer ?? indexBuffer).add(updates, (batch) => Promise.resolve(index.recordMany(batch)), deps.indexBuffer ? undefined : deps.indexWindowMs) : Promise.resolve());

  const leases = deps.leases ?? leaseStore;
  const key = leaseKeyOf(deps);
  // Without a lease in force here, ask the DO for one alone first (../do/open-lease.ts): no view is sent unless the request would step.
  // Not while a call of the session is in flight from here: its answer decides (as before lease-first) what this isolate holds.
  const leaseFirst = mayGrantLease(deps.config, leases.holder, false) && !leases.busy(sid) && leaseInForce(leases, sid, key, t0) === undefined;
  let leasedDecision = leaseFirst ? null : decideLeased(leases, sid, key, prepared.parsed.view, deps.config, t0, req.requestId);
  let out: StepOutput;
  // A leased request's report, made now: until it is sent, a step call of the session carries its call instead (LeaseStore.track).
  let leased: CallReport | null = null;
  /** A DO call that failed or passed its deadline: the original bytes go, the reason is counted (DESIGN invariant 5). */
  const doFailed = (err: unknown): PipelineResult => {
    leases.drop(sid);
    (deps.sentViews ?? sentViews).delete(sid); // the DO may not hold what we last sent
    const reason = err instanceof Deadline ? "do_timeout" : "do_error";
    deps.waitUntil(Promise.resolve(stub().countFailOpen(reason)).catch(() => undefined));
    const report: OutcomeReport = { correlation_id: req.requestId, outcome: reason, rollback_step: null, tokens_original: est, tokens_sent: est, tier: "none", pairs_removed: 0, would_send: null };
    deps.waitUntil(record([outcomeUpdate({ ...facts, step: null, recorded: null, step_ms: null, report })]));
    return { body: original, headers: { [COMPACTION_HEADER]: `skipped; reason=${reason}` }, ...reportAfter(deps, facts, record, est, null, null) };
  };
  // One deadline for this request's DO calls: the lease ask and, when its decision would step, the step call (as stepWithDelta's two calls share one).
  const doDeadline = Date.now() + deps.doTimeoutMs;
  /** The activity before this request, when its own lease ask was granted (that ask recorded this request's activity: ../do/open-lease.ts). */
  let asked: { previous_activity_ms: number } | null = null;
  if (leaseFirst) {
    const ticket = leases.begin(sid);
    const leasedCalls = leases.takeUnreported(sid);
    try {
      const lease = await withDeadline(Promise.resolve(stub().lease({ session_id: sid, config: deps.config, mode: deps.mode, now_ms: t0, lease_holder: leases.holder, ...(leasedCalls.length > 0 ? { leased_calls: leasedCalls } : {}) })), deps.doTimeoutMs);
      if (lease !== null) {
        leases.grant(sid, lease, ticket);
        asked = { previous_activity_ms: lease.last_activity_ms };
      }
    } catch (err) {
      return doFailed(err);
    } finally {
      leases.end(sid);
    }
    leasedDecision = decideLeased(leases, sid, key, prepared.parsed.view, deps.config, t0, req.requestId);
  }
  if (leasedDecision !== null) {
    out = leasedDecision.out;
    leased = { leased: leasedDecision.call, outcome: null, usage: null, estimated_input_tokens: 0 };
    leases.track(sid, leased);
  } else {
    const ticket = leases.begin(sid);
    const leasedCalls = leases.takeUnreported(sid);
    try {
      out = await withDeadline(stepWithDelta(deps, stub(), sid, prepared.parsed.view, { session_id: sid, config: deps.config, mode: deps.mode, correlation_id: req.requestId, now_ms: t0, lease_holder: leases.holder, ...(leasedCalls.length > 0 ? { leased_calls: leasedCalls } : {}), ...(asked ?? {}) }), Math.max(0, doDeadline - Date.now()));
      // Before `end`: a drop since this call began (a concurrent call's rollback) voids the lease it brings.
      if (out.lease !== undefined) leases.grant(sid, out.lease, ticket);
      else leases.drop(sid);
    } catch (err) {
      return doFailed(err);
    } finally {
      leases.end(sid);
    }
  }
  const stepMs = deps.now() - t0;

  // The edited body's check scan reuses the session's last forwarded body (its own cache key: the bodies differ from the ones received).
  const decision = decideForward(prepared, original, out, deps.mode, req.requestId, (b) => scans.scan(`${scanKey}${SENT_SCAN_SUFFIX}`, b));
  if (decision.kind === "edited" && deps.mode === "compact") {
    if (deps.config.archive_removed && out.new_pair_ids.length > 0) {
      const ids = new Set(out.new_pair_ids);
      const items = prepared.parsed.view.pairs.filter((p) => ids.has(p.id)).map((p) => ({ call_id: p.id, text: p.result_text }));
      deps.waitUntil(Promise.resolve(stub().archive(items)).catch(() => undefined));
    }
    if (out.step !== null) {
      try {
        deps.onStep?.({ tier: out.tier, tokens_before: est, tokens_after: decision.report.tokens_sent, usd: out.cost_estimate, correlation_id: req.requestId, session_id: sid });
      } catch { /* audit is best effort */ }
    }
  }
  const outcome: PendingOutcome = { ...facts, step: out, report: decision.report, step_ms: stepMs };
  const requestHeaders = decision.kind === "edited" && decision.beta !== undefined ? betaHeaderFor(req.headers, decision.beta) : undefined;
  const result = { body: decision.body, headers: { [COMPACTION_HEADER]: decision.note }, ...(requestHeaders ? { requestHeaders } : {}) };
  if (decision.report.rollback_step !== null) {
    // A step to roll back must be gone before the session's next request: report it at once (the lease that came with it goes too).
    leases.drop(sid);
    deps.waitUntil(
      Promise.resolve(stub().reportOutcome(decision.report))
        .catch(() => null)
        .then((recorded) => record([outcomeUpdate({ ...outcome, recorded: recorded ?? null })])),
    );
    return { ...result, ...reportAfter(deps, facts, record, decision.report.tokens_sent, null, leased) };
  }
  return { ...result, ...reportAfter(deps, facts, record, decision.report.tokens_sent, outcome, leased) };
}

/** An outcome held until the answer ends, to travel with its usage (everything outcomeUpdate needs but `recorded`). */
type PendingOutcome = Omit<OutcomeFacts, "recorded">;

/**
 * The after-the-answer report (off the hot path, in waitUntil): the usage tap reads the
 * provider's usage as the body streams to the client; when the body ends (or is cancelled, or
 * fails — the tap's promise always settles) the request's CallReport — the call itself when a
 * lease holder decided it, the held outcome, the usage — goes to the isolate's report buffer
 * (./report-buffer.ts: one `reportCalls` RPC per session per window), whose flusher then hands
 * the index updates to the index buffer (./index-buffer.ts: one `recordMany` for all requests
 * ending within 1 s). Without an upstream response (502/504) the report goes without usage.
 */
function reportAfter(
  deps: PipelineDeps,
  facts: { session_id: string; provider: Provider; now_ms: number },
  record: (u: IndexUpdate[]) => Promise<unknown>,
  estimated: number,
  outcome: PendingOutcome | null,
  leased: CallReport | null,
): Pick<PipelineResult, "after" | "noResponse"> {
  const send = (u: Usage | null) => {
    if (outcome === null && u === null && leased === null) return Promise.resolve();
    // A leased request's report is the object the lease store tracks (its `leased` may be taken by a step call until it is sent).
    const report: CallReport = leased ?? { leased: null, outcome: null, usage: null, estimated_input_tokens: 0 };
    report.outcome = outcome?.report ?? null;
    report.usage = u;
    report.estimated_input_tokens = estimated;
    const at = deps.now();
    const updates = (recorded: OutcomeRecorded | null): IndexUpdate[] => [
      ...(outcome ? [outcomeUpdate({ ...outcome, recorded })] : []),
      ...(u ? [usageUpdate(facts.session_id, facts.provider, at, u)] : []),
    ];
    const sendReports = (sid: string, batch: CallReport[]) => {
      (deps.leases ?? leaseStore).sent(sid, batch); // from here the batch carries its calls: no step call may take them
      return Promise.resolve(sessionStub(deps, sid).reportCalls(batch));
    };
    return (deps.reports ?? reportBuffer).add(facts.session_id, { report, updates }, sendReports, record, deps.reports ? undefined : deps.reportWindowMs);
  };
  return {
    after: (res) => {
      const tapped = tapUsage(res, facts.provider);
      deps.waitUntil(tapped.usage.catch(() => null).then(send).catch(() => undefined));
      return tapped.response;
    },
    noResponse: () => deps.waitUntil(send(null).catch(() => undefined)),
  };
}

/** The lease key of the pipeline's config and mode, computed once per config object. */
const leaseKeys = new WeakMap<object, { mode: string; key: string }>();
function leaseKeyOf(deps: PipelineDeps): string {
  let k = leaseKeys.get(deps.config);
  if (k === undefined || k.mode !== deps.mode) leaseKeys.set(deps.config, (k = { mode: deps.mode, key: configKey(deps.config, deps.mode) }));
  return k.key;
}
