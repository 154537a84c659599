/**
 * Routes: the three chat routes, every other path and method under /anthropic/* and
 * /openai/* proxied as is with its query string, Claude Code's two paths with anthropic-beta and
 * anthropic-version, 404 elsewhere. Every response carries x-sluice-request-id.
 */
import { describe, expect, it } from "vitest";
import { bytesOf, gateway, newTestId, received, utf8 } from "./helpers";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("chat routes", () => {
  const cases = [
    { path: "/anthropic/v1/messages", upstream: "/anthropic-upstream/v1/messages", body: '{"model":"claude-sonnet-4-5","max_tokens":8,"messages":[]}' },
    { path: "/openai/v1/chat/completions", upstream: "/openai-upstream/v1/chat/completions", body: '{"model":"gpt-4o-mini","messages":[]}' },
    { path: "/openai/v1/responses", upstream: "/openai-upstream/v1/responses", body: '{"model":"gpt-5","input":"hi"}' },
  ];
  for (const c of cases) {
    it(`POST ${c.path} reaches ${c.upstream} with the same bytes`, async () => {
      const id = newTestId("chat");
      const res = await gateway(c.path, { method: "POST", headers: { "content-type": "application/json", "x-test-id": id }, body: c.body });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-sluice-request-id")).toMatch(UUID);
      expect(await res.json()).toEqual({ ok: true, method: "POST", path: c.upstream, bytes: utf8(c.body).length, attempt: 1 });
      const recs = await received(id);
      expect(recs.map((r) => [r.method, r.path, new TextDecoder().decode(bytesOf(r))])).toEqual([["POST", c.upstream, c.body]]);
    });
  }
});

describe("Claude Code through ANTHROPIC_BASE_URL=http://127.0.0.1:8787/anthropic", () => {
  for (const path of ["/v1/messages", "/v1/messages/count_tokens"]) {
    it(`POST ${path}?beta=true forwards anthropic-beta and anthropic-version`, async () => {
      const id = newTestId("cc");
      const body = '{"model":"claude-opus-4-1","messages":[{"role":"user","content":"hi"}]}';
      const res = await gateway(`/anthropic${path}?beta=true`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "anthropic-version": "2023-06-01",
          "anthropic-beta": "claude-code-20250219,interleaved-thinking-2025-05-14",
          "x-api-key": "sk-ant-test",
          "x-claude-code-session-id": "0b9c7f1e-session",
          "x-test-id": id,
        },
        body,
      });
      expect(res.status).toBe(200);
      const [rec] = await received(id);
      expect(rec!.path).toBe(`/anthropic-upstream${path}?beta=true`);
      expect(rec!.headers["anthropic-version"]).toBe("2023-06-01");
      expect(rec!.headers["anthropic-beta"]).toBe("claude-code-20250219,interleaved-thinking-2025-05-14");
      expect(rec!.headers["x-api-key"]).toBe("sk-ant-test");
      expect(rec!.headers["x-claude-code-session-id"]).toBe("0b9c7f1e-session");
      expect(new TextDecoder().decode(bytesOf(rec!))).toBe(body);
    });
  }
});

describe("any other path and method is proxied as is", () => {
  const cases: Array<{ method: string; path: string; upstream: string; body?: string }> = [
    { method: "GET", path: "/anthropic/v1/models?limit=2&after_id=a%2Fb", upstream: "/anthropic-upstream/v1/models?limit=2&after_id=a%2Fb" },
    { method: "GET", path: "/openai/v1/models", upstream: "/openai-upstream/v1/models" },
    { method: "DELETE", path: "/openai/v1/files/file-abc?x=1&x=2", upstream: "/openai-upstream/v1/files/file-abc?x=1&x=2" },
    { method: "POST", path: "/anthropic/v1/messages/batches", upstream: "/anthropic-upstream/v1/messages/batches", body: '{"requests":[]}' },
    { method: "PUT", path: "/openai/v1/some/thing?q=%E2%9C%93", upstream: "/openai-upstream/v1/some/thing?q=%E2%9C%93", body: "raw \u00e9 text" },
    { method: "PATCH", path: "/anthropic/v1/unknown/endpoint", upstream: "/anthropic-upstream/v1/unknown/endpoint", body: "{}" },
    { method: "OPTIONS", path: "/openai/v1/chat/completions", upstream: "/openai-upstream/v1/chat/completions" },
    { method: "GET", path: "/openai/v1/chat/completions?limit=1", upstream: "/openai-upstream/v1/chat/completions?limit=1" },
  ];
  for (const c of cases) {
    it(`${c.method} ${c.path}`, async () => {
      const id = newTestId("any");
      const res = await gateway(c.path, { method: c.method, headers: { "x-test-id": id }, body: c.body });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true, method: c.method, path: c.upstream, bytes: c.body === undefined ? 0 : utf8(c.body).length, attempt: 1 });
      const recs = await received(id);
      expect(recs.map((r) => [r.method, r.path, new TextDecoder().decode(bytesOf(r))])).toEqual([[c.method, c.upstream, c.body ?? ""]]);
      // content-length is the byte length actually sent. workerd's fetch itself sends
      // "content-length: 0" for a body-less non-GET request (measured: also for a direct fetch).
      const expected = c.body !== undefined ? String(utf8(c.body).length) : c.method === "GET" ? undefined : "0";
      expect(recs[0]!.headers["content-length"]).toBe(expected);
    });
  }

  it("HEAD is forwarded as HEAD and answered without a body", async () => {
    const id = newTestId("head");
    const res = await gateway("/anthropic/v1/models", { method: "HEAD", headers: { "x-test-id": id } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-sluice-request-id")).toMatch(UUID);
    expect(await res.text()).toBe("");
    expect((await received(id)).map((r) => [r.method, r.path])).toEqual([["HEAD", "/anthropic-upstream/v1/models"]]);
  });
});

describe("404 outside the prefixes", () => {
  for (const path of ["/", "/v1/messages", "/anthropicx/v1/messages", "/adminx", "/healthz/x"]) {
    it(`${path} → 404 with a request id, nothing forwarded`, async () => {
      const id = newTestId("nf");
      const res = await gateway(path, { method: "POST", headers: { "x-test-id": id }, body: "{}" });
      expect(res.status).toBe(404);
      const rid = res.headers.get("x-sluice-request-id");
      expect(rid).toMatch(UUID);
      expect(await res.json()).toEqual({ type: "error", error: { type: "not_found_error", message: `No Sluice route for ${path}` }, request_id: rid });
      expect(await received(id)).toEqual([]);
    });
  }

});
