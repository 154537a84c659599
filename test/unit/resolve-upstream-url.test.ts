/** No SSRF: the upstream origin and base path never change, whatever the client path. */
import { describe, expect, it } from "vitest";
import { resolveUpstreamUrl } from "../../src/gateway/resolve-upstream-url";

describe("resolveUpstreamUrl", () => {
  it("joins base, path and query, keeping the client's encoding", () => {
    expect(resolveUpstreamUrl("https://api.anthropic.com", "/v1/messages", "")).toEqual({ ok: true, url: "https://api.anthropic.com/v1/messages" });
    expect(resolveUpstreamUrl("https://api.openai.com", "/v1/files/a%2Fb", "?limit=2&after=x%2Fy")).toEqual({
      ok: true,
      url: "https://api.openai.com/v1/files/a%2Fb?limit=2&after=x%2Fy",
    });
    expect(resolveUpstreamUrl("http://127.0.0.1:9/openai-upstream", "/v1/models", "?a=1")).toEqual({ ok: true, url: "http://127.0.0.1:9/openai-upstream/v1/models?a=1" });
    expect(resolveUpstreamUrl("https://x.openai.azure.com/openai/deployments/d/", "/chat/completions", "?api-version=2024-10-21")).toEqual({
      ok: true,
      url: "https://x.openai.azure.com/openai/deployments/d/chat/completions?api-version=2024-10-21",
    });
  });

  it("keeps host-looking paths as paths on the operator's host", () => {
    expect(resolveUpstreamUrl("https://api.anthropic.com", "//evil.com/v1/messages", "")).toEqual({ ok: true, url: "https://api.anthropic.com//evil.com/v1/messages" });
    expect(resolveUpstreamUrl("https://api.anthropic.com", "/@evil.com/x", "")).toEqual({ ok: true, url: "https://api.anthropic.com/@evil.com/x" });
    expect(resolveUpstreamUrl("https://api.anthropic.com", "/http://evil.com/x", "")).toEqual({ ok: true, url: "https://api.anthropic.com/http://evil.com/x" });
    expect(resolveUpstreamUrl("https://api.anthropic.com", "/..%2f..%2fx", "")).toEqual({ ok: true, url: "https://api.anthropic.com/..%2f..%2fx" });
    expect(resolveUpstreamUrl("https://api.anthropic.com", "/v1", "?u=http://evil.com/@x")).toEqual({ ok: true, url: "https://api.anthropic.com/v1?u=http://evil.com/@x" });
  });

  it("refuses paths that would leave the base path or the origin", () => {
    const refused = (base: string, path: string, search = "") => resolveUpstreamUrl(base, path, search);
    expect(refused("http://h:1/base", "/../x")).toEqual({ ok: false, reason: "path is not in normal form (dot segments)" });
    expect(refused("http://h:1/base", "/v1/../../x")).toEqual({ ok: false, reason: "path is not in normal form (dot segments)" });
    expect(refused("http://h:1/base", "/%2e%2e/x")).toEqual({ ok: false, reason: "path is not in normal form (dot segments)" });
    expect(refused("http://h:1/base", "/.%2E/x")).toEqual({ ok: false, reason: "path is not in normal form (dot segments)" });
    expect(refused("http://h:1/base", "/./x")).toEqual({ ok: false, reason: "path is not in normal form (dot segments)" });
    expect(refused("https://api.anthropic.com", "@evil.com/x")).toEqual({ ok: false, reason: "path must start with /" });
    expect(refused("https://api.anthropic.com", "evil.com")).toEqual({ ok: false, reason: "path must start with /" });
    expect(refused("https://api.anthropic.com", "/\\evil.com/x")).toEqual({ ok: false, reason: "path contains a backslash, space, control character or #" });
    expect(refused("https://api.anthropic.com", "/x#@evil.com")).toEqual({ ok: false, reason: "path contains a backslash, space, control character or #" });
    expect(refused("https://api.anthropic.com", "/x\r\nHost: evil.com")).toEqual({ ok: false, reason: "path contains a backslash, space, control character or #" });
    expect(refused("https://api.anthropic.com", "/x", "a=1")).toEqual({ ok: false, reason: "query must start with ?" });
    expect(refused("https://api.anthropic.com", "/x", "?a=1#@evil.com")).toEqual({ ok: false, reason: "query contains a space, control character or #" });
  });
});
