/**
 * The live compaction pipeline (shell, DESIGN §1), one function that reads top to bottom:
 * body (read once by the app) → parse into the view (./prepare-compaction.ts, pure) → session
 * key → ONE `step` RPC to the session DO (the request's facts: ../core/facts/step-facts.ts) → at level
 * `rewrite`, the summariser writes the step's new summaries (./write-summaries.ts) → apply the
 * plan by splicing and check the edited bytes independently (./decide-forward.ts, pure) →
 * forward (the caller, ./handle-request.ts) → after the answer, ONE `report` RPC in waitUntil
 * carrying the outcome and the provider's usage. The DO is the only decision site and holds
 * the only copy of the session's state; this isolate keeps nothing per session.
 *
 * A step to roll back (the edited bytes failed the check, or applying threw) must be gone
 * before the session's next request, so its outcome is reported at once in waitUntil, not held
 * until the answer ends; its usage follows in a second report after the answer (the failure
 * path only; docs/dev/decisions/one-round-trip.md). Every failure forwards the ORIGINAL bytes,
 * writes one structured log line (./log-fail-open.ts) and reaches the DO as a typed outcome
 * (DESIGN invariant 5).
 */
import type { CompactionConfig } from "../config/schema";
import { projectKeyOf } from "./project-key";
import { memoryPlaceable } from "../providers/shared/memory-message";
import type { CompactionMode } from "../config/load-config";
import type { Provider } from "../core/view/types";
import { encodeStepFacts } from "../core/facts/wire-facts";
import type { SessionObject } from "../session/session-object";
import type { CallReport, FailOpenReason, Outcome, OutcomeRecorded, OutcomeReport, StepAnswer, StepInput, StepOutput } from "../session/contract";
import { scanCache, type ScanCache } from "./scan-cache";
import { isolateCaches } from "./isolate-caches";
import type { CoreCaches } from "../core/caches";
import { indexBuffer, type IndexBuffer } from "./index-buffer";
import { hashBytes } from "../core/hash";
import type { ProviderAdapter } from "../providers/types";
import { ledgerUpdate, outcomeUpdate, standAsideUpdate, usageUpdate, type IndexUpdate, type OutcomeFacts } from "../admin/index-update";
import type { Usage } from "../usage/extract-usage";
import { headerSessionId } from "./session-id";
import { tapUsage } from "../usage/tap-usage";
import { betaHeaderFor } from "./request-headers";
import type { IncomingRequest, RouteKind } from "./handle-request";
import { COMPACTION_HEADER, prepareCompaction, stepFactsFor, type PreviousBody } from "./prepare-compaction";
import { errorName, logFailOpen } from "./log-fail-open";
import { Deadline, withDeadline } from "./deadline";
import { stepTermFields, type StepTermFields } from "../core/audit/audit-record";
import type { RemainingCallsTable } from "../core/cost/session-lengths";
import { decideWithSummaries } from "./write-summaries";
import { memoryInjectOn } from "../config/memory-inject-on";

export { COMPACTION_HEADER };

/**
 * Bytes of a body's head that key its scan-cache entry when no header names the session: the
 * model and the first messages, which a session repeats on every call.
 */
const SCAN_KEY_PREFIX_BYTES = 2048;

