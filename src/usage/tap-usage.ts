/**
 * Usage tap (shell): passes an upstream response body to the client untouched and unbuffered,
 * and reads the provider-reported usage from it (JSON or SSE); the caller hands the returned
 * promise to `ctx.waitUntil`.
 *
 * Streams (SSE): one reader, no tee (finding F02 in docs/reliability.md, from the client-abort
 * fault test): with `body.tee()` the parsing branch kept reading after the client cancelled, so
 * the upstream answer — and the provider's generation billed for it — ran to its end. Here a
 * client cancel cancels the upstream body at once, and a slow client slows the upstream read
 * (backpressure) instead of growing a tee buffer. Each chunk goes to the client and is parsed
 * on the way.
 *
 * Non-streaming answers (anything but SSE): the client gets the upstream response itself (the
 * runtime pipes it natively, no JS pump) and the usage is read from a `clone()`, at most
 * MAX_JSON_USAGE_BYTES of it. Such an answer's generation is over when its headers come, so the
 * clone reading on after a client cancel costs no generation; the tee holds at most what the
 * clone read ahead of the client, which stops at the bound. This covers answers without a
 * declared length too — chunked ones, and every gzip answer workerd decodes (it drops the
 * length: test/workers/response-encoding.test.ts) — which until 2026-12-01 went through the
 * pump: measured in workerd, ≈ 0.2–0.3 ms more per answer (docs/reliability.md).
 *
 * The usage promise settles on every path: end of body → the usage found; cancel, upstream
 * error, over the bound or parse failure → null.
 */
import type { Provider } from "../core/view/types";
import { usageFromEvents, usageFromJson, type Usage } from "./extract-usage";
import { SseParser } from "./parse-sse";

/** Largest non-streaming body (bytes) we keep in memory to read `usage` from; larger → not read. */
export const MAX_JSON_USAGE_BYTES = 8 * 1024 * 1024;

/**
 * The UTF-8 text of `body` when it ends within `max` bytes; null (the rest not read: the read is
 * cancelled) once it passes them. Rejects when the stream errors.
 */
export async function readTextUpTo(body: ReadableStream<Uint8Array>, max: number): Promise<string | null> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const next = await reader.read();
    if (next.done) break;
    size += next.value.byteLength;
    if (size > max) {
      await reader.cancel("over the usage read bound").catch(() => undefined);
      return null;
    }
    chunks.push(next.value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) { all.set(c, at); at += c.byteLength; }
  return new TextDecoder().decode(all);
}

/** The usage of a non-streaming answer, read from a clone of `response` (see the module note); never rejects. */
function usageOfClone(response: Response, provider: Provider): Promise<Usage | null> {
  const size = Number(response.headers.get("content-length") ?? Number.NaN);
  // A declared length over the bound: not read at all (the reader would stop at the bound anyway).
  if (Number.isInteger(size) && size > MAX_JSON_USAGE_BYTES) return Promise.resolve(null);
  const copy = response.clone();
  // Of declared length (≤ the bound): the runtime's own text(); else a bounded read.
  const text = Number.isInteger(size) ? copy.text() : readTextUpTo(copy.body!, MAX_JSON_USAGE_BYTES);
  return text.then((t) => (t === null ? null : usageFromJson(provider, t)), () => null);
}

/**
 * Returns the response to send to the client and a promise of the usage it carries (null when
 * none was found, the body was not JSON/SSE, the client cancelled, or reading failed). Never
 * rejects. Error statuses (≥ 400) and bodiless responses are returned as they are.
 */
export function tapUsage(response: Response, provider: Provider): { response: Response; usage: Promise<Usage | null> } {
  if (!response.body || response.status >= 400) return { response, usage: Promise.resolve(null) };
  if (!(response.headers.get("content-type") ?? "").includes("text/event-stream")) return { response, usage: usageOfClone(response, provider) };
  const parser = new SseParser();
  let found: Usage | null = null;
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
          let final: Usage | null = null;
          try { final = parsing ? usageFromEvents(provider, parser.end(), found) : null; } catch { final = null; }
          settle(final);
          return;
        }
        controller.enqueue(next.value);
        if (parsing) {
          try { found = usageFromEvents(provider, parser.push(next.value), found); } catch { parsing = false; }
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
