/**
 * The live compaction pipeline (shell, DESIGN §1): parse → neutral view → one session-DO RPC
 * (ledger re-application, tier, maybe a new step) → apply the plan by splicing → guarantee
 * check → forward; then, off the hot path, the usage tap and the outcome report. Every failure
 * (parse, DO error or deadline, check failed, any exception) forwards the ORIGINAL bytes and
 * counts its reason (DESIGN invariant 5).
 */
import type { CompactionConfig } from "../config/schema";
import type { CompactionMode } from "../config/load-config";
import { applyPlan } from "../core/plan/apply-plan";
import { checkGuarantee } from "../core/plan/check-guarantee";
import type { Provider } from "../core/view/types";
import type { SessionObject } from "../do/session-object";
import { slimView, type OutcomeReport, type StepOutput } from "../do/step-types";
import { adapterFor } from "../providers/registry";
import { tapUsage } from "../usage/tap-usage";
import type { IncomingRequest, RouteKind } from "./handle-request";
import { sessionIdOf } from "./session-id";
import { outcomeUpdate, usageUpdate, type IndexUpdate } from "../admin/index-update";

/** Response header describing what was done (DESIGN §7b). */
export const COMPACTION_HEADER = "x-sluice-compaction";

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
  index?: { record(u: IndexUpdate): Promise<unknown> };
  /** Called when a new step was forwarded (audit trail: counts only). */
  onStep?: (step: { tier: StepOutput["tier"]; tokens_before: number; tokens_after: number; usd: number; correlation_id: string; session_id: string }) => void;
}

