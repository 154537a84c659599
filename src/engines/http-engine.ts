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
 * 5. 4xx/5xx/3xx → `http_4xx`/`http_5xx`/`unexpected_status` (body not read); a body over
 *    MAX_ANSWER_BYTES or an answer failing read-engine-answer.ts → `malformed`.
 */
import type { EditPlan } from "../core/plan/types";
import type { EngineRequest, EngineVerdict } from "./protocol";
import { readEngineAnswer } from "./read-engine-answer";
import { secretProblem } from "../config/secrets";

/** Largest answer body read, bytes (1 MiB: ~10k verdicts of ~100 bytes; our bound). */
export const MAX_ANSWER_BYTES = 1_048_576;

/** Why an engine call failed. Each one ends in the original history. */
export const ENGINE_FAILURE_REASONS = [
  "timeout", "cancelled", "network", "http_4xx", "http_5xx", "unexpected_status", "malformed", "missing_credential",
] as const;
export type EngineFailureReason = (typeof ENGINE_FAILURE_REASONS)[number];

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
  const doFetch = deps.fetch ?? ((input, init) => fetch(input, init));
  const log = deps.log ?? ((line: string) => console.log(line));
  const now = deps.now ?? (() => performance.now());
  const announced = deps.announced ?? ISOLATE_ANNOUNCED;

  async function decide(request: EngineRequest, signal?: AbortSignal): Promise<EngineOutcome> {
    const started = now();
    const fail = (reason: EngineFailureReason, detail: string, status?: number): EngineOutcome =>
      ({ ok: false, reason, detail, ...(status === undefined ? {} : { status }), latency_ms: now() - started });
    if (request.candidates.length === 0) return { ok: true, plan: { actions: {} }, verdicts: [], latency_ms: 0, cost_usd: 0 };

    const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
    if (config.api_key_env !== null) {
      const problem = secretProblem(deps.env, config.api_key_env);
      if (problem === "missing") return fail("missing_credential", `env var ${config.api_key_env} is not set`);
      if (problem === "development_value") return fail("missing_credential", `env var ${config.api_key_env} holds a development value outside wrangler dev`);
      const credential = deps.env[config.api_key_env] as string;
      headers.authorization = `Bearer ${credential}`;
    }
    if (!announced.has(`${config.kind} ${host}`)) {
      announced.add(`${config.kind} ${host}`);
      if (config.kind === "remote") log(`sluice: remote decision engine in use; destination host ${host} receives tool-result excerpts (up to ${config.head_chars} chars each)`);
      try { deps.onFirstUse?.(host); } catch { /* an audit hook failure must not fail the request */ }
    }

    const ctrl = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    const deadline = new Promise<EngineOutcome>((resolve) => {
      timer = setTimeout(() => { ctrl.abort(); resolve(fail("timeout", `no answer within ${config.timeout_ms} ms`)); }, config.timeout_ms);
    });
    const cancelled = new Promise<EngineOutcome>((resolve) => {
      if (!signal) return;
      onAbort = () => { ctrl.abort(); resolve(fail("cancelled", "caller aborted")); };
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    });
    const exchange = async (): Promise<EngineOutcome> => {
      try {
        const res = await doFetch(config.endpoint, {
          method: "POST", headers, body: JSON.stringify(request), redirect: "manual", signal: ctrl.signal,
        });
        if (res.status >= 500) return drop(res, fail("http_5xx", `status ${res.status}`, res.status));
        if (res.status >= 400) return drop(res, fail("http_4xx", `status ${res.status}`, res.status));
        if (res.status < 200 || res.status >= 300) return drop(res, fail("unexpected_status", `status ${res.status}`, res.status));
        const text = await readCapped(res, MAX_ANSWER_BYTES);
        if (text === null) return fail("malformed", `answer over ${MAX_ANSWER_BYTES} bytes`, res.status);
        const read = readEngineAnswer(text, request.candidates.map((c) => c.id), config.decision_threshold);
        if (!read.ok) return fail("malformed", read.detail, res.status);
        return { ok: true, plan: read.plan, verdicts: read.verdicts, latency_ms: now() - started, cost_usd: read.cost_usd };
      } catch (err) {
        return fail("network", describeError(err));
      }
    };
    try {
      return await Promise.race([exchange(), deadline, cancelled]);
    } finally {
      clearTimeout(timer);
      if (signal && onAbort) signal.removeEventListener("abort", onAbort);
    }
  }

  return { kind: config.kind, host, decide };
}

/** The counter name for a failure (e.g. `engine_timeout`), for fail-open accounting. */
export function engineFailureCounter(reason: EngineFailureReason): `engine_${EngineFailureReason}` {
  return `engine_${reason}`;
}

/** Discards an unread body so the connection can be reused, then returns `outcome`. */
function drop(res: Response, outcome: EngineOutcome): EngineOutcome {
  res.body?.cancel().catch(() => {});
  return outcome;
}

/** Reads the body as UTF-8 text, or null past `max` bytes. */
async function readCapped(res: Response, max: number): Promise<string | null> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const all = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) { all.set(c, at); at += c.byteLength; }
  return new TextDecoder().decode(all);
}

/** Error name plus a system code when there is one (ECONNREFUSED, ECONNRESET…); no text. */
function describeError(err: unknown): string {
  const e = err as { name?: string; code?: string; cause?: { code?: string; name?: string } };
  const code = e?.cause?.code ?? e?.code;
  return `${e?.name ?? "Error"}${code ? ` (${code})` : ""}`;
}
