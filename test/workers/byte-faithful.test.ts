/**
 * Byte-faithful forwarding (case B12): the upstream receives exactly the client's body
 * bytes, identical client requests give identical forwarded bytes, and the forwarded
 * content-length is always the byte length actually sent (also for a chunked client upload and
 * for a body the compaction hook rewrote). The hook's fail-open path (B18's compaction-throws
 * variant) forwards the original bytes on every attempt.
 */
import { describe, expect, it } from "vitest";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { Env } from "../../src/config/env";
import { readGatewayConfig } from "../../src/config/gateway-config";
import { createApp } from "../../src/http/app";
import type { CompactionHook } from "../../src/gateway/handle-request";
import { TEST_API_KEY, bytesOf, gateway, newTestId, received, sha256Hex, utf8 } from "./helpers";

/** test/fixtures/cases/B12.json `raw_body` (\u003c, \u0026, \u00e9 escapes, 1.0, 0.10, 1e3, key order). */
const B12_RAW =
  '{"model":"gpt-4o-mini","temperature":1.0,"messages":[{"role":"system","content":"Wrap names in \\u003cb\\u003e tags \\u0026 keep caf\\u00e9 spelled with the accent."},{"role":"user","content":"Hi"}],"tools":[{"type":"function","function":{"name":"price","parameters":{"type":"object","required":["amount"],"properties":{"amount":{"type":"number","multipleOf":0.10,"maximum":1e3}}}}}]}';
/** test/fixtures/cases/B12.json `raw_body_sha256`. */
const B12_SHA256 = "3ee8ad3c3942ea775a81b815710b29b6812d3439476f6fd24a930046a06008c9";

/** A body JSON.parse + stringify would change: 1.0, 1e3, a \u00e9 escape, 2^60 and odd key order. */
const ODD_BODY =
  '{"z":1,"messages":[{"role":"user","content":"caf\\u00e9 1.0"}],"a":1.0,"b":1e3,"big":1152921504606846976,"model":"claude-sonnet-4-5","max_tokens":16}';

async function postAndRecord(path: string, body: BodyInit, extra: Record<string, string> = {}) {
  const id = newTestId("bytes");
  const res = await gateway(path, { method: "POST", headers: { "content-type": "application/json", "x-test-id": id, ...extra }, body });
  expect(res.status).toBe(200);
  const recs = await received(id);
  expect(recs).toHaveLength(1);
  return recs[0]!;
}

describe("B12: the upstream receives the client's exact bytes", () => {
  it("B12 raw body: sha256 and content-length as in the case file", async () => {
    expect(await sha256Hex(utf8(B12_RAW))).toBe(B12_SHA256);
    const rec = await postAndRecord("/openai/v1/chat/completions", B12_RAW, { authorization: "Bearer k" });
    expect(await sha256Hex(bytesOf(rec))).toBe(B12_SHA256);
    expect(rec.headers["content-length"]).toBe(String(utf8(B12_RAW).length));
  });

  for (const path of ["/anthropic/v1/messages", "/openai/v1/chat/completions", "/openai/v1/responses", "/anthropic/v1/messages/count_tokens"]) {
    it(`${path}: 1.0, 1e3, \\u00e9, 2^60 and key order survive byte for byte`, async () => {
      const rec = await postAndRecord(path, ODD_BODY);
      expect(new TextDecoder().decode(bytesOf(rec))).toBe(ODD_BODY);
      expect(rec.headers["content-length"]).toBe(String(utf8(ODD_BODY).length));
    });
  }

  it("identical client requests produce identical forwarded bytes", async () => {
    const a = await postAndRecord("/openai/v1/chat/completions", B12_RAW);
    const b = await postAndRecord("/openai/v1/chat/completions", B12_RAW);
    expect(bytesOf(a)).toEqual(bytesOf(b));
    expect(await sha256Hex(bytesOf(a))).toBe(B12_SHA256);
  });

  it("invalid JSON and non-UTF-8 bytes are forwarded unchanged too", async () => {
    const bytes = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0xff, 0xfe, 0xc3, 0x0a]);
    const rec = await postAndRecord("/anthropic/v1/messages", bytes);
    expect(bytesOf(rec)).toEqual(bytes);
  });

  it("a chunked client upload (no content-length) goes upstream with content-length = its byte length", async () => {
    const parts = [utf8(B12_RAW.slice(0, 50)), utf8(B12_RAW.slice(50))];
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (const p of parts) c.enqueue(p);
        c.close();
      },
    });
    const rec = await postAndRecord("/openai/v1/chat/completions", stream);
    expect(await sha256Hex(bytesOf(rec))).toBe(B12_SHA256);
    expect(rec.headers["content-length"]).toBe(String(utf8(B12_RAW).length));
    expect(rec.headers["transfer-encoding"]).toBeUndefined();
  });

  it("a wrong client content-length is never copied: the upstream gets the real length", async () => {
    const rec = await postAndRecord("/anthropic/v1/messages", ODD_BODY, { "content-length": "3" });
    expect(rec.headers["content-length"]).toBe(String(utf8(ODD_BODY).length));
    expect(new TextDecoder().decode(bytesOf(rec))).toBe(ODD_BODY);
  });
});

/** The real app with a compaction hook, called in workerd with the test env; upstream fetch is real. */
async function viaHook(hook: CompactionHook, path: string, headers: Record<string, string>, body: string): Promise<Response> {
  const app = createApp((e: Env) => ({ config: readGatewayConfig(e), compact: hook }));
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`http://sluice.test${path}`, { method: "POST", headers, body }), env as unknown as Env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

describe("compaction hook boundary", () => {
  it("B12: a rewritten body goes with content-length = its own length, not the client's", async () => {
    const id = newTestId("hook");
    const edited = utf8('{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Hi"}]}');
    const res = await viaHook(async () => ({ body: edited, headers: { "x-sluice-compaction": "micro" } }), "/openai/v1/chat/completions", { "x-test-id": id, authorization: `Bearer ${TEST_API_KEY}` }, B12_RAW);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-sluice-compaction")).toBe("micro");
    const [rec] = await received(id);
    expect(bytesOf(rec!)).toEqual(edited);
    expect(rec!.headers["content-length"]).toBe(String(edited.length));
  });

  it("B18: the hook throws, the first attempt is reset → both attempts carry the original bytes", async () => {
    const id = newTestId("hook18");
    const res = await viaHook(
      async (req) => {
        // A hook that reads the bytes it was given, then fails: the handler must still hold them.
        expect(req.body).not.toBeNull();
        throw new Error("engine exploded");
      },
      "/openai/v1/chat/completions",
      { "x-test-id": id, "x-test-scenario": "fail-first:reset", authorization: `Bearer ${TEST_API_KEY}` },
      B12_RAW,
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as { attempt: number }).attempt).toBe(2);
    expect(res.headers.get("x-sluice-compaction")).toBeNull();
    const recs = await received(id);
    expect(recs).toHaveLength(2);
    for (const r of recs) expect(await sha256Hex(bytesOf(r))).toBe(B12_SHA256);
  });

  it("passthrough routes never reach the hook", async () => {
    let calls = 0;
    const res = await viaHook(async (req) => ({ body: (calls++, req.body!) }), "/anthropic/v1/messages/count_tokens", { "x-test-id": newTestId("nohook") }, "{}");
    expect(res.status).toBe(200);
    expect(calls).toBe(0);
  });
});
