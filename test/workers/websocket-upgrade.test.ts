/**
 * WebSocket upgrades on the chat routes (issue 26 item 5, src/http/websocket-upgrade.ts): Codex
 * CLI opens its Responses stream with `GET /v1/responses` + `Upgrade: websocket` first, and
 * falls back to HTTP at once only on a 426 answer. Each chat route answers such a handshake
 * 426 in the provider's error shape without contacting the upstream; a plain GET on the same
 * path is still proxied as before.
 */
import { describe, expect, it } from "vitest";
import { gateway, newTestId, received } from "./helpers";

/** The handshake headers a WebSocket client sends (RFC 6455 §4.1; the key is the RFC's sample nonce). */
const HANDSHAKE = { upgrade: "websocket", connection: "Upgrade", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==", "sec-websocket-version": "13" };

const OPENAI_426 = (path: string) => ({
  error: { message: `Sluice does not relay WebSockets on ${path}; send the request over HTTP (POST)`, type: "invalid_request_error", param: null, code: "websocket_unsupported" },
});

describe("a WebSocket upgrade on a chat route gets 426 at once", () => {
  for (const path of ["/openai/v1/responses", "/openai/v1/chat/completions"]) {
    it(`${path}: 426, OpenAI error JSON, nothing sent upstream`, async () => {
      const id = newTestId("ws");
      const res = await gateway(path, { method: "GET", headers: { ...HANDSHAKE, authorization: "Bearer sk-test", "openai-beta": "responses_websockets=2026-02-06", "x-test-id": id } });
      expect(res.status).toBe(426);
      expect(res.headers.get("content-type")).toBe("application/json");
      expect(res.headers.get("x-sluice-request-id")).toMatch(/\S/);
      expect(await res.json()).toEqual(OPENAI_426(path));
      expect(await received(id)).toEqual([]);
    });
  }

  it("/anthropic/v1/messages: 426 in Anthropic's error shape with Sluice's request id", async () => {
    const id = newTestId("ws");
    const res = await gateway("/anthropic/v1/messages", { method: "GET", headers: { ...HANDSHAKE, "x-test-id": id } });
    expect(res.status).toBe(426);
    const requestId = res.headers.get("x-sluice-request-id");
    expect(await res.json()).toEqual({
      type: "error",
      error: { type: "invalid_request_error", message: "Sluice does not relay WebSockets on /anthropic/v1/messages; send the request over HTTP (POST)" },
      request_id: requestId,
    });
    expect(await received(id)).toEqual([]);
  });

  it("the upgrade token is matched case-insensitively and within a list (`Upgrade: foo, WebSocket`)", async () => {
    const id = newTestId("ws");
    const res = await gateway("/openai/v1/responses", { method: "GET", headers: { ...HANDSHAKE, upgrade: "foo, WebSocket", "x-test-id": id } });
    expect(res.status).toBe(426);
    expect(await received(id)).toEqual([]);
  });

  it("a plain GET on /openai/v1/responses (no upgrade) is still proxied", async () => {
    const id = newTestId("ws");
    const res = await gateway("/openai/v1/responses", { method: "GET", headers: { "x-test-id": id } });
    expect(res.status).toBe(200);
    const got = await received(id);
    expect(got.map((r) => [r.method, r.path])).toEqual([["GET", "/openai-upstream/v1/responses"]]);
  });
});
