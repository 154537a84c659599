/**
 * The usage tap (src/usage/tap-usage.ts) over a scripted upstream body. F02 (docs/reliability.md,
 * client-abort fault row): a client cancel must cancel the upstream body — with the former
 * `tee()` the parsing branch read the whole answer after the client left — and nothing is read
 * ahead of the client.
 */
import { describe, expect, it } from "vitest";
import { MAX_JSON_USAGE_BYTES, USAGE_READ_TIMEOUT_MS, readTextUpTo, tapUsage } from "../../src/usage/tap-usage";

const enc = (s: string) => new TextEncoder().encode(s);
const EVENTS = [
  'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":12,"cache_read_input_tokens":100,"cache_creation_input_tokens":0,"output_tokens":1}}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"type":"text_delta","text":"hi"}}\n\n',
  'event: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":7}}\n\n',
];

/** An upstream body that hands out EVENTS one per pull and records pulls and cancellation. */
function upstream(contentType = "text/event-stream") {
  const log = { pulls: 0, cancelled: null as unknown };
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      if (log.pulls < EVENTS.length) c.enqueue(enc(EVENTS[log.pulls]!));
      else c.close();
      log.pulls++;
    },
    cancel(reason) { log.cancelled = reason; },
  }, { highWaterMark: 0 });
  return { res: new Response(body, { status: 200, headers: { "content-type": contentType } }), log };
}

describe("tapUsage", () => {
  it("passes every byte through and reports the SSE usage at the end", async () => {
    const { res, log } = upstream();
    const tapped = tapUsage(res, "anthropic");
    expect(await tapped.response.text()).toBe(EVENTS.join(""));
    expect(await tapped.usage).toEqual({ input_tokens: 12, cache_read_input_tokens: 100, cache_creation_input_tokens: 0, output_tokens: 7 });
    expect(log.cancelled).toBe(null);
  });

  it("F02: a client cancel after the first chunk cancels the upstream body; usage null; no read-ahead", async () => {
    const { res, log } = upstream();
    const tapped = tapUsage(res, "anthropic");
    const reader = tapped.response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe(EVENTS[0]);
    expect(log.pulls).toBe(1);
    await reader.cancel("client went away");
    expect(log.cancelled).toBe("client went away");
    expect(log.pulls).toBe(1);
    expect(await tapped.usage).toBe(null);
  });

  it("an upstream error reaches the client as the same error; usage null", async () => {
    const boom = new Error("Network connection lost.");
    const body = new ReadableStream<Uint8Array>({ start(c) { c.enqueue(enc(EVENTS[0]!)); }, pull(c) { c.error(boom); } });
    const tapped = tapUsage(new Response(body, { headers: { "content-type": "text/event-stream" } }), "anthropic");
    const reader = tapped.response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(EVENTS[0]);
    await expect(reader.read()).rejects.toBe(boom);
    expect(await tapped.usage).toBe(null);
  });

  it("a JSON answer of declared length goes to the client as the same response (no pump); usage from a clone", async () => {
    const json = '{"id":"msg_1","type":"message","content":[{"type":"text","text":"hé"}],"usage":{"input_tokens":5,"cache_read_input_tokens":900,"cache_creation_input_tokens":30,"output_tokens":4}}';
    const res = new Response(json, { status: 200, headers: { "content-type": "application/json", "content-length": String(enc(json).length) } });
    const tapped = tapUsage(res, "anthropic");
    expect(tapped.response).toBe(res);
    expect(await tapped.response.text()).toBe(json);
    expect(await tapped.usage).toEqual({ input_tokens: 5, cache_read_input_tokens: 900, cache_creation_input_tokens: 30, output_tokens: 4 });
  });

  it("a JSON answer without a declared length (chunked, or decoded from gzip) also goes to the client as the same response; usage from a bounded clone read", async () => {
    const json = '{"usage":{"prompt_tokens":50,"completion_tokens":2,"prompt_tokens_details":{"cached_tokens":40}}}';
    const body = new ReadableStream<Uint8Array>({ start(c) { c.enqueue(enc(json.slice(0, 20))); c.enqueue(enc(json.slice(20))); c.close(); } });
    const res = new Response(body, { status: 200, headers: { "content-type": "application/json" } });
    const tapped = tapUsage(res, "openai-chat");
    expect(tapped.response).toBe(res);
    expect(await tapped.response.text()).toBe(json);
    expect(await tapped.usage).toEqual({ input_tokens: 10, cache_read_input_tokens: 40, cache_creation_input_tokens: 0, output_tokens: 2 });
  });

  it("a JSON answer over MAX_JSON_USAGE_BYTES: every byte to the client, usage null (declared or not)", async () => {
    const big = `{"usage":{"input_tokens":1},"pad":"${"x".repeat(MAX_JSON_USAGE_BYTES)}"}`;
    const declared = new Response(big, { status: 200, headers: { "content-type": "application/json", "content-length": String(big.length) } });
    const a = tapUsage(declared, "anthropic");
    expect(a.response).toBe(declared);
    expect((await a.response.text()).length).toBe(big.length);
    expect(await a.usage).toBe(null);
    const chunked = new Response(new ReadableStream<Uint8Array>({ start(c) { c.enqueue(enc(big.slice(0, 1000))); c.enqueue(enc(big.slice(1000))); c.close(); } }), { status: 200, headers: { "content-type": "application/json" } });
    const b = tapUsage(chunked, "anthropic");
    expect(b.response).toBe(chunked);
    expect((await b.response.text()).length).toBe(big.length);
    expect(await b.usage).toBe(null);
  });

  it("application/json with parameters, and +json types, any case, take the clone; the bound and deadline are 8 MiB and 10 s", async () => {
    const json = '{"usage":{"input_tokens":3,"output_tokens":1}}';
    for (const type of ["application/json; charset=utf-8", "Application/JSON", "application/vnd.api+json"]) {
      const res = new Response(json, { status: 200, headers: { "content-type": type } });
      const tapped = tapUsage(res, "anthropic");
      expect(tapped.response).toBe(res);
      expect(await tapped.response.text()).toBe(json);
      expect(await tapped.usage).toEqual({ input_tokens: 3, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 1 });
    }
    expect([MAX_JSON_USAGE_BYTES, USAGE_READ_TIMEOUT_MS]).toEqual([8_388_608, 10_000]);
  });

  it("F02 for streams not labelled SSE: an uppercase Text/Event-Stream, a missing content-type and application/x-ndjson are pumped, and a client cancel cancels the upstream", async () => {
    for (const type of ["Text/Event-Stream", null, "application/x-ndjson"]) {
      const { res, log } = upstream("text/event-stream");
      if (type === null) res.headers.delete("content-type");
      else res.headers.set("content-type", type);
      const tapped = tapUsage(res, "anthropic");
      expect(tapped.response).not.toBe(res);
      const reader = tapped.response.body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toBe(EVENTS[0]);
      await reader.cancel("client went away");
      expect([log.pulls, log.cancelled]).toEqual([1, "client went away"]);
      expect(await tapped.usage).toBe(null);
    }
  });

  it("an uppercase SSE type is parsed as SSE; a JSON body without a content-type is pumped and its usage still read", async () => {
    const sse = upstream("TEXT/EVENT-STREAM");
    const a = tapUsage(sse.res, "anthropic");
    expect(await a.response.text()).toBe(EVENTS.join(""));
    expect(await a.usage).toEqual({ input_tokens: 12, cache_read_input_tokens: 100, cache_creation_input_tokens: 0, output_tokens: 7 });
    const json = '{"usage":{"prompt_tokens":50,"completion_tokens":2,"prompt_tokens_details":{"cached_tokens":40}}}';
    const bare = new Response(new ReadableStream<Uint8Array>({ start(c) { c.enqueue(enc(json)); c.close(); } }), { status: 200 });
    bare.headers.delete("content-type");
    const b = tapUsage(bare, "openai-chat");
    expect(b.response).not.toBe(bare);
    expect(await b.response.text()).toBe(json);
    expect(await b.usage).toEqual({ input_tokens: 10, cache_read_input_tokens: 40, cache_creation_input_tokens: 0, output_tokens: 2 });
  });

  it("error statuses are returned untouched, without a tap", async () => {
    const res = new Response('{"type":"error"}', { status: 429 });
    const tapped = tapUsage(res, "anthropic");
    expect(tapped.response).toBe(res);
    expect(await tapped.usage).toBe(null);
  });
});

