/**
 * Errors Sluice itself answers with, as typed values mapped to HTTP once (pure), in each
 * provider's own error shape so clients' SDKs parse them like any upstream error:
 * - Anthropic `{"type":"error","error":{"type","message"},"request_id"}` with error types from
 *   docs.anthropic.com/en/api/errors (api_error 500, not_found_error 404, timeout_error as in the
 *   SDK's GatewayTimeoutError, invalid_request_error 4xx);
 * - OpenAI `{"error":{"message","type","param","code"}}` (platform.openai.com/docs/guides/error-codes).
 */
export type ProviderFamily = "anthropic" | "openai";

/** A failure produced by the gateway (not relayed from the upstream). */
export type GatewayError =
  /** The upstream could not be reached (connect error, reset before a response), after the retry. */
  | { code: "upstream_unreachable"; detail: string }
  /** No response headers within UPSTREAM_TIMEOUT_MS. */
  | { code: "upstream_timeout"; timeoutMs: number }
  /** The client path cannot be placed under the upstream base URL (see resolve-upstream-url.ts). */
  | { code: "bad_upstream_path"; detail: string }
  /** No Sluice route for this path. */
  | { code: "not_found"; path: string }
  /** A WebSocket upgrade on a chat route: 426 makes Codex fall back to HTTP at once (src/http/websocket-upgrade.ts). */
  | { code: "websocket_unsupported"; path: string }
  /** A bug or a bad config var; `detail` names the field. */
  | { code: "internal"; detail: string }
  /** Client authentication refused the caller (src/http/middleware/client-auth.ts); `detail` says what to send. */
  | { code: "unauthenticated"; detail: string }
  /** The caller's rate limit is used up (src/http/middleware/rate-limit.ts); answered with `retry-after`. */
  | { code: "rate_limited"; retryAfterSeconds: number };

interface Mapped {
  status: number;
  anthropicType: string;
  openaiType: string;
  message: string;
  /** OpenAI `code` when it differs from the gateway code (the API's own codes for 401 and 429). */
  openaiCode?: string;
  /** Extra response headers. */
  headers?: Record<string, string>;
}

function mapError(e: GatewayError): Mapped {
  switch (e.code) {
    case "upstream_unreachable":
      return { status: 502, anthropicType: "api_error", openaiType: "server_error", message: `Sluice could not reach the upstream: ${e.detail}` };
    case "upstream_timeout":
      return { status: 504, anthropicType: "timeout_error", openaiType: "server_error", message: `The upstream sent no response within ${e.timeoutMs} ms` };
    case "bad_upstream_path":
      return { status: 400, anthropicType: "invalid_request_error", openaiType: "invalid_request_error", message: `Sluice refused the request path: ${e.detail}` };
    case "not_found":
      return { status: 404, anthropicType: "not_found_error", openaiType: "invalid_request_error", message: `No Sluice route for ${e.path}` };
    case "websocket_unsupported":
      return { status: 426, anthropicType: "invalid_request_error", openaiType: "invalid_request_error", message: `Sluice does not relay WebSockets on ${e.path}; send the request over HTTP (POST)` };
    case "internal":
      return { status: 500, anthropicType: "api_error", openaiType: "server_error", message: `Sluice internal error: ${e.detail}` };
    case "unauthenticated":
      // Anthropic 401 authentication_error; OpenAI 401 invalid_request_error / invalid_api_key (as the APIs answer a bad key).
      return { status: 401, anthropicType: "authentication_error", openaiType: "invalid_request_error", openaiCode: "invalid_api_key", message: `Sluice refused the caller: ${e.detail}` };
    case "rate_limited":
      // Anthropic 429 rate_limit_error; OpenAI 429 type "requests", code rate_limit_exceeded; both send retry-after in seconds.
      return { status: 429, anthropicType: "rate_limit_error", openaiType: "requests", openaiCode: "rate_limit_exceeded", message: `Sluice rate limit reached for this caller: retry after ${e.retryAfterSeconds} s`, headers: { "retry-after": String(e.retryAfterSeconds) } };
    default: {
      const never: never = e;
      throw new Error(`unhandled gateway error ${JSON.stringify(never)}`);
    }
  }
}

/** JSON Response for `e` in `family`'s error shape; `code` (OpenAI) is e.code unless the API has its own; `request_id` (Anthropic) is ours. */
export function providerError(family: ProviderFamily, e: GatewayError, requestId: string): Response {
  const m = mapError(e);
  const body =
    family === "anthropic"
      ? { type: "error", error: { type: m.anthropicType, message: m.message }, request_id: requestId }
      : { error: { message: m.message, type: m.openaiType, param: null, code: m.openaiCode ?? e.code } };
  return new Response(JSON.stringify(body), { status: m.status, headers: { "content-type": "application/json", ...m.headers } });
}
