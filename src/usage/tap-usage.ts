/**
 * Usage tap (shell): passes an upstream response body to the client chunk by chunk, untouched
 * and unbuffered, and parses each chunk on the way for the provider-reported usage (JSON or
 * SSE); the caller hands the returned promise to `ctx.waitUntil`.
 *
 * Streams (SSE) and JSON of undeclared or oversized length: one reader, no tee (finding F02 in
 * docs/reliability.md, from the client-abort fault test):
 * with `body.tee()` the parsing branch kept reading after the client cancelled, so the
 * upstream answer — and the provider's generation billed for it — ran to its end. Here a client
 * cancel cancels the upstream body at once, and a slow client slows the upstream read
 * (backpressure) instead of growing a tee buffer. The usage promise settles on every path:
 * end of body → the usage found; cancel, upstream error or parse failure → null.
 */
import type { Provider } from "../core/view/types";
import { usageFromEvents, usageFromJson, type Usage } from "./extract-usage";
import { SseParser } from "./parse-sse";

/** Largest non-streaming body (bytes) we keep in memory to read `usage` from; larger → not read. */
export const MAX_JSON_USAGE_BYTES = 8 * 1024 * 1024;

/** Incremental usage reader: fed every chunk, asked once at the end. */
interface UsageSink {
  push(chunk: Uint8Array): void;
  end(): Usage | null;
}

function sseSink(provider: Provider): UsageSink {
  const parser = new SseParser();
  let usage: Usage | null = null;
  return {
    push: (chunk) => { usage = usageFromEvents(provider, parser.push(chunk), usage); },
    end: () => usageFromEvents(provider, parser.end(), usage),
  };
}

function jsonSink(provider: Provider): UsageSink {
  const chunks: Uint8Array[] = [];
  let size = 0;
  return {
    push: (chunk) => {
      size += chunk.length;
      if (size <= MAX_JSON_USAGE_BYTES) chunks.push(chunk);
    },
    end: () => {
      if (size > MAX_JSON_USAGE_BYTES) return null;
      const all = new Uint8Array(size);
      let at = 0;
      for (const c of chunks) { all.set(c, at); at += c.length; }
      return usageFromJson(provider, new TextDecoder().decode(all));
    },
  };
}

/**
 * Returns the response to send to the client and a promise of the usage it carries (null when
 * none was found, the body was not JSON/SSE, the client cancelled, or reading failed). Never
 * rejects. Error statuses (≥ 400) and bodiless responses are returned as they are.
 */
export function tapUsage(response: Response, provider: Provider): { response: Response; usage: Promise<Usage | null> } {
  if (!response.body || response.status >= 400) return { response, usage: Promise.resolve(null) };
  const isSse = (response.headers.get("content-type") ?? "").includes("text/event-stream");
  const size = Number(response.headers.get("content-length") ?? Number.NaN);
  if (!isSse && Number.isInteger(size) && size <= MAX_JSON_USAGE_BYTES) {
    // A JSON answer of declared size: the client gets the upstream body untouched (the runtime
    // pipes it natively, no JS pump) and the usage is read from a clone — about 1 ms less CPU per
    // request under `wrangler dev` (docs/reliability.md). The clone's tee holds at most the
    // declared size; a client that cancels leaves the clone to read the rest, which costs no
    // generation: a non-streaming answer's headers come when it is complete.
    const copy = response.clone();
    return { response, usage: copy.text().then((t) => usageFromJson(provider, t), () => null) };
  }
  const sink = isSse ? sseSink(provider) : jsonSink(provider);
  let parsing = true;
  let settle!: (u: Usage | null) => void;
  const usage = new Promise<Usage | null>((resolve) => { settle = resolve; });
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let next: ReadableStreamReadResult<Uint8Array>;
        try {
          next = await reader.read();
        } catch (err) {
          settle(null);
          throw err; // the client sees the upstream's own error
        }
        if (next.done) {
          controller.close();
          let found: Usage | null = null;
          try { found = parsing ? sink.end() : null; } catch { found = null; }
          settle(found);
          return;
        }
        controller.enqueue(next.value);
        if (parsing) {
          try { sink.push(next.value); } catch { parsing = false; }
        }
      },
      cancel(reason) {
        settle(null);
        return reader.cancel(reason);
      },
    },
    // Pull only when the client asks: nothing is read ahead of the client.
    { highWaterMark: 0 },
  );
  return { response: new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers }), usage };
}