describe("readTextUpTo", () => {
  /** A body of `chunks`, recording whether it was cancelled. */
  const chunked = (chunks: Uint8Array[]) => {
    const log = { cancelled: false, pulls: 0 };
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        if (log.pulls < chunks.length) c.enqueue(chunks[log.pulls]!);
        else c.close();
        log.pulls++;
      },
      cancel() { log.cancelled = true; },
    }, { highWaterMark: 0 });
    return { body, log };
  };

  it("decodes UTF-8 split between chunks (0xC3 | 0xA9 = 'é') when the body ends exactly at the bound", async () => {
    const { body, log } = chunked([new Uint8Array([0x68, 0xc3]), new Uint8Array([0xa9, 0x21])]);
    expect(await readTextUpTo(body, 4)).toBe("hé!");
    expect(log.cancelled).toBe(false);
  });

  it("a body that stalls past the deadline: null, and the read is cancelled", async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({ start(c) { c.enqueue(enc('{"usage":')); }, cancel() { cancelled = true; } });
    const t0 = performance.now();
    expect(await readTextUpTo(body, 1_000, 50)).toBe(null);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(45);
    expect(cancelled).toBe(true);
  });

  it("one byte over the bound: null, and the rest is not read (cancelled after the chunk that passed it)", async () => {
    const { body, log } = chunked([enc("abc"), enc("de"), enc("fgh")]);
    expect(await readTextUpTo(body, 4)).toBe(null);
    expect(log.cancelled).toBe(true);
    expect(log.pulls).toBe(2);
  });
});
