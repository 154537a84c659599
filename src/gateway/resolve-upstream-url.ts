/**
 * Upstream URL resolution (pure). The upstream is always the operator's base URL; the client only
 * contributes a path under it and a query string. Whatever the client path contains (`//host`,
 * `/..`, `%2e%2e`, `@host`, `\host`, an absolute URL), the result keeps the base's origin and
 * stays under the base's path, or resolution fails: no client input can make the gateway call
 * another host (no SSRF).
 */

/** Result of resolving a client path against an operator base URL. */
export type UpstreamUrlResult = { ok: true; url: string } | { ok: false; reason: string };

/**
 * Joins `base` (e.g. "https://api.openai.com" or "http://h:1/openai-upstream") with the client's
 * `path` (starting with "/", still percent-encoded, e.g. "/v1/files/a%2Fb") and `search` ("" or
 * "?…"), by string concatenation so the client's bytes are kept, then verifies the parsed result:
 * same origin as the base, path under the base's path.
 */
export function resolveUpstreamUrl(base: string, path: string, search: string): UpstreamUrlResult {
  if (!path.startsWith("/")) return { ok: false, reason: "path must start with /" };
  if (search !== "" && !search.startsWith("?")) return { ok: false, reason: "query must start with ?" };
  if (/[\u0000-\u0020#]/.test(search)) return { ok: false, reason: "query contains a space, control character or #" };
  if (/[\\\u0000-\u0020#]/.test(path)) return { ok: false, reason: "path contains a backslash, space, control character or #" };
  const root = new URL(base);
  const basePath = root.pathname.replace(/\/+$/, "");
  const joined = `${root.origin}${basePath}${path}${search}`;
  if (!URL.canParse(joined)) return { ok: false, reason: "not a valid URL" };
  const target = new URL(joined);
  if (target.origin !== root.origin) return { ok: false, reason: "would change the upstream origin" };
  if (target.pathname !== `${basePath}${path}`) return { ok: false, reason: "path is not in normal form (dot segments)" };
  return { ok: true, url: target.href };
}
