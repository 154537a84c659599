/**
 * Header policy for forwarding (pure).
 *
 * Request (client → upstream): every header passes (client auth and provider headers:
 * x-api-key, authorization, anthropic-version, anthropic-beta, openai-organization,
 * openai-project, accept-encoding, …) except
 *   1. hop-by-hop headers (RFC 9110 §7.6.1: connection, keep-alive, te, trailer,
 *      transfer-encoding, upgrade, proxy-*) and any header the `connection` header names;
 *   2. `host` and `content-length` (the runtime sets both for the upstream hop; content-length
 *      then equals the byte length of the body actually sent, case B12);
 *   3. Cloudflare's own `cf-*`, and proxy metadata (`forwarded`, `x-forwarded-*`, `x-real-ip`);
 *   4. Sluice's control headers `x-sluice-*` (admin token, session id, compaction switch);
 *   5. any header whose value contains the Sluice admin token (e.g. `authorization: Bearer <it>`).
 *
 * Response (upstream → client): everything passes except hop-by-hop headers, and — when the
 * runtime has decoded the body — `content-encoding` and `content-length`, which described the
 * encoded bytes, not the ones the client gets.
 */

/** Hop-by-hop headers, RFC 9110 §7.6.1 (plus the obsolete keep-alive and proxy-connection). */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "te", "trailer", "transfer-encoding", "upgrade"]);

/** Request headers the runtime sets itself for the upstream hop, or that describe the client's hop. */
const CLIENT_HOP_ONLY = new Set(["host", "content-length", "forwarded", "x-real-ip"]);

/**
 * Content codings workerd's fetch() decodes transparently while keeping the upstream's
 * `content-encoding`/`content-length` headers: gzip, and br (compat flag
 * `brotli_content_encoding`, default since compatibility date 2024-09-02). Measured in workerd
 * (test/workers/response-encoding.test.ts): `deflate` and unknown codings are passed raw.
 */
export const RUNTIME_DECODED_CODINGS = new Set(["gzip", "x-gzip", "br"]);

/** Header names listed in a `connection` header value, lowercased. */
function connectionOptions(headers: Headers): Set<string> {
  const v = headers.get("connection");
  return new Set(v === null ? [] : v.split(",").map((s) => s.trim().toLowerCase()).filter(Boolean));
}

function isHopByHop(name: string, named: Set<string>): boolean {
  return HOP_BY_HOP.has(name) || name.startsWith("proxy-") || named.has(name);
}

/**
 * Returns the headers to send upstream for a client request's headers. `adminToken` is the
 * configured Sluice admin token (null when unset); no header carrying it is forwarded.
 */
export function upstreamRequestHeaders(client: Headers, adminToken: string | null = null): Headers {
  const named = connectionOptions(client);
  const out = new Headers();
  client.forEach((value, name) => {
    const k = name.toLowerCase();
    if (isHopByHop(k, named) || CLIENT_HOP_ONLY.has(k)) return;
    if (k.startsWith("cf-") || k.startsWith("x-forwarded-") || k.startsWith("x-sluice-")) return;
    if (adminToken !== null && value.includes(adminToken)) return;
    out.append(k, value);
  });
  return out;
}

/** How the response body relates to the upstream's bytes. */
export type BodyCoding =
  /** The runtime decoded a gzip/br body: the client gets identity bytes. */
  | "decoded"
  /** The body is the upstream's bytes as they came (identity, or a coding the runtime leaves alone). */
  | "as-is";

/** Whether workerd decoded a response with these headers (see RUNTIME_DECODED_CODINGS). */
export function bodyCoding(upstream: Headers): BodyCoding {
  const ce = upstream.get("content-encoding")?.trim().toLowerCase() ?? "";
  return RUNTIME_DECODED_CODINGS.has(ce) ? "decoded" : "as-is";
}

/** Returns the headers to send to the client for an upstream response whose body has `coding`. */
export function clientResponseHeaders(upstream: Headers, coding: BodyCoding): Headers {
  const named = connectionOptions(upstream);
  const out = new Headers();
  upstream.forEach((value, name) => {
    const k = name.toLowerCase();
    if (isHopByHop(k, named)) return;
    if (coding === "decoded" && (k === "content-encoding" || k === "content-length")) return;
    out.append(k, value);
  });
  return out;
}
