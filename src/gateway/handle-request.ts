/**
 * Request orchestration (shell): reads the client body once into bytes, resolves the upstream
 * URL from the operator's base (never from the client), optionally lets a compaction hook
 * replace the body, and forwards. Every forward (the edited one, the fail-open one, each retry)
 * is built from bytes held here (case B18).
 */
import { forwardUpstream } from "./forward";
import { providerError, type ProviderFamily } from "./provider-errors";

/** What kind of route a request came through. `chat` routes may be compacted; others never. */
export type RouteKind = "anthropic-messages" | "openai-chat" | "openai-responses" | "passthrough";

/** A client request reduced to what forwarding needs. */
export interface IncomingRequest {
  family: ProviderFamily;
  route: RouteKind;
  method: string;
  /** Path under the provider prefix, starting with "/" (e.g. "/v1/messages"). */
  path: string;
  /** Query string including "?", or "". */
  search: string;
  headers: Headers;
  /** Client body bytes, read once. null for GET/HEAD. */
  body: Uint8Array | null;
  signal?: AbortSignal;
}

/**
 * Optional compaction step: given the incoming request, returns the body to forward and
 * response headers to add. Must never throw past its own fail-open boundary; if it does,
 * the original bytes are forwarded anyway.
 */
export type CompactionHook = (req: IncomingRequest) => Promise<{ body: Uint8Array; headers?: Record<string, string> }>;

/** Injected dependencies of the request handler. */
export interface HandlerDeps {
  baseUrl: (family: ProviderFamily) => string;
  compact?: CompactionHook;
  fetchImpl?: typeof fetch;
}

/** Joins an operator base URL and a client path, e.g. ("https://api.openai.com", "/v1/x", "?a=1"). */
export function joinUpstreamUrl(base: string, path: string, search: string): string {
  return base.replace(/\/+$/, "") + path + search;
}

/** Handles one proxied request end to end; returns the client response. */
export async function handleRequest(deps: HandlerDeps, req: IncomingRequest): Promise<Response> {
  let body = req.body;
  let extraHeaders: Record<string, string> = {};
  if (deps.compact && req.route !== "passthrough" && body !== null) {
    try {
      const out = await deps.compact(req);
      body = out.body;
      extraHeaders = out.headers ?? {};
    } catch {
      body = req.body; // fail open: the original bytes
      extraHeaders = {};
    }
  }
  const result = await forwardUpstream(
    {
      url: joinUpstreamUrl(deps.baseUrl(req.family), req.path, req.search),
      method: req.method,
      headers: req.headers,
      body,
      signal: req.signal,
    },
    deps.fetchImpl,
  );
  if (!result.ok) {
    return providerError(req.family, 502, "upstream_unreachable", `Sluice could not reach the upstream: ${result.error}`);
  }
  for (const [k, v] of Object.entries(extraHeaders)) result.response.headers.set(k, v);
  return result.response;
}
