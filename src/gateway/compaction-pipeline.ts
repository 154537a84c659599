/**
 * The live compaction pipeline (shell, DESIGN §1): parse → neutral view → one session-DO RPC
 * (ledger re-application, tier, maybe a new step) → apply the plan by splicing → guarantee
 * check → forward; then, off the hot path, the usage tap and the outcome report. Every failure
 * (parse, DO error or deadline, check failed, any exception) forwards the ORIGINAL bytes and
 * counts its reason (DESIGN invariant 5). Measurement mode runs the same steps, applies and
 * checks the plan, forwards the original and reports what the edit would have removed (§8).
 *
 * Token figures in the outcome report and the response header are the estimator's count of the
 * bytes actually forwarded (the checker's parse of the edited body), not the DO's planning
 * estimate: refused and downgraded actions save less than planned.
 */
import type { CompactionConfig } from "../config/schema";
import type { CompactionMode } from "../config/load-config";
import { applyPlan } from "../core/plan/apply-plan";
import { checkGuarantee } from "../core/plan/check-guarantee";
import type { Provider } from "../core/view/types";
import type { SessionObject } from "../do/session-object";
import { slimView, type OutcomeReport, type StepOutput } from "../do/step-types";
import { adapterFor } from "../providers/registry";
import type { ProviderAdapter } from "../providers/types";
import { tapUsage } from "../usage/tap-usage";
import type { IncomingRequest, RouteKind } from "./handle-request";
import { headerSessionId, sessionIdOf } from "./session-id";
import { outcomeUpdate, usageUpdate, type IndexUpdate } from "../admin/index-update";

/** Response header describing what was done (DESIGN §7b). */
export const COMPACTION_HEADER = "x-sluice-compaction";

/** Dependencies of the pipeline, built per request by the app (tests inject wrappers here). */
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
  /** Provider → adapter (src/providers/registry.ts unless injected). */
  adapterFor?: (provider: Provider) => ProviderAdapter | undefined;
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

/**
 * The header value: `<mode>; tier=<selected tier>; step=<n|none>[; skipped=<why>];
 * pairs_removed=<n>; tokens_before=<est>; tokens_after=<est>` (mode: "compact" or "measure";
 * `skipped` is the selected tier's reason for taking no step), or
 * `off; reason=…` / `skipped; reason=…` when the request went untouched before a plan existed.
 */
function summaryOf(mode: PipelineDeps["mode"], out: StepOutput, pairs: number, before: number, after: number): string {
  const step = out.step !== null ? `step=${out.step}` : out.skipped !== null ? `step=none; skipped=${out.skipped}` : "step=none";
  return `${mode}; tier=${out.tier}; ${step}; pairs_removed=${pairs}; tokens_before=${before}; tokens_after=${after}`;
}

