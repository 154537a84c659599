/**
 * One JSON POST to an engine-like HTTP service under a deadline (shell: fetch, timers). Shared by
 * the decision engine (http-engine.ts) and the summariser (summarizer.ts) so both follow the
 * same rules (DESIGN §5):
 * - the credential is read from env BY NAME (`api_key_env`) at each call and sent as
 *   `authorization: Bearer …`; unset, or a development value outside wrangler dev
 *   (src/config/secrets.ts) → `missing_credential`, no call. The value is never returned or logged;
 * - redirects are not followed (a local service must not bounce the body to a public host);
 * - `timeout_ms` covers the whole exchange, body included: at the deadline the fetch is aborted
 *   and `timeout` returns at once, whatever the server does; `signal` aborts → `cancelled`;
 * - 4xx/5xx/other non-2xx → `http_4xx`/`http_5xx`/`unexpected_status` (body not read); a body
 *   over `max_bytes` → `malformed`; a thrown fetch → `network`.
 * It never throws: every outcome is a value.
 */
import { secretProblem } from "../config/secrets";

/** Largest answer body read, bytes (1 MiB: ~10k verdicts of ~100 bytes; our bound). */
export const MAX_ANSWER_BYTES = 1_048_576;

/** Why an engine call failed. Each one ends in the caller's fallback (original history, no summary). */
export const ENGINE_FAILURE_REASONS = [
  "timeout", "cancelled", "network", "http_4xx", "http_5xx", "unexpected_status", "malformed", "missing_credential",
] as const;
export type EngineFailureReason = (typeof ENGINE_FAILURE_REASONS)[number];

/** A failed exchange: reason, short text-free detail, and the HTTP status when one was received. */
export interface ExchangeFailure {
  ok: false;
  reason: EngineFailureReason;
  /** Short, text-free detail (status code, error name/code, field path). */
  detail: string;
  status?: number;
}

/** A 2xx answer's body text, or a failure. */
export type ExchangeResult = { ok: true; status: number; text: string } | ExchangeFailure;

/** What one POST needs. */
export interface PostJsonRequest {
  url: string;
  body: unknown;
  /** NAME of the env var holding the bearer credential, or null for none. */
  api_key_env: string | null;
  env: Readonly<Record<string, unknown>>;
  timeout_ms: number;
  signal?: AbortSignal;
  fetch?: typeof fetch;
  /** Largest body read, bytes (default MAX_ANSWER_BYTES). */
  max_bytes?: number;
}

/** Builds a failure value. */
export function failure(reason: EngineFailureReason, detail: string, status?: number): ExchangeFailure {
  return { ok: false, reason, detail, ...(status === undefined ? {} : { status }) };
}

/** The request headers, with the credential read by name; or the `missing_credential` failure. */
export function requestHeaders(env: Readonly<Record<string, unknown>>, apiKeyEnv: string | null): { ok: true; headers: Record<string, string> } | ExchangeFailure {
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (apiKeyEnv === null) return { ok: true, headers };
  const problem = secretProblem(env, apiKeyEnv);
  if (problem === "missing") return failure("missing_credential", `env var ${apiKeyEnv} is not set`);
  if (problem === "development_value") return failure("missing_credential", `env var ${apiKeyEnv} holds a development value outside wrangler dev`);
  headers.authorization = `Bearer ${env[apiKeyEnv] as string}`;
  return { ok: true, headers };
}

/** POSTs `req.body` as JSON and returns the 2xx answer text, or a failure. Never throws. */
export async function postJson(req: PostJsonRequest): Promise<ExchangeResult> {
  const auth = requestHeaders(req.env, req.api_key_env);
  if (!auth.ok) return auth;
  const headers = auth.headers;
  const doFetch = req.fetch ?? ((input, init) => fetch(input, init));
  const maxBytes = req.max_bytes ?? MAX_ANSWER_BYTES;
  const ctrl = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const deadline = new Promise<ExchangeResult>((resolve) => {
    timer = setTimeout(() => { ctrl.abort(); resolve(failure("timeout", `no answer within ${req.timeout_ms} ms`)); }, req.timeout_ms);
  });
  const cancelled = new Promise<ExchangeResult>((resolve) => {
    if (!req.signal) return;
    onAbort = () => { ctrl.abort(); resolve(failure("cancelled", "caller aborted")); };
    if (req.signal.aborted) onAbort();
    else req.signal.addEventListener("abort", onAbort, { once: true });
  });
  const exchange = async (): Promise<ExchangeResult> => {
    try {
      const res = await doFetch(req.url, { method: "POST", headers, body: JSON.stringify(req.body), redirect: "manual", signal: ctrl.signal });
      if (res.status >= 500) return drop(res, failure("http_5xx", `status ${res.status}`, res.status));
      if (res.status >= 400) return drop(res, failure("http_4xx", `status ${res.status}`, res.status));
      if (res.status < 200 || res.status >= 300) return drop(res, failure("unexpected_status", `status ${res.status}`, res.status));
      const text = await readCapped(res, maxBytes);
      if (text === null) return failure("malformed", `answer over ${maxBytes} bytes`, res.status);
      return { ok: true, status: res.status, text };
    } catch (err) {
      return failure("network", describeError(err));
    }
  };
  try {
    return await Promise.race([exchange(), deadline, cancelled]);
  } finally {
    clearTimeout(timer);
    if (req.signal && onAbort) req.signal.removeEventListener("abort", onAbort);
  }
}

/** Discards an unread body so the connection can be reused, then returns `outcome`. */
function drop<T>(res: Response, outcome: T): T {
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
