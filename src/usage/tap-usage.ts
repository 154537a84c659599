/**
 * Usage tap (shell): passes an upstream response body to the client untouched and unbuffered,
 * and reads the provider-reported usage from it (JSON or SSE); the caller hands the returned
 * promise to `ctx.waitUntil`.
 *
 * JSON answers (content-type `application/json` or `application/…+json`, case-insensitive): the
 * client gets the upstream response itself (the runtime pipes it natively, no JS pump) and the
 * usage is read from a `clone()`, at most MAX_JSON_USAGE_BYTES and for at most
 * USAGE_READ_TIMEOUT_MS. A JSON answer is a non-streaming one for all three APIs: its generation
 * is over when its headers come, so the clone reading on after a client cancel costs no
 * generation, and the tee holds at most what the clone read ahead of the client, which stops at
 * the bound. This covers JSON without a declared length too — chunked answers, and every gzip
 * answer workerd decodes (it drops the length: test/workers/response-encoding.test.ts) — which
 * until 2026-12-01 went through the pump below; the load's emulator answers chunked, so the
 * load run's compaction-on path had never taken the clone.
 *
 * Everything else — SSE, and any other or missing content-type, which might be a stream — goes
 * through one reader, no tee (finding F02 in docs/reliability.md, from the client-abort fault
 * test): with `body.tee()` the parsing branch kept reading after the client cancelled, so the
 * upstream answer — and the provider's generation billed for it — ran to its end. Here a client
 * cancel cancels the upstream body at once, and a slow client slows the upstream read
 * (backpressure) instead of growing a tee buffer. Each chunk goes to the client and is parsed on
 * the way (SSE events, or a bounded JSON body).
 *
 * The usage promise settles on every path: end of body → the usage found; client cancel (pump),
 * upstream error, over the bound, past the deadline (clone) or parse failure → null.
 */
import type { Provider } from "../core/view/types";
import { usageFromEvents, usageFromJson, type Usage } from "./extract-usage";
import { SseParser } from "./parse-sse";

/** Largest non-streaming body (bytes) we keep in memory to read `usage` from; larger → not read. */
export const MAX_JSON_USAGE_BYTES = 8 * 1024 * 1024;

/**
 * Longest the clone of a JSON answer is read for usage, ms. The clone settles only when the
 * upstream body ends (a client cancel is not seen there), so a half-open upstream would hold the
 * report until the runtime ends the request's waitUntil (30 s on Workers); the whole answer of a
 * non-streaming call is normally on the wire when its headers come.
 */
export const USAGE_READ_TIMEOUT_MS = 10_000;

/** JSON media types: application/json and structured-syntax suffixes (RFC 6839), any case. */
const JSON_TYPE = /^\s*application\/([\w.+-]+\+)?json\s*(;|$)/i;

/** The UTF-8 text of `chunks`, `size` bytes in all. */
function utf8Of(chunks: readonly Uint8Array[], size: number): string {
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) { all.set(c, at); at += c.byteLength; }
  return new TextDecoder().decode(all);
}

/**
 * The UTF-8 text of `body` when it ends within `max` bytes and, given `deadlineMs`, within that
 * many ms; null (the read is cancelled, the rest not read) once it passes either. Rejects when
 * the stream errors.
 */
export async function readTextUpTo(body: ReadableStream<Uint8Array>, max: number, deadlineMs?: number): Promise<string | null> {
  const reader = body.getReader();
  let late = false;
  const timer = deadlineMs === undefined ? undefined : setTimeout(() => {
    late = true;
    reader.cancel("usage read deadline").catch(() => undefined);
  }, deadlineMs);
  try {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const next = await reader.read();
      if (late) return null;
      if (next.done) break;
      size += next.value.byteLength;
      if (size > max) {
        await reader.cancel("over the usage read bound").catch(() => undefined);
        return null;
      }
      chunks.push(next.value);
    }
    return utf8Of(chunks, size);
  } finally {
    clearTimeout(timer);
  }
}

/** The usage of a JSON answer, read from a clone of `response` (see the module note); never rejects. */
function usageOfClone(response: Response, provider: Provider): Promise<Usage | null> {
  const declared = response.headers.get("content-length") ?? "";
  // A declared length over the bound: not read at all (the read would stop at the bound anyway).
  if (/^\d+$/.test(declared) && Number(declared) > MAX_JSON_USAGE_BYTES) return Promise.resolve(null);
  return readTextUpTo(response.clone().body!, MAX_JSON_USAGE_BYTES, USAGE_READ_TIMEOUT_MS).then((t) => (t === null ? null : usageFromJson(provider, t)), () => null);
}

/** Incremental usage reader of the pump: fed every chunk, asked once at the end. */
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

/** A body that may be JSON but is not labelled so: kept up to MAX_JSON_USAGE_BYTES and parsed at the end. */
function jsonSink(provider: Provider): UsageSink {
  const chunks: Uint8Array[] = [];
  let size = 0;
  return {
    push: (chunk) => {
      size += chunk.length;
      if (size <= MAX_JSON_USAGE_BYTES) chunks.push(chunk);
    },
    end: () => {
      return size > MAX_JSON_USAGE_BYTES ? null : usageFromJson(provider, utf8Of(chunks, size));
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
  const type = response.headers.get("content-type") ?? "";
  if (JSON_TYPE.test(type)) return { response, usage: usageOfClone(response, provider) };
  const sink = /text\/event-stream/i.test(type) ? sseSink(provider) : jsonSink(provider);
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
