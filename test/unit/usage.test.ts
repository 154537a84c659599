import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SseParser } from "../../src/usage/parse-sse";
import { usageFromEvents, usageFromJson } from "../../src/usage/extract-usage";

const enc = (s: string) => new TextEncoder().encode(s);

describe("SseParser", () => {
  it("parses events split mid-line and mid-UTF-8 character (B10)", () => {
    const whole = enc('event: a\ndata: {"t":"caf\u00e9"}\n\nevent: b\r\ndata: x\r\ndata: y\r\n\r\n: comment\n\ndata: last');
    const cutE = whole.indexOf(0xa9); // second byte of é
    const p = new SseParser();
    const events = [...p.push(whole.subarray(0, 12)), ...p.push(whole.subarray(12, cutE)), ...p.push(whole.subarray(cutE)), ...p.end()];
    expect(events).toEqual([
      { event: "a", data: '{"t":"café"}' },
      { event: "b", data: "x\ny" },
      { event: "message", data: "last" },
    ]);
  });
  it("the same events however the stream is cut, for LF, CRLF and CR line ends alike", () => {
    const text = 'event: message_start\r\ndata: {"a":1}\r\n\r\nevent: ping\rdata: x\r\rdata: é1\ndata: é2\n\n: c\n\nevent: last\ndata: end\n\n';
    const expected = [
      { event: "message_start", data: '{"a":1}' },
      { event: "ping", data: "x" },
      { event: "message", data: "é1\né2" },
      { event: "last", data: "end" },
    ];
    const bytes = enc(text);
    fc.assert(fc.property(fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 12 }), (cuts) => {
      const at = [0, ...[...cuts].sort((a, b) => a - b), bytes.length];
      const p = new SseParser();
      const events = at.slice(1).flatMap((end, i) => p.push(bytes.subarray(at[i], end)));
      expect([...events, ...p.end()]).toEqual(expected);
    }), { seed: 20261201, numRuns: 300 });
  });
  it("holds a trailing CR until it knows whether LF follows", () => {
    const p = new SseParser();
    expect(p.push(enc("data: 1\r"))).toEqual([]);
    expect(p.push(enc("\n\r\n"))).toEqual([{ event: "message", data: "1" }]);
  });
});

describe("usage extraction", () => {
  it("Anthropic JSON and stream", () => {
    expect(usageFromJson("anthropic", '{"usage":{"input_tokens":12,"cache_creation_input_tokens":100,"cache_read_input_tokens":2000,"output_tokens":7}}')).toEqual({
      input_tokens: 12, cache_read_input_tokens: 2000, cache_creation_input_tokens: 100, output_tokens: 7,
    });
    const events = [
      { event: "message_start", data: '{"type":"message_start","message":{"usage":{"input_tokens":5,"cache_creation_input_tokens":0,"cache_read_input_tokens":900,"output_tokens":1}}}' },
      { event: "content_block_delta", data: '{"type":"content_block_delta"}' },
      { event: "message_delta", data: '{"type":"message_delta","usage":{"output_tokens":42}}' },
    ];
    expect(usageFromEvents("anthropic", events, null)).toEqual({ input_tokens: 5, cache_read_input_tokens: 900, cache_creation_input_tokens: 0, output_tokens: 42 });
  });
  it("OpenAI Chat: cached tokens are subtracted from prompt_tokens", () => {
    expect(usageFromJson("openai-chat", '{"usage":{"prompt_tokens":3000,"completion_tokens":20,"prompt_tokens_details":{"cached_tokens":2048}}}')).toEqual({
      input_tokens: 952, cache_read_input_tokens: 2048, cache_creation_input_tokens: 0, output_tokens: 20,
    });
    const events = [
      { event: "message", data: '{"choices":[{"delta":{"content":"hi"}}],"usage":null}' },
      { event: "message", data: '{"choices":[],"usage":{"prompt_tokens":10,"completion_tokens":2}}' },
      { event: "message", data: "[DONE]" },
    ];
    expect(usageFromEvents("openai-chat", events, null)).toEqual({ input_tokens: 10, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 2 });
  });
  it("OpenAI Responses: response.completed", () => {
    const events = [
      { event: "response.created", data: '{"type":"response.created","response":{"usage":null}}' },
      { event: "response.completed", data: '{"type":"response.completed","response":{"usage":{"input_tokens":1500,"input_tokens_details":{"cached_tokens":1280},"output_tokens":33}}}' },
    ];
    expect(usageFromEvents("openai-responses", events, null)).toEqual({ input_tokens: 220, cache_read_input_tokens: 1280, cache_creation_input_tokens: 0, output_tokens: 33 });
  });
  it("reads usage only from events with a usage object: deltas that mention usage in their text and OpenAI's usage:null chunks change nothing", () => {
    const delta = (text: string) => ({ event: "content_block_delta", data: JSON.stringify({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } }) });
    const anthropic = [
      { event: "message_start", data: '{"type":"message_start","message":{"id":"m","usage" : {"input_tokens":12,"cache_read_input_tokens":3000,"cache_creation_input_tokens":40,"output_tokens":1}}}' },
      delta('the "usage": {"input_tokens": 999} field'),
      delta("usage"),
      { event: "message_delta", data: '{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":77}}' },
      { event: "message_stop", data: '{"type":"message_stop"}' },
    ];
    expect(usageFromEvents("anthropic", anthropic, null)).toEqual({ input_tokens: 12, cache_read_input_tokens: 3000, cache_creation_input_tokens: 40, output_tokens: 77 });
    const chunk = (usage: string) => ({ event: "message", data: `{"id":"c","object":"chat.completion.chunk","choices":[],"usage":${usage}}` });
    const chat = [chunk("null"), chunk("null"), chunk('{"prompt_tokens":500,"completion_tokens":20,"prompt_tokens_details":{"cached_tokens":400}}'), { event: "message", data: "[DONE]" }];
    expect(usageFromEvents("openai-chat", chat, null)).toEqual({ input_tokens: 100, cache_read_input_tokens: 400, cache_creation_input_tokens: 0, output_tokens: 20 });
    expect(usageFromEvents("openai-chat", [chunk("null")], null)).toBeNull();
  });
  it("ignores non-JSON and missing usage", () => {
    expect(usageFromJson("anthropic", "not json")).toBeNull();
    expect(usageFromJson("openai-chat", '{"id":"x"}')).toBeNull();
  });
});
