/**
 * Upstream forwarding (shell). Sends a request body held as bytes to the operator-configured
 * upstream, with at most one retry before any byte reached the client, and returns a Response
 * whose body is the upstream stream, not buffered.
 *
 * Retry rule (case B18): one retry when the connection fails before a response, or when the
 * upstream answers 429/503/529 with `retry-after` ≤ RETRY_MAX_WAIT_S seconds. Every attempt
 * is built from the same bytes, never from a consumed stream.
 */
import { clientResponseHeaders, upstreamRequestHeaders } from "./headers";

/** Longest `retry-after` (seconds) we wait out ourselves; larger ones go to the client. */
export const RETRY_MAX_WAIT_S = 1;
const RETRY_STATUSES = new Set([429, 503, 529]);

/** One upstream request to make: target URL (already resolved against the operator's base), method, headers, body bytes. */
export interface UpstreamRequest {
  url: string;
  method: string;
  headers: Headers;
  /** The exact body bytes to send; null for body-less methods. */
  body: Uint8Array | null;
  /** Abort signal of the client request, so a client abort cancels the upstream fetch. */
  signal?: AbortSignal;
}

/** Result of forwarding: the client response, or a network failure after the retry. */
export type ForwardResult =
  | { ok: true; response: Response; attempts: number }
  | { ok: false; error: string; attempts: number };

function retryAfterSeconds(h: Headers): number | null {
  const v = h.get("retry-after");
  if (v === null) return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

/** Sends `req` upstream (≤ 2 attempts) and wraps the upstream response for the client. */
export async function forwardUpstream(req: UpstreamRequest, fetchImpl: typeof fetch = fetch): Promise<ForwardResult> {
  let attempts = 0;
  let lastError = "";
  while (attempts < 2) {
    attempts++;
    let res: Response;
    try {
      res = await fetchImpl(req.url, {
        method: req.method,
        headers: upstreamRequestHeaders(req.headers),
        body: req.body === null ? null : req.body.slice(),
        redirect: "manual",
        signal: req.signal,
      });
    } catch (err) {
      lastError = err instanceof Error ? err.message : String(err);
      if (req.signal?.aborted) break;
      continue;
    }
    const wait = retryAfterSeconds(res.headers);
    if (attempts < 2 && RETRY_STATUSES.has(res.status) && wait !== null && wait <= RETRY_MAX_WAIT_S) {
      await res.body?.cancel();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait * 1000));
      continue;
    }
    const response = new Response(res.body, {
      status: res.status,
      statusText: res.statusText,
      headers: clientResponseHeaders(res.headers),
    });
    return { ok: true, response, attempts };
  }
  return { ok: false, error: lastError || "upstream unreachable", attempts };
}
