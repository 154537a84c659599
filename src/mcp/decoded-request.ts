/**
 * A compressed POST /mcp body (shell): decoded with the provider routes' decoders
 * (../gateway/request-encoding.ts decodeRequestBody) before the MCP handler reads it as JSON, so
 * a client that compresses its requests (`content-encoding: gzip`, `br`, `zstd`, …) is answered
 * as if it had sent the plain bytes. A body that cannot be decoded is answered here with a
 * JSON-RPC error naming the `content-encoding` header (the handler would only see invalid JSON):
 * an unsupported coding → 415 with `accept-encoding` listing the supported ones (RFC 9110
 * §15.5.16, §12.5.3); corrupt data → 400; a decoded body over MCP_MAX_DECODED_BYTES → 413.
 */
import { DECODED_CODINGS, decodeRequestBody, identityHeaders, type DecodeFailure } from "../gateway/request-encoding";

/**
 * Largest decoded /mcp body, bytes (4 MiB): the MCP SDK's own request body limit
 * (`maxRequestBodySize`, default 4,194,304 in @modelcontextprotocol/server), which refuses a
 * larger plain body anyway; a restore or search request is a few hundred bytes.
 */
export const MCP_MAX_DECODED_BYTES = 4 * 1024 * 1024;

/** JSON-RPC's parse error code (JSON-RPC 2.0 §5.1), the code the SDK answers for an unreadable body. */
const PARSE_ERROR = -32700;

const STATUS: Readonly<Record<DecodeFailure, number>> = { unknown_coding: 415, decode_error: 400, too_large: 413 };

/** The error message for a body whose `content-encoding` is `coding` and failed for `cause`. */
export function decodeFailureMessage(coding: string, cause: DecodeFailure): string {
  if (cause === "unknown_coding") return `content-encoding "${coding}" is not supported (supported: ${DECODED_CODINGS.join(", ")})`;
  if (cause === "too_large") return `content-encoding "${coding}": the decoded body is over ${MCP_MAX_DECODED_BYTES} bytes`;
  return `content-encoding "${coding}": the body could not be decoded`;
}

/**
 * `request` as the MCP handler should read it: itself when it has no `content-encoding` (or only
 * `identity`), the same request with its decoded body and without `content-encoding` and
 * `content-length` when it decodes, else the error Response to send (see the module comment).
 */
export async function decodedMcpRequest(request: Request): Promise<Request | Response> {
  if (request.body === null || !request.headers.has("content-encoding")) return request;
  const body = new Uint8Array(await request.arrayBuffer());
  const decoded = decodeRequestBody(request.headers, body, MCP_MAX_DECODED_BYTES);
  if (decoded.kind === "identity") return new Request(request, { body });
  if (decoded.kind === "decoded") return new Request(request, { headers: identityHeaders(request.headers), body: decoded.bytes });
  const headers: Record<string, string> = decoded.cause === "unknown_coding" ? { "accept-encoding": DECODED_CODINGS.join(", ") } : {};
  return Response.json({ jsonrpc: "2.0", error: { code: PARSE_ERROR, message: decodeFailureMessage(decoded.coding, decoded.cause) }, id: null }, { status: STATUS[decoded.cause], headers });
}