/** Dependencies of the pipeline, built per request by the app. */
export interface PipelineDeps {
  config: CompactionConfig;
  /** configHash(config) (../session/contract.ts): what the step carries instead of the config. */
  config_hash: string;
  mode: Exclude<CompactionMode, "off">;
  sessions: DurableObjectNamespace<SessionObject>;
  waitUntil: (p: Promise<unknown>) => void;
  now: () => number;
  /** Deadline of the step RPC, ms. */
  doTimeoutMs: number;
  /** The session index (admin list and metrics; sharded by session: ../admin/sharded-index.ts); best effort, off the hot path. */
  index?: { recordMany(u: IndexUpdate[]): Promise<unknown> };
  /** Provider → adapter (src/providers/registry.ts unless injected). */
  adapterFor?: (provider: Provider) => ProviderAdapter | undefined;
  /** Batches index updates across requests (./index-buffer.ts: the isolate's instance unless injected). */
  indexBuffer?: IndexBuffer;
  /** Received bodies last scanned per session, for scan reuse (./scan-cache.ts: the isolate's instance unless injected). */
  scanCache?: ScanCache;
  /** The caches requests are read through (../core/caches.ts; ./isolate-caches.ts: the isolate's instance unless injected). */
  caches?: CoreCaches;
  /** True when compaction is off for the whole deployment (./global-switch.ts: the isolate's cache over the audit DO's flag). Absent: never off. */
  globallyDisabled?: () => Promise<boolean>;
  /** Called when a new step was forwarded (audit trail: counts only). */
  onStep?: (step: { tier: StepOutput["tier"]; tokens_before: number; tokens_after: number; usd: number; correlation_id: string; session_id: string } & StepTermFields) => void;
  /** The Worker env, from which the summariser reads its credential by name (config `summarizer.api_key_env`). Absent: none. */
  env?: Readonly<Record<string, unknown>>;
  /** The deployment's remaining-calls table as this isolate last read it (./session-lengths-cache.ts), sent in the step; absent or null: none. */
  remainingCallsTable?: () => RemainingCallsTable | null;
}

/** What the pipeline hands back to the request handler. */
export interface PipelineResult {
  body: Uint8Array;
  headers: Record<string, string>;
  /** Wraps the upstream response (usage tap); returns the response for the client. */
  after?: (res: Response) => Response;
  /** Called instead of `after` when no upstream response came (the outcome is reported without usage). */
  noResponse?: () => void;
  /** Headers to set on the forwarded request (the native edit's beta: ./request-headers.ts). Absent: the client's headers as they came. */
  requestHeaders?: Record<string, string>;
}

const PROVIDER_OF: Partial<Record<RouteKind, Provider>> = {
  "anthropic-messages": "anthropic",
  "openai-chat": "openai-chat",
  "openai-responses": "openai-responses",
};

/** The session DO named `sid`. */
function sessionStub(deps: PipelineDeps, sid: string): DurableObjectStub<SessionObject> {
  return deps.sessions.get(deps.sessions.idFromName(sid));
}

