/**
 * Compressed request bodies (src/gateway/request-encoding.ts), in workerd with
 * the real upstream stand-in: for each coding Codex and other clients may send (gzip, deflate,
 * br, zstd) the compaction hook sees the decoded bytes and no `content-encoding`; what the
 * upstream receives is asserted byte for byte with its headers — the client's compressed bytes
 * and header when nothing was edited, the edited body as identity otherwise — and an unknown
 * coding, corrupt data and a decompression bomb fail open with the exact bytes and header.
 * The last block runs the real compaction pipeline on a zstd body.
 */
import { describe, expect, it } from "vitest";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { brotliCompressSync, deflateSync, gzipSync, zstdCompressSync } from "node:zlib";
import type { Env } from "../../src/config/env";
import { readGatewayConfig } from "../../src/config/gateway-config";
import type { CompactionHook, IncomingRequest } from "../../src/gateway/handle-request";
import { MAX_DECODED_BODY_BYTES } from "../../src/gateway/request-encoding";
import { createApp } from "../../src/http/app";
import { bytesOf, newTestId, received, TEST_API_KEY, utf8, type Received } from "./helpers";
import { compactVars, compactionHeader, LITERAL_BODY, LITERAL_CONFIG, literalTwoCalls, manualClock, send, statsOf, upstreamBodies } from "./pipeline-harness";

const RESPONSES = "/openai/v1/responses";
/** A small Responses request (the shape Codex sends, shortened). */
const PLAIN = utf8(JSON.stringify({ model: "gpt-5.1-codex", instructions: "You are Codex.", input: [{ type: "message", role: "user", content: [{ type: "input_text", text: "caf\u00e9 1.0 " + "x".repeat(2000) }] }], stream: true }));
/** What the editing hook forwards instead. */
const EDITED = utf8('{"model":"gpt-5.1-codex","input":[],"stream":true}');

/** Each coding's encoder (the reference zlib, brotli and zstd libraries of node:zlib), as plain Uint8Arrays. */
const ENCODERS: Record<string, (b: Uint8Array) => Uint8Array> = {
  gzip: (b) => new Uint8Array(gzipSync(b)),
  deflate: (b) => new Uint8Array(deflateSync(b)),
  br: (b) => new Uint8Array(brotliCompressSync(b)),
  zstd: (b) => new Uint8Array(zstdCompressSync(b)),
};

/** A hook that records what it was given and answers with `answer(req)` (null: the body it got, unchanged). */
function recordingHook(answer: (req: IncomingRequest) => Uint8Array | null) {
  const seen: { body: Uint8Array; contentEncoding: string | null; contentLength: string | null }[] = [];
  const hook: CompactionHook = async (req) => {
    seen.push({ body: req.body!.slice(), contentEncoding: req.headers.get("content-encoding"), contentLength: req.headers.get("content-length") });
    return { body: answer(req) ?? req.body!, headers: { "x-sluice-compaction": "test-hook" } };
  };
  return { hook, seen };
}

/** Posts `body` with `headers` through an app whose compaction hook is `hook`; returns the response and what the upstream got. */
async function post(hook: CompactionHook | undefined, path: string, headers: Record<string, string>, body: Uint8Array): Promise<{ res: Response; got: Received }> {
  const id = newTestId("enc");
  const app = createApp((e: Env) => ({ config: readGatewayConfig(e), compact: hook }));
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`http://sluice.test${path}`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": TEST_API_KEY, "x-test-id": id, ...headers }, body }), env as unknown as Env, ctx);
  await res.arrayBuffer();
  await waitOnExecutionContext(ctx);
  const recs = await received(id);
  expect(recs).toHaveLength(1);
  return { res, got: recs[0]! };
}

