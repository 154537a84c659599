/**
 * Request orchestration (shell): takes a client request whose body was read once into bytes,
 * resolves the upstream URL from the operator's base (never from the client), optionally lets a
 * compaction hook replace the body (fail-open: any throw forwards the original bytes), and
 * forwards. Every forward (the edited one, the fail-open one, each retry) is built from bytes
 * held here (case B18).
 */
import type { GatewayConfig } from "../config/gateway-config";
import { forwardUpstream } from "./forward";
import { providerError, type GatewayError, type ProviderFamily } from "./provider-errors";
import { compactDecoded } from "./request-encoding";
import { resolveUpstreamUrl } from "./resolve-upstream-url";
import { errorName, logFailOpen } from "./log-fail-open";

/** What kind of route a request came through. `chat` routes may be compacted; `passthrough` never. */
export type RouteKind = "anthropic-messages" | "openai-chat" | "openai-responses" | "passthrough";

/** A client request reduced to what forwarding needs. */
export interface IncomingRequest {
  family: ProviderFamily;
  route: RouteKind;
  method: string;
  /** Path under the provider prefix, starting with "/", still percent-encoded (e.g. "/v1/messages"). */
  path: string;
  /** Query string including "?", or "". */
  search: string;
  headers: Headers;
  /** Client body bytes, read once; null when the client sent no body (and for GET/HEAD). */
  body: Uint8Array | null;
  /** Correlation id (also the `x-sluice-request-id` response header). */
  requestId: string;
  signal?: AbortSignal;
  /** The caller id client authentication derived (src/http/middleware/caller.ts); it owns the sessions its requests create. Absent: none. */
  callerId?: string | null;
}

/**
 * Optional compaction step: given the incoming request, returns the body to forward, response
 * headers to add, `requestHeaders` (set on the forwarded request, e.g. a beta value the edited
 * body needs), `after` (wraps the upstream response on its way to the client) and
 * `noResponse` (called instead of `after` when no upstream response came: 502/504). If it
 * throws, the original bytes are forwarded (DESIGN invariant 5).
 */
export type CompactionHook = (
  req: IncomingRequest,
) => Promise<{ body: Uint8Array; headers?: Record<string, string>; requestHeaders?: Record<string, string>; after?: (res: Response) => Response; noResponse?: () => void }>;

/** Injected dependencies of the request handler. */
export interface HandlerDeps {
  config: GatewayConfig;
  compact?: CompactionHook;
}

/** Gateway error → provider-shaped Response for this request. */
function fail(req: IncomingRequest, e: GatewayError): Response {
  return providerError(req.family, e, req.requestId);
}

/** Handles one proxied request end to end; returns the client response. */
export async function handleRequest(deps: HandlerDeps, req: IncomingRequest): Promise<Response> {
  const target = resolveUpstreamUrl(deps.config.baseUrls[req.family], req.path, req.search);
  if (!target.ok) return fail(req, { code: "bad_upstream_path", detail: target.reason });

  let body = req.body;
  // The headers that describe `body` upstream: the client's, or identity ones for an edited body
  // that arrived compressed (./request-encoding.ts).
  let forwardHeaders = req.headers;
  let extraHeaders: Record<string, string> = {};
  let after: ((res: Response) => Response) | undefined;
  let noResponse: (() => void) | undefined;
  if (deps.compact && req.route !== "passthrough" && body !== null) {
    try {
      const out = await compactDecoded(deps.compact, req);
      body = out.body;
      forwardHeaders = out.forwardHeaders;
      extraHeaders = out.headers ?? {};
      // Request headers the pipeline sets (the native mechanism's beta value) go only with the body they describe.
      if (out.requestHeaders && body !== req.body) {
        forwardHeaders = new Headers(forwardHeaders);
        for (const [k, v] of Object.entries(out.requestHeaders)) forwardHeaders.set(k, v);
      }
      after = out.after;
      noResponse = out.noResponse;
    } catch (err) {
      body = req.body; // fail open: the original bytes, with their headers
      forwardHeaders = req.headers;
      extraHeaders = {};
      logFailOpen({ reason: "hook_error", session_id: null, request_id: req.requestId, route: req.route, body_bytes: req.body?.length ?? 0, est_tokens: null, error: errorName(err) });
    }
  }
  const result = await forwardUpstream({
    url: target.url,
    method: req.method,
    headers: forwardHeaders,
    body,
    timeoutMs: deps.config.upstreamTimeoutMs,
    adminToken: deps.config.adminToken,
    signal: req.signal,
  });
  if (!result.ok) {
    try { noResponse?.(); } catch { /* reporting is best effort */ }
    return fail(req, result.error);
  }
  for (const [k, v] of Object.entries(extraHeaders)) result.response.headers.set(k, v);
  if (!after) return result.response;
  try {
    return after(result.response);
  } catch {
    return result.response; // the usage tap is best effort; the answer always goes through
  }
}
