/**
 * No SSRF: no header and no path trick changes the upstream host. A request that
 * reached another host would fail (no such host here) or be missing from the stand-in's record;
 * each case asserts the stand-in got it, under the configured base path, or that Sluice answered
 * 404 without forwarding anything.
 */
import { describe, expect, it } from "vitest";
import { exports } from "cloudflare:workers";
import { gateway, newTestId, received, testVars } from "./helpers";

const standInHost = new URL(testVars.UPSTREAM_CONTROL_URL).host;

async function expectForwardedTo(res: Response, id: string, upstreamPath: string) {
  expect(res.status).toBe(200);
  expect(((await res.json()) as { path: string }).path).toBe(upstreamPath);
  const recs = await received(id);
  expect(recs.map((r) => [r.path, r.headers.host])).toEqual([[upstreamPath, standInHost]]);
}

describe("path tricks stay on the operator's upstream", () => {
  const forwarded: Array<[string, string]> = [
    ["/anthropic//evil.com/v1/messages", "/anthropic-upstream//evil.com/v1/messages"],
    ["/anthropic/@evil.com/v1/messages", "/anthropic-upstream/@evil.com/v1/messages"],
    ["/openai/http://evil.com/v1/models", "/openai-upstream/http://evil.com/v1/models"],
    ["/openai/https:%2F%2Fevil.com%2Fv1", "/openai-upstream/https:%2F%2Fevil.com%2Fv1"],
    ["/anthropic/..%2f..%2fadmin", "/anthropic-upstream/..%2f..%2fadmin"],
    ["/anthropic/%2e%2e%2f%2e%2e%2fx", "/anthropic-upstream/%2e%2e%2f%2e%2e%2fx"],
    ["/anthropic/\\evil.com/x", "/anthropic-upstream//evil.com/x"],
    ["/anthropic/v1/%2e%2e/models", "/anthropic-upstream/models"],
    ["/openai/v1/models?target=http://evil.com&host=evil.com", "/openai-upstream/v1/models?target=http://evil.com&host=evil.com"],
  ];
  for (const [path, upstreamPath] of forwarded) {
    it(`${path} → ${upstreamPath} on the stand-in`, async () => {
      const id = newTestId("ssrf");
      await expectForwardedTo(await gateway(path, { headers: { "x-test-id": id } }), id, upstreamPath);
    });
  }

  for (const path of ["/anthropic/../evil", "/anthropic/%2e%2e/%2e%2e/x", "/openai/v1/../../x", "/anthropic/.%2E/healthz"]) {
    it(`${path} leaves the prefix after URL normalisation → 404, nothing forwarded`, async () => {
      const id = newTestId("ssrf404");
      const res = await gateway(path, { headers: { "x-test-id": id } });
      expect(res.status).toBe(path.endsWith("/healthz") ? 200 : 404);
      expect(await received(id)).toEqual([]);
    });
  }

  it("an absolute request URL naming another host is still forwarded to the configured upstream", async () => {
    for (const url of ["http://evil.com/anthropic/v1/models", "https://user:pw@evil.com:8443/anthropic/v1/models?x=1"]) {
      const id = newTestId("abs");
      const res = await exports.default.fetch(new Request(url, { headers: { "x-test-id": id } }));
      await expectForwardedTo(res, id, url.endsWith("?x=1") ? "/anthropic-upstream/v1/models?x=1" : "/anthropic-upstream/v1/models");
    }
  });
});

describe("headers cannot choose the upstream", () => {
  it("host, forwarded, x-forwarded-*, rewrite and base-url style headers are ignored", async () => {
    const id = newTestId("ssrf-h");
    const res = await gateway("/openai/v1/chat/completions", {
      method: "POST",
      headers: {
        "x-test-id": id,
        host: "evil.com",
        forwarded: "host=evil.com;proto=https",
        "x-forwarded-host": "evil.com",
        "x-forwarded-proto": "https",
        "x-forwarded-for": "203.0.113.9",
        "x-original-url": "http://evil.com/",
        "x-rewrite-url": "http://evil.com/",
        "x-sluice-upstream": "http://evil.com",
        "x-openai-base-url": "http://evil.com",
        "x-anthropic-base-url": "http://evil.com",
      },
      body: "{}",
    });
    await expectForwardedTo(res, id, "/openai-upstream/v1/chat/completions");
  });
});