describe("a compressed chat body is decoded for the hook", () => {
  for (const coding of Object.keys(ENCODERS)) {
    const wire = ENCODERS[coding]!(PLAIN);

    it(`${coding}, not edited: the hook sees the decoded JSON; the upstream gets the client's compressed bytes and content-encoding`, async () => {
      const { hook, seen } = recordingHook(() => null);
      const { res, got } = await post(hook, RESPONSES, { "content-encoding": coding }, wire);
      expect(seen).toEqual([{ body: PLAIN, contentEncoding: null, contentLength: null }]);
      expect(res.headers.get("x-sluice-compaction")).toBe("test-hook");
      expect(bytesOf(got)).toEqual(wire);
      expect(got.headers["content-encoding"]).toBe(coding);
      expect(got.headers["content-length"]).toBe(String(wire.length));
    });

    it(`${coding}, edited: the upstream gets the edited bytes as identity, no content-encoding, content-length of the edited bytes`, async () => {
      const { hook, seen } = recordingHook(() => EDITED);
      const { got } = await post(hook, RESPONSES, { "content-encoding": coding }, wire);
      expect(seen.map((s) => s.body)).toEqual([PLAIN]);
      expect(bytesOf(got)).toEqual(EDITED);
      expect(got.headers["content-encoding"]).toBeUndefined();
      expect(got.headers["content-length"]).toBe(String(EDITED.length));
    });
  }

  it("a hook answer equal to the decoded bytes (a copy, not the same array) counts as unedited: the compressed bytes go", async () => {
    const wire = zstdCompressSync(PLAIN);
    const { hook } = recordingHook((req) => req.body!.slice());
    const { got } = await post(hook, RESPONSES, { "content-encoding": "zstd" }, wire);
    expect(bytesOf(got)).toEqual(new Uint8Array(wire));
    expect(got.headers["content-encoding"]).toBe("zstd");
  });

  it("stacked codings (`deflate, br`: deflate applied first) are undone in reverse order", async () => {
    const wire = brotliCompressSync(deflateSync(PLAIN));
    const { hook, seen } = recordingHook(() => EDITED);
    const { got } = await post(hook, RESPONSES, { "content-encoding": "deflate, br" }, wire);
    expect(seen.map((s) => s.body)).toEqual([PLAIN]);
    expect(bytesOf(got)).toEqual(EDITED);
    expect(got.headers["content-encoding"]).toBeUndefined();
  });

  it("a passthrough route is never decoded: count_tokens gets the gzip bytes, the hook is not called", async () => {
    const wire = gzipSync(PLAIN);
    const { hook, seen } = recordingHook(() => EDITED);
    const { got } = await post(hook, "/anthropic/v1/messages/count_tokens", { "content-encoding": "gzip" }, wire);
    expect(seen).toEqual([]);
    expect(bytesOf(got)).toEqual(new Uint8Array(wire));
    expect(got.headers["content-encoding"]).toBe("gzip");
  });

  it("compaction off (no hook): a zstd body goes as it came", async () => {
    const wire = zstdCompressSync(PLAIN);
    const { got } = await post(undefined, RESPONSES, { "content-encoding": "zstd" }, wire);
    expect(bytesOf(got)).toEqual(new Uint8Array(wire));
    expect(got.headers["content-encoding"]).toBe("zstd");
    expect(got.headers["content-length"]).toBe(String(wire.length));
  });
});

