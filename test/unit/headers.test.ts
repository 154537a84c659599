/** Header policy (src/gateway/headers.ts): literal header sets in, whole header sets out. */
import { describe, expect, it } from "vitest";
import { bodyCoding, clientResponseHeaders, upstreamRequestHeaders } from "../../src/gateway/headers";

const entries = (h: Headers) => [...h.entries()];

describe("upstreamRequestHeaders", () => {
  it("passes auth and provider headers, drops hop-by-hop, host, content-length, cf-*, proxy metadata, x-sluice-*", () => {
    const client = new Headers([
      ["x-api-key", "sk-ant-1"],
      ["authorization", "Bearer sk-openai-1"],
      ["anthropic-version", "2023-06-01"],
      ["anthropic-beta", "a,b"],
      ["openai-organization", "org-1"],
      ["openai-project", "proj-1"],
      ["accept-encoding", "gzip, br"],
      ["content-type", "application/json"],
      ["connection", "keep-alive, X-Named-Hop"],
      ["x-named-hop", "1"],
      ["keep-alive", "timeout=5"],
      ["te", "trailers"],
      ["trailer", "x-t"],
      ["transfer-encoding", "chunked"],
      ["upgrade", "websocket"],
      ["proxy-authorization", "Basic x"],
      ["proxy-connection", "keep-alive"],
      ["host", "sluice.example"],
      ["content-length", "999"],
      ["cf-connecting-ip", "203.0.113.9"],
      ["cf-ray", "abc"],
      ["forwarded", "for=203.0.113.9"],
      ["x-forwarded-for", "203.0.113.9"],
      ["x-forwarded-host", "evil.com"],
      ["x-real-ip", "203.0.113.9"],
      ["x-sluice-admin-token", "adm"],
      ["x-sluice-session", "s1"],
      ["x-sluice-compaction", "off"],
      ["x-custom", "kept"],
    ]);
    expect(entries(upstreamRequestHeaders(client))).toEqual([
      ["accept-encoding", "gzip, br"],
      ["anthropic-beta", "a,b"],
      ["anthropic-version", "2023-06-01"],
      ["authorization", "Bearer sk-openai-1"],
      ["content-type", "application/json"],
      ["openai-organization", "org-1"],
      ["openai-project", "proj-1"],
      ["x-api-key", "sk-ant-1"],
      ["x-custom", "kept"],
    ]);
  });

  it("drops any header carrying the admin token, and only those", () => {
    const client = new Headers([
      ["authorization", "Bearer tok-admin-123"],
      ["x-api-key", "tok-admin-123"],
      ["x-other", "prefix tok-admin-123 suffix"],
      ["x-api-key-2", "tok-admin-12"],
    ]);
    expect(entries(upstreamRequestHeaders(client, "tok-admin-123"))).toEqual([["x-api-key-2", "tok-admin-12"]]);
    expect(entries(upstreamRequestHeaders(client, null))).toHaveLength(4);
  });
});

describe("clientResponseHeaders", () => {
  const upstream = new Headers([
    ["content-type", "application/json"],
    ["content-encoding", "gzip"],
    ["content-length", "52"],
    ["connection", "keep-alive, x-hop"],
    ["x-hop", "1"],
    ["keep-alive", "timeout=5"],
    ["transfer-encoding", "chunked"],
    ["request-id", "req_1"],
    ["anthropic-ratelimit-requests-remaining", "49"],
  ]);

  it("drops content-encoding and content-length once the runtime decoded the body", () => {
    expect(bodyCoding(upstream)).toBe("decoded");
    expect(entries(clientResponseHeaders(upstream, "decoded"))).toEqual([
      ["anthropic-ratelimit-requests-remaining", "49"],
      ["content-type", "application/json"],
      ["request-id", "req_1"],
    ]);
  });

  it("keeps them when the body is passed as it came", () => {
    const deflate = new Headers([["content-encoding", "deflate"], ["content-length", "45"], ["content-type", "application/json"]]);
    expect(bodyCoding(deflate)).toBe("as-is");
    expect(bodyCoding(new Headers([["content-encoding", " BR "]]))).toBe("decoded");
    expect(bodyCoding(new Headers([["content-encoding", "gzip, br"]]))).toBe("as-is");
    expect(entries(clientResponseHeaders(deflate, "as-is"))).toEqual([
      ["content-encoding", "deflate"],
      ["content-length", "45"],
      ["content-type", "application/json"],
    ]);
  });
});