/** Runs the pipeline for one chat request. Never throws: failures return the original bytes. */
export async function runPipeline(deps: PipelineDeps, req: IncomingRequest): Promise<PipelineResult> {
  const original = req.body!;
  const unchanged = (note: string, after?: PipelineResult["after"]): PipelineResult => ({ body: original, headers: { [COMPACTION_HEADER]: note }, after });
  if ((req.headers.get(COMPACTION_HEADER) ?? "").trim().toLowerCase() === "off") return unchanged("off; reason=client_header");

  const provider = PROVIDER_OF[req.route];
  const adapter = provider ? (deps.adapterFor ?? adapterFor)(provider) : undefined;
  if (!provider || !adapter) return unchanged("skipped; reason=no_adapter");

  let parsed;
  try {
    parsed = adapter.read(original);
  } catch {
    // Without a body there is no fingerprint; a session named in a header still gets the count.
    const named = headerSessionId(req.headers);
    if (named) {
      const stub = deps.sessions.get(deps.sessions.idFromName(named.id));
      deps.waitUntil(Promise.resolve(stub.countFailOpen("parse")).catch(() => undefined));
    }
    return unchanged("skipped; reason=parse");
  }
  if (parsed.view.server_managed) return unchanged(`skipped; reason=server_managed`);

  const sid = sessionIdOf(provider, req.headers, original, parsed.root);
  const stub = deps.sessions.get(deps.sessions.idFromName(sid.id));
  const est = parsed.view.est_tokens;
  const t0 = deps.now();
  let stepMs: number | null = null;
  let stepOut: StepOutput | null = null;
  const facts = { session_id: sid.id, provider, model: parsed.view.model, turns: parsed.view.turn_count, now_ms: t0 };
  const record = (u: IndexUpdate) => (deps.index ? Promise.resolve(deps.index.record(u)).catch(() => undefined) : Promise.resolve());
  /** Reports the outcome to the session DO, then what it recorded to the index (waitUntil). */
  const report = (r: Omit<OutcomeReport, "correlation_id">) => {
    const full: OutcomeReport = { correlation_id: req.requestId, ...r };
    deps.waitUntil(
      Promise.resolve(stub.reportOutcome(full))
        .catch(() => null)
        .then((recorded) => record(outcomeUpdate({ ...facts, step: stepOut, report: full, recorded: recorded ?? null, step_ms: stepMs }))),
    );
  };
  const tap = usageAfter(deps, stub, provider, sid.id, record);

  let out: StepOutput;
  try {
    out = await withDeadline(
      stub.step({ session_id: sid.id, view: slimView(parsed.view), config: deps.config, mode: deps.mode, correlation_id: req.requestId, now_ms: deps.now() }),
      deps.doTimeoutMs,
    );
  } catch (err) {
    const reason = err instanceof Deadline ? "do_timeout" : "do_error";
    deps.waitUntil(Promise.resolve(stub.countFailOpen(reason)).catch(() => undefined));
    deps.waitUntil(record(outcomeUpdate({ ...facts, step: null, recorded: null, step_ms: null, report: { correlation_id: req.requestId, outcome: reason, rollback_step: null, tokens_original: est, tokens_sent: est, tier: "none", pairs_removed: 0, would_send: null } })));
    return unchanged(`skipped; reason=${reason}`, tap(est));
  }
  stepMs = deps.now() - t0;
  stepOut = out;
  const failOpen = (reason: string): PipelineResult => {
    report({ outcome: reason, rollback_step: out.step, tokens_original: est, tokens_sent: est, tier: out.tier, pairs_removed: 0, would_send: null });
    return unchanged(`skipped; reason=${reason}`, tap(est));
  };
  if (out.disabled) {
    report({ outcome: "unchanged", rollback_step: null, tokens_original: est, tokens_sent: est, tier: "none", pairs_removed: 0, would_send: null });
    return unchanged("off; reason=session_disabled", tap(est));
  }

  // Apply and check (in both modes: measurement counts only what would really have been sent).
  let edited: Uint8Array = original;
  let sent = est;
  let pairs = 0;
  if (Object.keys(out.plan.actions).length > 0) {
    try {
      const applied = applyPlan(adapter, parsed, out.plan);
      edited = applied.bytes;
      pairs = Object.entries(out.plan.actions).filter(([id, a]) => a.kind !== "keep" && applied.refused[id] === undefined).length;
      if (edited !== original) {
        const check = checkGuarantee(adapter, original, edited, { input: parsed });
        if (!check.ok || !check.output) return failOpen("guarantee_check");
        sent = check.output.view.est_tokens;
      } else pairs = 0;
    } catch {
      return failOpen("apply_error");
    }
  }
  const summary = summaryOf(deps.mode, out, pairs, est, sent);
  if (deps.mode === "measure") {
    report({ outcome: "measured", rollback_step: null, tokens_original: est, tokens_sent: est, tier: out.tier, pairs_removed: pairs, would_send: sent });
    return unchanged(summary, tap(est));
  }
  if (deps.config.archive_removed && out.new_pair_ids.length > 0) {
    const ids = new Set(out.new_pair_ids);
    const items = parsed.view.pairs.filter((p) => ids.has(p.id)).map((p) => ({ call_id: p.id, text: p.result_text }));
    deps.waitUntil(Promise.resolve(stub.archive(items)).catch(() => undefined));
  }
  if (out.step !== null) {
    try {
      deps.onStep?.({ tier: out.tier, tokens_before: est, tokens_after: sent, usd: out.cost_estimate, correlation_id: req.requestId, session_id: sid.id });
    } catch { /* audit is best effort */ }
  }
  report({ outcome: edited === original ? "unchanged" : "compacted", rollback_step: null, tokens_original: est, tokens_sent: sent, tier: out.tier, pairs_removed: pairs, would_send: null });
  return { body: edited, headers: { [COMPACTION_HEADER]: summary }, after: tap(sent) };
}

/** The usage tap: reports provider usage and our estimate of what was sent to the DO, then to the index, in waitUntil. */
function usageAfter(
  deps: PipelineDeps,
  stub: DurableObjectStub<SessionObject>,
  provider: Provider,
  sessionId: string,
  record: (u: IndexUpdate) => Promise<unknown>,
): (estimated: number) => (res: Response) => Response {
  return (estimated) => (res) => {
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
