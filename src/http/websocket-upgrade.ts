/**
 * WebSocket upgrades on a chat route (shell helper of the app): answered at once with
 * `426 Upgrade Required` in the provider's error shape, never forwarded.
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
 */
import type { ProviderFamily } from "../gateway/provider-errors";
import { providerError } from "../gateway/provider-errors";

/** Whether a request asks to upgrade its connection to a WebSocket (RFC 6455 §4.1: `Upgrade: websocket`, any case). */
export function isWebSocketUpgrade(headers: Headers): boolean {
  const v = headers.get("upgrade");
  return v !== null && v.split(",").some((p) => p.trim().toLowerCase() === "websocket");
}

/** The 426 answer for a WebSocket upgrade on chat route `path` (the client's path, e.g. "/openai/v1/responses"). */
export function websocketRefused(family: ProviderFamily, path: string, requestId: string): Response {
  return providerError(family, { code: "websocket_unsupported", path }, requestId);
}