/** What the pipeline hands back to the request handler. */
export interface PipelineResult {
  body: Uint8Array;
  headers: Record<string, string>;
  /** Wraps the upstream response (usage tap); returns the response for the client. */
  after?: (res: Response) => Response;
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

/** Runs the pipeline for one chat request. Never throws: failures return the original bytes. */
export async function runPipeline(deps: PipelineDeps, req: IncomingRequest): Promise<PipelineResult> {
  const original = req.body!;
  const unchanged = (note: string, after?: PipelineResult["after"]): PipelineResult => ({ body: original, headers: { [COMPACTION_HEADER]: note }, after });
  if ((req.headers.get(COMPACTION_HEADER) ?? "").trim().toLowerCase() === "off") return unchanged("off; reason=client_header");

  const provider = PROVIDER_OF[req.route];
  const adapter = provider ? adapterFor(provider) : undefined;
  if (!provider || !adapter) return unchanged("skipped; reason=no_adapter");

  let parsed;
  try {
    parsed = adapter.read(original);
  } catch {
    return unchanged("skipped; reason=parse");
  }
  if (parsed.view.server_managed) return unchanged(`skipped; reason=server_managed`);

  const sid = sessionIdOf(provider, req.headers, original, parsed.root);
  const stub = deps.sessions.get(deps.sessions.idFromName(sid.id));
  const t0 = deps.now();
  let stepMs: number | null = null;
  const facts = { session_id: sid.id, provider, model: parsed.view.model, turns: parsed.view.turn_count, now_ms: t0 };
  const record = (u: IndexUpdate) => (deps.index ? Promise.resolve(deps.index.record(u)).catch(() => undefined) : Promise.resolve());
  /** Reports the outcome to the session DO, then what it recorded to the index (waitUntil). */
  const report = (r: OutcomeReport, out: StepOutput | null) =>
    deps.waitUntil(
      Promise.resolve(stub.reportOutcome(r))
        .catch(() => null)
        .then((recorded) => record(outcomeUpdate({ ...facts, step: out, report: r, recorded: recorded ?? null, step_ms: out ? stepMs : null }))),
    );
  const after = (estimated: number) => usageAfter(deps, stub, provider, estimated, sid.id, record);
  const failOpen = (reason: string, out: StepOutput | null): PipelineResult => {
    report({ correlation_id: req.requestId, outcome: reason, rollback_step: out?.step ?? null, tokens_original: out?.tokens_original ?? parsed.view.est_tokens, tokens_sent: out?.tokens_original ?? parsed.view.est_tokens, tier: out?.tier ?? "none" }, out);
    return unchanged(`skipped; reason=${reason}`, after(out?.tokens_original ?? parsed.view.est_tokens));
  };

  let out: StepOutput;
  try {
    out = await withDeadline(
      stub.step({ session_id: sid.id, view: slimView(parsed.view), config: deps.config, mode: deps.mode, correlation_id: req.requestId, now_ms: deps.now() }),
      deps.doTimeoutMs,
    );
  } catch (err) {
    const reason = err instanceof Deadline ? "do_timeout" : "do_error";
    deps.waitUntil(Promise.resolve(stub.countFailOpen(reason)).catch(() => undefined));
    const tokens = parsed.view.est_tokens;
    deps.waitUntil(record(outcomeUpdate({ ...facts, step: null, recorded: null, step_ms: null, report: { correlation_id: req.requestId, outcome: reason, rollback_step: null, tokens_original: tokens, tokens_sent: tokens, tier: "none" } })));
    return unchanged(`skipped; reason=${reason}`);
  }
  stepMs = deps.now() - t0;
  if (out.disabled) {
    report({ correlation_id: req.requestId, outcome: "unchanged", rollback_step: null, tokens_original: out.tokens_original, tokens_sent: out.tokens_original, tier: "none" }, out);
    return unchanged("off; reason=session_disabled", after(out.tokens_original));
  }
  const summary = `tier=${out.tier}; pairs_removed=${out.pairs_removed}; tokens_before=${out.tokens_original}; tokens_after=${out.tokens_after}`;
  if (deps.mode === "measure") {
    report({ correlation_id: req.requestId, outcome: "unchanged", rollback_step: null, tokens_original: out.tokens_original, tokens_sent: out.tokens_original, tier: out.tier }, out);
    return unchanged(`measure; ${summary}`, after(out.tokens_original));
  }
  if (Object.keys(out.plan.actions).length === 0) {
    report({ correlation_id: req.requestId, outcome: "unchanged", rollback_step: null, tokens_original: out.tokens_original, tokens_sent: out.tokens_original, tier: out.tier }, out);
    return unchanged(`none; ${summary}`, after(out.tokens_original));
  }

  let edited: Uint8Array;
  try {
    edited = applyPlan(adapter, parsed, out.plan).bytes;
    const check = checkGuarantee(adapter, original, edited);
    if (!check.ok) return failOpen("guarantee_check", out);
  } catch {
    return failOpen("apply_error", out);
  }
  if (deps.config.archive_removed && out.new_pair_ids.length > 0) {
    const ids = new Set(out.new_pair_ids);
    const items = parsed.view.pairs.filter((p) => ids.has(p.id)).map((p) => ({ call_id: p.id, text: p.result_text }));
    deps.waitUntil(Promise.resolve(stub.archive(items)).catch(() => undefined));
  }
  if (out.step !== null) {
    try {
      deps.onStep?.({ tier: out.tier, tokens_before: out.tokens_original, tokens_after: out.tokens_after, usd: out.cost_estimate, correlation_id: req.requestId, session_id: sid.id });
    } catch { /* audit is best effort */ }
  }
  report({ correlation_id: req.requestId, outcome: edited === original ? "unchanged" : "compacted", rollback_step: null, tokens_original: out.tokens_original, tokens_sent: out.tokens_after, tier: out.tier }, out);
  return { body: edited, headers: { [COMPACTION_HEADER]: summary }, after: after(out.tokens_after) };
}

/** The usage tap: reports provider usage and our estimate of what was sent to the DO and the index, in waitUntil. */
function usageAfter(
  deps: PipelineDeps,
  stub: DurableObjectStub<SessionObject>,
  provider: Provider,
  estimated: number,
  sessionId: string,
  record: (u: IndexUpdate) => Promise<unknown>,
): (res: Response) => Response {
  return (res) => {
    const tapped = tapUsage(res, provider);
    deps.waitUntil(
      tapped.usage
        .then(async (u) => {
          if (!u) return;
          await Promise.resolve(stub.reportUsage(u, estimated)).catch(() => undefined);
          await record(usageUpdate(sessionId, provider, deps.now(), u));
        })
        .catch(() => undefined),
    );
    return tapped.response;
  };
}