/** Runs the pipeline for one chat request. Never throws: failures return the original bytes. */
export async function runPipeline(deps: PipelineDeps, req: IncomingRequest): Promise<PipelineResult> {
  const received = req.body!;
  const log = (reason: FailOpenReason, session_id: string | null, est_tokens: number | null, err: unknown = null) =>
    logFailOpen({ reason, session_id, request_id: req.requestId, route: req.route, body_bytes: received.length, est_tokens, error: errorName(err) });

  // 0. The global kill switch: the client's bytes go as they came, no session call.
  if (deps.globallyDisabled && (await deps.globallyDisabled().catch(() => false))) return { body: received, headers: { [COMPACTION_HEADER]: "off; reason=global_disabled" } };

  // 1. Parse into the view (the scan reuses the session's last received body).
  const scans = deps.scanCache ?? scanCache;
  const named = headerSessionId(req.headers);
  const scanKey = named?.id ?? `prefix:${hashBytes(received.subarray(0, SCAN_KEY_PREFIX_BYTES))}`;
  let previous: PreviousBody | null = null;
  const prepared = prepareCompaction(PROVIDER_OF[req.route], req.headers, received, {
    lookup: deps.adapterFor,
    scan: (b) => {
      const scanned = scans.scanWithPrevious(scanKey, b);
      previous = scanned.previous;
      return scanned.root;
    },
    caches: deps.caches ?? isolateCaches,
  });
  const index = deps.index;
  const record = (updates: IndexUpdate[]) => (index ? (deps.indexBuffer ?? indexBuffer).add(updates, (batch) => Promise.resolve(index.recordMany(batch))) : Promise.resolve());
  if (prepared.kind === "skip") {
    if (prepared.reason === "parse") {
      log("parse", named?.id ?? null, null);
      // Without a parsed body there is no fingerprint; a session named in a header still gets the count.
      if (named) deps.waitUntil(Promise.resolve(sessionStub(deps, named.id).countFailOpen("parse")).catch(() => undefined));
    }
    // A stand-aside is counted by reason and type in the index (no session call: the session has nothing to decide).
    const stood = "stand_aside" in prepared ? standAsideUpdate(prepared.stand_aside, deps.now()) : null;
    if (stood) deps.waitUntil(record([stood]).catch(() => undefined));
    return { body: received, headers: { [COMPACTION_HEADER]: prepared.note } };
  }

  // 2. The session key.
  const sid = prepared.session.id;
  const stub = sessionStub(deps, sid);
  const view = prepared.parsed.view;
  const est = view.est_tokens;
  const t0 = deps.now();
  const call = { session_id: sid, provider: prepared.provider, model: view.model, turns: view.turn_count, now_ms: t0 };

  // 3. The one step RPC, carrying the request's facts (a throw building them reaches the hook's boundary: hook_error).
  const facts = encodeStepFacts(stepFactsFor(prepared, deps.config, req.headers, previous));
  let out: StepOutput;
  try {
    const lengths = deps.remainingCallsTable?.() ?? null;
    // Project memory on: the session keeps its project key for the complete alarm (src/observers/project-memory.ts).
    const project_key = deps.config.memory_retention_seconds > 0 ? projectKeyOf(prepared.provider, req.headers, prepared.parsed.bytes, prepared.parsed.root) : undefined;
    // memory_inject: the session claims a map only when its block has a place in this request.
    const memory_placeable = memoryInjectOn(deps.config) && project_key !== undefined && memoryPlaceable(prepared.provider, prepared.parsed.bytes, prepared.parsed.root, prepared.adapter.historyKey);
    const input: StepInput = { session_id: sid, facts, config_hash: deps.config_hash, mode: deps.mode, correlation_id: req.requestId, now_ms: t0, ...(lengths ? { remaining_calls_table: lengths } : {}), ...(project_key !== undefined ? { project_key } : {}), ...(memory_placeable ? { memory_placeable } : {}), ...(req.callerId ? { caller_id: req.callerId } : {}) };
    out = await withDeadline(stepWithConfig(stub, input, deps.config), deps.doTimeoutMs);
  } catch (err) {
    const reason = err instanceof Deadline ? "do_timeout" : "do_error";
    log(reason, sid, est, err);
    const report: OutcomeReport = { correlation_id: req.requestId, outcome: reason, rollback_step: null, tokens_original: est, tokens_sent: est, tier: "none", pairs_removed: 0, would_send: null };
    return { body: received, headers: { [COMPACTION_HEADER]: `skipped; reason=${reason}` }, ...reportAfter(deps, stub, call, record, { ...call, step: null, report, step_ms: null }) };
  }
  const stepMs = deps.now() - t0;

  // 4. Level rewrite: the summariser writes the step's new summaries (within the step deadline plus its own timeout); then apply by splicing and check independently.
  const decided = await decideWithSummaries(prepared, received, out, deps.mode, req.requestId, deps.config, deps.env ?? {}, deps.doTimeoutMs + (deps.config.summarizer?.timeout_ms ?? 0) - stepMs);
  out = decided.out;
  const decision = decided.decision;
  if (isFailOpen(decision.report.outcome)) log(decision.report.outcome, sid, est);
  if (decision.kind === "edited" && deps.mode === "compact") {
    if (deps.config.archive_removed && out.new_pair_ids.length > 0) {
      const ids = new Set(out.new_pair_ids);
      // A whole-pair removal takes the call's input too: the restore gives both back.
      const items = view.pairs.filter((p) => ids.has(p.id)).map((p) => ({
        call_id: p.id, tool_name: p.tool_name, text: p.result_text, ...(out.plan.actions[p.id]?.kind === "drop_pair" ? { input: p.input_text } : {}),
      }));
      deps.waitUntil(Promise.resolve(stub.archive(items, req.callerId ?? null, t0)).catch(() => undefined));
    }
    if (out.step !== null) {
      try {
        deps.onStep?.({ tier: out.tier, tokens_before: est, tokens_after: decision.report.tokens_sent, usd: out.cost_estimate, correlation_id: req.requestId, session_id: sid, ...(out.terms ? stepTermFields(out.terms) : {}) });
      } catch { /* audit is best effort */ }
    }
  }
  const outcome: PendingOutcome = { ...call, step: out, report: decision.report, step_ms: stepMs };
  const requestHeaders = decision.kind === "edited" && decision.beta !== undefined ? betaHeaderFor(req.headers, decision.beta) : undefined;
  const result = { body: decision.body, headers: { [COMPACTION_HEADER]: decision.note }, ...(requestHeaders ? { requestHeaders } : {}) };
  if (decision.report.rollback_step !== null) {
    // A step to roll back must be gone before the session's next request: its outcome goes now, its usage after the answer.
    deps.waitUntil(
      Promise.resolve(stub.report({ outcome: decision.report, usage: null, estimated_input_tokens: 0, now_ms: deps.now() }))
        .catch(() => null)
        .then((answer) => record([outcomeUpdate({ ...outcome, recorded: answer?.recorded ?? null }), ...(answer?.ledger ? [ledgerUpdate(sid, call.provider, deps.now(), answer.ledger)] : [])])),
    );
    return { ...result, ...reportAfter(deps, stub, call, record, null, decision.report.tokens_sent) };
  }
  // 5. Forward (the caller), then the one report.
  return { ...result, ...reportAfter(deps, stub, call, record, outcome) };
}