describe("fail open: the exact bytes and header go, whatever the hook (given the bytes as they came) answers", () => {
  const cases: { name: string; coding: string; wire: () => Uint8Array; note: string }[] = [
    { name: "an unknown coding (compress)", coding: "compress", wire: () => gzipSync(PLAIN), note: "skipped; reason=content_encoding; coding=compress; cause=unknown_coding" },
    { name: "an unknown coding among known ones (gzip, snappy)", coding: "gzip, snappy", wire: () => gzipSync(PLAIN), note: "skipped; reason=content_encoding; coding=gzip, snappy; cause=unknown_coding" },
    { name: "corrupt data (zstd header, then garbage)", coding: "zstd", wire: () => new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3, 4, 5, 6, 7, 8]), note: "skipped; reason=content_encoding; coding=zstd; cause=decode_error" },
    { name: "a gzip body cut short", coding: "gzip", wire: () => gzipSync(PLAIN).subarray(0, 40), note: "skipped; reason=content_encoding; coding=gzip; cause=decode_error" },
    { name: "a decompression bomb: one byte over MAX_DECODED_BODY_BYTES of zeros, gzip", coding: "gzip", wire: () => gzipSync(new Uint8Array(MAX_DECODED_BODY_BYTES + 1)), note: "skipped; reason=content_encoding; coding=gzip; cause=too_large" },
    { name: "a decompression bomb in zstd", coding: "zstd", wire: () => zstdCompressSync(new Uint8Array(MAX_DECODED_BODY_BYTES + 1)), note: "skipped; reason=content_encoding; coding=zstd; cause=too_large" },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const wire = new Uint8Array(c.wire());
      const { hook, seen } = recordingHook(() => EDITED);
      const { res, got } = await post(hook, RESPONSES, { "content-encoding": c.coding }, wire);
      expect(res.status).toBe(200);
      expect(seen.map((x) => [x.body, x.contentEncoding])).toEqual([[wire, c.coding]]);
      expect(res.headers.get("x-sluice-compaction")).toBe(c.note);
      expect(bytesOf(got)).toEqual(wire);
      expect(got.headers["content-encoding"]).toBe(c.coding);
      expect(got.headers["content-length"]).toBe(String(wire.length));
    });
  }

  it("MAX_DECODED_BODY_BYTES is 32 MiB, and a body of exactly that size is still decoded", async () => {
    expect(MAX_DECODED_BODY_BYTES).toBe(33_554_432);
    const wire = gzipSync(new Uint8Array(MAX_DECODED_BODY_BYTES));
    const lengths: number[] = [];
    const hook: CompactionHook = async (req) => { lengths.push(req.body!.length); return { body: req.body! }; };
    const { got } = await post(hook, RESPONSES, { "content-encoding": "gzip" }, wire);
    expect(lengths).toEqual([MAX_DECODED_BODY_BYTES]);
    expect(bytesOf(got)).toEqual(new Uint8Array(wire));
  });
});

describe("the real pipeline on zstd bodies", () => {
  it("the second call's edit is the one made for the same plain body; the unedited first call goes compressed", async () => {
    const vars = compactVars(LITERAL_CONFIG);
    const control = await literalTwoCalls(vars);
    expect(control.header.mode).toBe("compact");

    const session = newTestId("literal-zstd");
    const wire = new Uint8Array(zstdCompressSync(LITERAL_BODY));
    const clock = manualClock();
    const headers = { "x-test-id": session, "x-sluice-session": session, "content-encoding": "zstd" };
    await send(vars, "/anthropic/v1/messages", headers, wire, { now: clock.now });
    clock.advance(400_000);
    const second = await send(vars, "/anthropic/v1/messages", headers, wire, { now: clock.now });

    expect(compactionHeader(second.res)).toEqual(control.header);
    const [first, edited] = await upstreamBodies(session);
    const recs = await received(session);
    expect(first).toEqual(wire);
    expect(recs[0]!.headers["content-encoding"]).toBe("zstd");
    expect(edited).toEqual(control.forwarded);
    expect(recs[1]!.headers["content-encoding"]).toBeUndefined();
    expect(recs[1]!.headers["content-length"]).toBe(String(control.forwarded.length));
  });

  it("a zstd bomb through the real pipeline: the bytes go as they came, the session counts a parse fail-open", async () => {
    const session = newTestId("bomb-zstd");
    const wire = new Uint8Array(zstdCompressSync(new Uint8Array(MAX_DECODED_BODY_BYTES + 1)));
    const { res } = await send(compactVars(LITERAL_CONFIG), "/anthropic/v1/messages", { "x-test-id": session, "x-sluice-session": session, "content-encoding": "zstd" }, wire);
    expect(res.headers.get("x-sluice-compaction")).toBe("skipped; reason=content_encoding; coding=zstd; cause=too_large");
    expect(await upstreamBodies(session)).toEqual([wire]);
    expect((await received(session))[0]!.headers["content-encoding"]).toBe("zstd");
    expect((await statsOf(session)).counters).toEqual({ fail_open_parse: 1 });
  });
});
