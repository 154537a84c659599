/**
 * The HTTP decision engine client (shell: fetch, timers). One client for `local` and `remote`;
 * they differ only in config (DESIGN §5). It never throws: every outcome is a value, and a
 * failure carries a reason code the caller counts before sending the original history.
 *
 * 1. No candidates → ok with the empty plan, no network call.
 * 2. `api_key_env` set → the credential is read from env BY NAME at each call and sent as
 *    `authorization: Bearer …`; not set in env, or a development value (`dev-only-…`) outside
 *    wrangler dev (src/config/secrets.ts) → `missing_credential`, no call. The value is
 *    never logged, returned, or put in a detail.
 * 3. First use (per isolate, or per `announced` set): `remote` logs one line naming the
 *    destination host; `onFirstUse(host)` lets the caller write the audit trail's
 *    engine_destination record (both kinds).
 * 4. POST the request JSON; redirects are not followed (a local engine must not bounce the
 *    request to a public host). `timeout_ms` covers the whole exchange, body included: at the
 *    deadline the fetch is aborted and `timeout` returns at once, whatever the server does.
 * 5. 4xx/5xx/3xx → `http_4xx`/`http_5xx`/`unexpected_status` (body not read; steps 2, 4, 5 are
 *    src/engines/post-json.ts, shared with the summariser); a body over
 *    MAX_ANSWER_BYTES or an answer failing read-engine-answer.ts → `malformed`.
 */
import type { EditPlan } from "../core/plan/types";
import type { EngineRequest, EngineVerdict } from "./protocol";
import { readEngineAnswer } from "./read-engine-answer";
import { postJson, requestHeaders, type EngineFailureReason } from "./post-json";

export { MAX_ANSWER_BYTES, ENGINE_FAILURE_REASONS, type EngineFailureReason } from "./post-json";

export type EngineOutcome =
  | { ok: true; plan: EditPlan; verdicts: EngineVerdict[]; latency_ms: number; /** What the engine reported this answer cost, USD (protocol `cost_usd`; 0 when absent or no call was made). */ cost_usd: number }
  | {
      ok: false;
      reason: EngineFailureReason;
      /** Short, text-free detail (status code, error name/code, field path). */
      detail: string;
      /** HTTP status when one was received. */
      status?: number;
      latency_ms: number;
    };

/** The config slice an HTTP engine needs (a subset of CompactionConfig). */
export interface HttpEngineConfig {
  kind: "local" | "remote";
  endpoint: string;
  model: string | null;
  api_key_env: string | null;
  timeout_ms: number;
  decision_threshold: number;
  head_chars: number;
}

/** Host-provided effects. */
export interface HttpEngineDeps {
  /** Env to read the credential from, by the name in `api_key_env`. */
  env: Readonly<Record<string, unknown>>;
  fetch?: typeof fetch;
  /** One-line log sink (default console.log). */
  log?: (line: string) => void;
  /** Called once, before the first call, with the destination host. */
  onFirstUse?: (host: string) => void;
  /** Monotonic ms clock (default performance.now). */
  now?: () => number;
  /** Destinations already announced (default: one set per isolate, so clients built per request log once). */
  announced?: Set<string>;
}

/** Destinations announced in this isolate (`kind host`). */
const ISOLATE_ANNOUNCED = new Set<string>();

/** A decision engine reachable over HTTP. */
export interface HttpEngine {
  kind: "local" | "remote";
  /** Destination host (`URL.host`). */
  host: string;
  /** Asks for verdicts. Never throws. `signal` aborts (e.g. the client went away) → `cancelled`. */
  decide(request: EngineRequest, signal?: AbortSignal): Promise<EngineOutcome>;
}

/** Builds an HTTP engine client. `config` must already have passed the config schema. */
export function createHttpEngine(config: HttpEngineConfig, deps: HttpEngineDeps): HttpEngine {
  const host = new URL(config.endpoint).host;
  const log = deps.log ?? ((line: string) => console.log(line));
  const now = deps.now ?? (() => performance.now());
  const announced = deps.announced ?? ISOLATE_ANNOUNCED;

  async function decide(request: EngineRequest, signal?: AbortSignal): Promise<EngineOutcome> {
    const started = now();
    const fail = (reason: EngineFailureReason, detail: string, status?: number): EngineOutcome =>
      ({ ok: false, reason, detail, ...(status === undefined ? {} : { status }), latency_ms: now() - started });
    if (request.candidates.length === 0) return { ok: true, plan: { actions: {} }, verdicts: [], latency_ms: 0, cost_usd: 0 };

    const auth = requestHeaders(deps.env, config.api_key_env);
    if (!auth.ok) return fail(auth.reason, auth.detail);
    if (!announced.has(`${config.kind} ${host}`)) {
      announced.add(`${config.kind} ${host}`);
      if (config.kind === "remote") log(`sluice: remote decision engine in use; destination host ${host} receives tool-result excerpts (up to ${config.head_chars} chars each)`);
      try { deps.onFirstUse?.(host); } catch { /* an audit hook failure must not fail the request */ }
    }
    const answer = await postJson({
      url: config.endpoint, body: request, api_key_env: config.api_key_env, env: deps.env,
      timeout_ms: config.timeout_ms, ...(signal ? { signal } : {}), ...(deps.fetch ? { fetch: deps.fetch } : {}),
    });
    if (!answer.ok) return fail(answer.reason, answer.detail, answer.status);
    const read = readEngineAnswer(answer.text, request.candidates.map((c) => c.id), config.decision_threshold);
    if (!read.ok) return fail("malformed", read.detail, answer.status);
    return { ok: true, plan: read.plan, verdicts: read.verdicts, latency_ms: now() - started, cost_usd: read.cost_usd };
  }

  return { kind: config.kind, host, decide };
}

/** The counter name for a failure (e.g. `engine_timeout`), for fail-open accounting. */
export function engineFailureCounter(reason: EngineFailureReason): `engine_${EngineFailureReason}` {
  return `engine_${reason}`;
}
