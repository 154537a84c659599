/**
 * Upstream forwarding (shell: uses fetch and timers). Sends a request body held as bytes to the
 * operator-configured upstream and returns a Response whose body is the upstream stream, not
 * buffered: the client gets each byte as the runtime receives it (case B10).
 *
 * Retry rule (case B18): at most 2 attempts, and only before any response byte reached the
 * client (we return as soon as response headers arrive; after that nothing is retried). The
 * second attempt happens when
 *   1. the first fails without a response (connect error, reset), or
 *   2. the first answers 429/503/529 with `retry-after` ≤ RETRY_MAX_WAIT_S seconds.
 * A timeout to response headers is not retried (it would double an already long wait). Every
 * attempt is built from the same bytes, never from a consumed stream.
 */
import type { GatewayError } from "./provider-errors";
import { bodyCoding, clientResponseHeaders, upstreamRequestHeaders } from "./headers";

/**
 * Longest `retry-after` (seconds) we wait out ourselves; larger ones go to the client as is (its
 * SDK retries with its own backoff). 1 s: B18's upstream says `retry-after: 0`, and a gateway
 * should add at most about a second of hidden latency.
 */
export const RETRY_MAX_WAIT_S = 1;
/** Statuses the providers document as transient: 429 rate limit, 503 unavailable, 529 overloaded (Anthropic). */
const RETRY_STATUSES = new Set([429, 503, 529]);
/** Upper bound on upstream attempts per client request: case B18, "retry once". */
export const MAX_ATTEMPTS = 2;

/** One upstream request to make. */
export interface UpstreamRequest {
  /** Absolute upstream URL, already resolved against the operator's base (resolve-upstream-url.ts). */
  url: string;
  method: string;
  /** The client's headers; the forwarding policy (headers.ts) is applied here. */
  headers: Headers;
  /** The exact body bytes to send; null for a request without a body. */
  body: Uint8Array | null;
  /** Time limit to response headers per attempt, ms. */
  timeoutMs: number;
  /** The Sluice admin token, never forwarded (null when unset). */
  adminToken: string | null;
  /** Abort signal of the client request: a client abort cancels the upstream fetch. */
  signal?: AbortSignal;
}

/** Result of forwarding: the client response, or a gateway error after the last attempt. */
export type ForwardResult =
  | { ok: true; response: Response; attempts: number }
  | { ok: false; error: GatewayError; attempts: number };

/** `retry-after` as delta-seconds, or null when absent or an HTTP date. */
function retryAfterSeconds(h: Headers): number | null {
  const v = h.get("retry-after")?.trim();
  if (v === undefined || !/^\d+$/.test(v)) return null;
  return Number(v);
}

type Attempt = { kind: "response"; res: Response } | { kind: "network"; message: string } | { kind: "timeout" } | { kind: "aborted" };

/** One fetch with a timeout to response headers; the timer is cleared once headers arrive so the body can stream on. */
async function attemptOnce(req: UpstreamRequest, headers: Headers): Promise<Attempt> {
  const ctl = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    ctl.abort();
  }, req.timeoutMs);
  const onClientAbort = () => ctl.abort();
  req.signal?.addEventListener("abort", onClientAbort);
  try {
    const res = await fetch(req.url, {
      method: req.method,
      headers,
      body: req.body === null ? null : req.body.slice(),
      redirect: "manual",
      signal: ctl.signal,
    });
    return { kind: "response", res };
  } catch (err) {
    if (timedOut) return { kind: "timeout" };
    if (req.signal?.aborted) return { kind: "aborted" };
    return { kind: "network", message: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
  }
}

/** Wraps an upstream response for the client: same status and body stream, headers per headers.ts. */
function toClientResponse(res: Response): Response {
  // Measured (response-encoding.test.ts): workerd re-encodes nothing for codings it did not
  // decode (deflate passes raw), so no `encodeBody: "manual"` is needed.
  return new Response(res.body, {
    status: res.status,
    statusText: res.statusText,
    headers: clientResponseHeaders(res.headers, bodyCoding(res.headers)),
  });
}

/** Sends `req` upstream (≤ MAX_ATTEMPTS attempts) and wraps the upstream response for the client. */
export async function forwardUpstream(req: UpstreamRequest): Promise<ForwardResult> {
  const headers = upstreamRequestHeaders(req.headers, req.adminToken);
  let lastNetworkError = "no attempt made";
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const out = await attemptOnce(req, headers);
    switch (out.kind) {
      case "timeout":
        return { ok: false, error: { code: "upstream_timeout", timeoutMs: req.timeoutMs }, attempts: attempt };
      case "aborted":
        return { ok: false, error: { code: "upstream_unreachable", detail: "client aborted the request" }, attempts: attempt };
      case "network":
        lastNetworkError = out.message;
        continue;
      case "response": {
        const wait = retryAfterSeconds(out.res.headers);
        if (attempt < MAX_ATTEMPTS && RETRY_STATUSES.has(out.res.status) && wait !== null && wait <= RETRY_MAX_WAIT_S) {
          await out.res.body?.cancel();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait * 1000));
          continue;
        }
        return { ok: true, response: toClientResponse(out.res), attempts: attempt };
      }
      default: {
        const never: never = out;
        throw new Error(`unhandled attempt ${JSON.stringify(never)}`);
      }
    }
  }
  return { ok: false, error: { code: "upstream_unreachable", detail: lastNetworkError }, attempts: MAX_ATTEMPTS };
}
