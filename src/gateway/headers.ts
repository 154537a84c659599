/**
 * Header policy for forwarding (pure). Client auth and provider headers (x-api-key,
 * authorization, anthropic-version, anthropic-beta, openai-organization, openai-project, …)
 * pass through; hop-by-hop headers (RFC 9110 §7.6.1), `host`, Cloudflare's `cf-*`, and
 * Sluice's own control headers (`x-sluice-*`) never go upstream.
 */

/** Hop-by-hop and connection-specific request headers; RFC 9110 §7.6.1 plus content-length (recomputed). */
const DROP_REQUEST = new Set([
  "connection",
  "keep-alive",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
  "content-length",
  "x-forwarded-for",
  "x-forwarded-proto",
  "x-real-ip",
]);

/** Returns the headers to send upstream for a client request's headers. */
export function upstreamRequestHeaders(client: Headers): Headers {
  const out = new Headers();
  client.forEach((value, key) => {
    const k = key.toLowerCase();
    if (DROP_REQUEST.has(k) || k.startsWith("proxy-") || k.startsWith("cf-") || k.startsWith("x-sluice-")) return;
    out.append(k, value);
  });
  return out;
}

/**
 * Returns the headers to send to the client for an upstream response. The runtime has already
 * decoded any `content-encoding`, and the body is streamed (its length may change when it is
 * re-encoded), so `content-encoding` and `content-length` are dropped with the hop-by-hop set.
 */
export function clientResponseHeaders(upstream: Headers): Headers {
  const out = new Headers();
  upstream.forEach((value, key) => {
    const k = key.toLowerCase();
    if (DROP_REQUEST.has(k) || k === "content-encoding" || k.startsWith("proxy-")) return;
    out.append(k, value);
  });
  return out;
}