/**
 * The step RPC: the config travels as its hash; a session that does not know the hash (another
 * version of the Worker during a deploy, or modified vars) gets the config once, in a second
 * call (../session/contract.ts module header).
 */
async function stepWithConfig(stub: DurableObjectStub<SessionObject>, input: StepInput, config: CompactionConfig): Promise<StepOutput> {
  const first = (await stub.step(input)) as StepAnswer;
  if (!("config_unknown" in first)) return first;
  const second = (await stub.step({ ...input, config })) as StepAnswer;
  if ("config_unknown" in second) throw new Error("the session refused the gateway's config");
  return second;
}

/** Whether `outcome` is a fail-open reason (the original bytes went because something failed), as opposed to a normal outcome. */
function isFailOpen(outcome: Outcome): outcome is FailOpenReason {
  return outcome !== "compacted" && outcome !== "unchanged" && outcome !== "measured" && outcome !== "native_not_applied";
}

/** An outcome held until the answer ends, to travel with its usage (everything outcomeUpdate needs but `recorded`). */
type PendingOutcome = Omit<OutcomeFacts, "recorded">;

/**
 * The after-the-answer report (off the hot path, in waitUntil): the usage tap reads the
 * provider's usage as the body streams to the client; when the body ends (or is cancelled, or
 * fails — the tap's promise always settles) ONE `report` RPC carries the held outcome and the
 * usage; the DO's answer completes the index update and carries the savings ledger's figures (./index-buffer.ts batches those across
 * requests). Without an upstream response (502/504) the report goes without usage.
 */
function reportAfter(
  deps: PipelineDeps,
  stub: DurableObjectStub<SessionObject>,
  call: { session_id: string; provider: Provider },
  record: (u: IndexUpdate[]) => Promise<unknown>,
  outcome: PendingOutcome | null,
  estimated = outcome?.report.tokens_sent ?? 0,
): Pick<PipelineResult, "after" | "noResponse"> {
  const send = async (u: Usage | null): Promise<void> => {
    if (outcome === null && u === null) return;
    const report: CallReport = { outcome: outcome?.report ?? null, usage: u, estimated_input_tokens: estimated, now_ms: deps.now() };
    const answer = await Promise.resolve(stub.report(report)).catch(() => null);
    const recorded: OutcomeRecorded | null = answer?.recorded ?? null;
    const at = deps.now();
    await record([
      ...(outcome ? [outcomeUpdate({ ...outcome, recorded })] : []),
      ...(u ? [usageUpdate(call.session_id, call.provider, at, u)] : []),
      ...(answer?.ledger ? [ledgerUpdate(call.session_id, call.provider, at, answer.ledger)] : []),
    ]);
  };
  return {
    after: (res) => {
      const tapped = tapUsage(res, call.provider);
      deps.waitUntil(tapped.usage.catch(() => null).then(send).catch(() => undefined));
      return tapped.response;
    },
    noResponse: () => deps.waitUntil(send(null).catch(() => undefined)),
  };
}
