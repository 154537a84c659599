/**
 * WebSocket upgrades (shell helpers of the app).
 *
 * On a chat route: answered at once with `426 Upgrade Required` in the provider's error shape,
 * never forwarded.
 *
 * Why 426: Codex CLI (openai/codex, codex-rs/core/src/client.rs) first opens its Responses
 * stream as a WebSocket (`GET …/responses` with `Upgrade: websocket`) when the provider
 * supports it, which the built-in `openai` provider declares. A handshake answered
 * `426 Upgrade Required` maps to `WebsocketStreamOutcome::FallbackToHttp`: the session
 * switches to `POST …/responses` (SSE) at once, for the rest of the session. Any other answer
 * (a 200, a 404, a reset) counts as a stream error, retried with backoff up to
 * `stream_max_retries` (5 by default: "Reconnecting... 1/5" … "5/5") before the same fallback.
 * Over HTTP the requests reach the compaction hook; a relayed WebSocket would carry the
 * conversation in frames Sluice does not compact.
 *
 * On any other path (e.g. OpenAI's Realtime API, `/openai/v1/realtime`): relayed. The upgrade
 * goes to the same upstream URL a request would (operator's base URL, header policy of
 * ../gateway/headers.ts), and the runtime pumps the messages between the two sockets — each
 * text or binary message's bytes unchanged, nothing read or compacted.
 */
import type { GatewayConfig } from "../config/gateway-config";
import { bodyCoding, clientResponseHeaders, upstreamRequestHeaders } from "../gateway/headers";
import type { ProviderFamily } from "../gateway/provider-errors";
import { providerError } from "../gateway/provider-errors";
import { resolveUpstreamUrl } from "../gateway/resolve-upstream-url";

/** Whether a request asks to upgrade its connection to a WebSocket (RFC 6455 §4.1: `Upgrade: websocket`, any case). */
export function isWebSocketUpgrade(headers: Headers): boolean {
  const v = headers.get("upgrade");
  return v !== null && v.split(",").some((p) => p.trim().toLowerCase() === "websocket");
}

/** The 426 answer for a WebSocket upgrade on chat route `path` (the client's path, e.g. "/openai/v1/responses"). */
export function websocketRefused(family: ProviderFamily, path: string, requestId: string): Response {
  return providerError(family, { code: "websocket_unsupported", path }, requestId);
}

/**
 * Handshake headers the runtime writes itself for the upstream hop (workerd's fetch() makes its
 * own key and negotiates its own extensions); the client's would describe the client's hop.
 */
const RUNTIME_HANDSHAKE = ["sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions"];

/** A WebSocket upgrade to relay: the provider, the path under its prefix, the query string, the client's headers. */
export interface UpgradeRequest {
  family: ProviderFamily;
  /** Path under the provider prefix, still percent-encoded (e.g. "/v1/realtime"). */
  path: string;
  /** Query string including "?", or "". */
  search: string;
  headers: Headers;
  requestId: string;
}

/**
 * Relays a WebSocket upgrade to the upstream: a 101 with the upstream socket (and its chosen
 * `sec-websocket-protocol`) when the upstream accepts, else the upstream's answer as any proxied
 * response; 400 for a path that cannot be placed under the base URL, 502 when the upstream
 * cannot be reached. No retry and no time limit of Sluice's own: the client's handshake timeout
 * applies.
 */
export async function relayWebSocket(config: GatewayConfig, req: UpgradeRequest): Promise<Response> {
  const target = resolveUpstreamUrl(config.baseUrls[req.family], req.path, req.search);
  if (!target.ok) return providerError(req.family, { code: "bad_upstream_path", detail: target.reason }, req.requestId);
  const headers = upstreamRequestHeaders(req.headers, config.adminToken);
  for (const name of RUNTIME_HANDSHAKE) headers.delete(name);
  headers.set("upgrade", "websocket");
  let res: Response;
  try {
    res = await fetch(target.url, { headers });
  } catch (err) {
    return providerError(req.family, { code: "upstream_unreachable", detail: err instanceof Error ? err.message : String(err) }, req.requestId);
  }
  if (res.webSocket) {
    const protocol = res.headers.get("sec-websocket-protocol");
    return new Response(null, { status: 101, webSocket: res.webSocket, headers: protocol === null ? {} : { "sec-websocket-protocol": protocol } });
  }
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers: clientResponseHeaders(res.headers, bodyCoding(res.headers)) });
}
