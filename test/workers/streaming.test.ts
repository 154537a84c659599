/**
 * Streaming (case B10): SSE reaches the client event by event, not in one burst at the end, and
 * byte-identical however the network splits it. The order is proven without timing: the
 * stand-in (`sse-gated`) holds each next event until the test releases it, so a client that can
 * read event k while the upstream has not finished proves the gateway does not buffer. (A
 * buffering gateway would only deliver after the stand-in's safety release, with
 * `finished: true`, and fail the progress assertions.)
 */
import { describe, expect, it } from "vitest";
import { SSE_GATED_EVENTS, SSE_SPLIT_TEXT } from "../support/scenarios";
import { concat, gateway, newTestId, progress, release, utf8 } from "./helpers";

const sseRequest = (id: string, scenario: string, path = "/anthropic/v1/messages"): Promise<Response> =>
  gateway(path, {
    method: "POST",
    headers: { "content-type": "application/json", "anthropic-version": "2023-06-01", "x-test-id": id, "x-test-scenario": scenario },
    body: '{"model":"claude-sonnet-4-5","max_tokens":256,"stream":true,"messages":[{"role":"user","content":"Count from 1 to 5 slowly."}]}',
  });

/** Reads from `reader` until the bytes read so far end with `expectedSoFar`'s length; returns them. */
async function readUntilLength(reader: ReadableStreamDefaultReader<Uint8Array>, chunks: Uint8Array[], length: number): Promise<Uint8Array> {
  while (concat(chunks).length < length) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  return concat(chunks);
}

describe("B10: SSE passes through event by event", () => {
  for (const path of ["/anthropic/v1/messages", "/openai/v1/chat/completions", "/openai/v1/responses"]) {
    it(`${path}: the client reads each event before the upstream sends the next`, async () => {
      const id = newTestId("b10");
      const res = await sseRequest(id, "sse-gated", path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
      expect(res.headers.get("content-length")).toBeNull();
      expect(res.headers.get("x-sluice-request-id")).not.toBeNull();

      const reader = res.body!.getReader();
      const chunks: Uint8Array[] = [];
      let expected = "";
      for (let k = 0; k < SSE_GATED_EVENTS.length; k++) {
        expected += SSE_GATED_EVENTS[k];
        const got = await readUntilLength(reader, chunks, utf8(expected).length);
        expect(new TextDecoder().decode(got)).toBe(expected);
        // The client holds event k; the upstream has sent exactly k+1 events and is waiting.
        expect(await progress(id)).toEqual({ sent: k + 1, finished: k === SSE_GATED_EVENTS.length - 1 });
        if (k < SSE_GATED_EVENTS.length - 1) expect(await release(id)).toBe(true);
      }
      expect(await reader.read()).toEqual({ done: true, value: undefined });
    });
  }
});

describe("B10: split network chunks arrive byte-identical", () => {
  for (const scenario of ["sse-split", "sse-bytewise"]) {
    it(`${scenario}: cuts mid-JSON and between 0xC3|0xA9 change nothing`, async () => {
      const res = await sseRequest(newTestId("split"), scenario);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-length")).toBeNull();
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(bytes).toEqual(utf8(SSE_SPLIT_TEXT));
      // A streaming decoder over the client's bytes yields the text without U+FFFD.
      expect(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes)).toContain("trois, \u00e9");
    });
  }
});
