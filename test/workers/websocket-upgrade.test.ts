/**
 * WebSocket upgrades on the chat routes (src/http/websocket-upgrade.ts): Codex
 * CLI opens its Responses stream with `GET /v1/responses` + `Upgrade: websocket` first, and
 * falls back to HTTP at once only on a 426 answer. Each chat route answers such a handshake
 * 426 in the provider's error shape without contacting the upstream; a plain GET on the same
 * path is still proxied as before. On other paths (OpenAI's Realtime API) the upgrade is relayed
 * to the upstream stand-in's WebSocket echo (test/support/websocket-echo.ts): messages come back
 * with the same bytes and type, and the handshake goes through the header policy.
 */
import { describe, expect, it } from "vitest";
import { STATUS_BODY } from "../support/scenarios";
import { gateway, gatewayWithEnv, newTestId, received, testVars } from "./helpers";

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

/** The next `n` messages `ws` receives. */
function nextMessages(ws: WebSocket, n: number): Promise<(string | ArrayBuffer | Blob)[]> {
  const got: (string | ArrayBuffer | Blob)[] = [];
  return new Promise((resolve, reject) => {
    ws.addEventListener("message", (e) => { got.push(e.data as string | ArrayBuffer | Blob); if (got.length === n) resolve(got); });
    ws.addEventListener("close", () => reject(new Error(`closed after ${got.length} messages`)));
  });
}

describe("a WebSocket upgrade on another path is relayed", () => {
  it("/openai/v1/realtime: 101, text and binary messages echoed with the same bytes, the handshake went through the header policy", async () => {
    const id = newTestId("ws-relay");
    const res = await gateway("/openai/v1/realtime?model=gpt-realtime", {
      headers: { ...HANDSHAKE, authorization: "Bearer sk-test", "openai-beta": "realtime=v1", "sec-websocket-protocol": "realtime, openai-beta.realtime-v1", "x-sluice-admin-token": testVars.SLUICE_ADMIN_TOKEN, "x-test-id": id },
    });
    expect(res.status).toBe(101);
    expect(res.headers.get("sec-websocket-protocol")).toBe("realtime");
    const ws = res.webSocket!;
    ws.accept();
    const text = JSON.stringify({ type: "session.update", session: { instructions: "caf\u00e9 \u00e9" } });
    const binary = new Uint8Array([0, 255, 0xc3, 0xa9, 10, 13]);
    const answers = nextMessages(ws, 2);
    ws.send(text);
    ws.send(binary);
    const [a, b] = await answers;
    expect(a).toBe(text);
    // A binary message arrives as a Blob here (the test runner's socket), as an ArrayBuffer elsewhere.
    expect(new Uint8Array(b instanceof Blob ? await b.arrayBuffer() : (b as ArrayBuffer))).toEqual(binary);
    ws.close(1000, "done");

    const got = await received(id);
    expect(got).toHaveLength(1);
    expect(got[0]!.method).toBe("GET");
    expect(got[0]!.path).toBe("/openai-upstream/v1/realtime?model=gpt-realtime");
    expect(got[0]!.headers.authorization).toBe("Bearer sk-test");
    expect(got[0]!.headers["openai-beta"]).toBe("realtime=v1");
    expect(got[0]!.headers["sec-websocket-protocol"]).toBe("realtime, openai-beta.realtime-v1");
    expect(got[0]!.headers.upgrade?.toLowerCase()).toBe("websocket");
    expect(got[0]!.headers["x-sluice-admin-token"]).toBeUndefined();
  });

  it("an upstream that refuses the upgrade: its answer is relayed as a response (the stand-in's 403 with its JSON body)", async () => {
    const id = newTestId("ws-relay");
    const res = await gateway("/openai/v1/realtime", { headers: { ...HANDSHAKE, "x-test-id": id, "x-test-scenario": "status:403" } });
    expect(res.status).toBe(403);
    expect(res.webSocket).toBeNull();
    expect(await res.text()).toBe(STATUS_BODY(403));
    expect(await received(id)).toHaveLength(1);
  });

  it("an upstream where nothing listens: 502 in the provider's shape", async () => {
    const res = await gatewayWithEnv({ OPENAI_BASE_URL: testVars.UNREACHABLE_URL }, "/openai/v1/realtime", { headers: HANDSHAKE });
    expect(res.status).toBe(502);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("upstream_unreachable");
  });
});
