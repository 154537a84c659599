/**
 * Usage tap (shell): tees an upstream response body; the client gets one branch untouched and
 * unbuffered, the other is parsed in the background (the caller hands the returned promise to
 * `ctx.waitUntil`) for the provider-reported usage (JSON or SSE).
 */
import type { Provider } from "../core/view/types";
import { usageFromEvents, usageFromJson, type Usage } from "./extract-usage";
import { SseParser } from "./parse-sse";

/** Largest non-streaming body (bytes) we keep in memory to read `usage` from; larger → not read. */
export const MAX_JSON_USAGE_BYTES = 8 * 1024 * 1024;

/**
 * Returns the response to send to the client and a promise of the usage it carries (null when
 * none was found, the body was not JSON/SSE, or reading failed). Never rejects.
 */
export function tapUsage(response: Response, provider: Provider): { response: Response; usage: Promise<Usage | null> } {
  if (!response.body || response.status >= 400) return { response, usage: Promise.resolve(null) };
  const [client, mine] = response.body.tee();
  const out = new Response(client, { status: response.status, statusText: response.statusText, headers: response.headers });
  const isSse = (response.headers.get("content-type") ?? "").includes("text/event-stream");
  return { response: out, usage: readUsage(mine, provider, isSse).catch(() => null) };
}

async function readUsage(stream: ReadableStream<Uint8Array>, provider: Provider, isSse: boolean): Promise<Usage | null> {
  const reader = stream.getReader();
  if (isSse) {
    const parser = new SseParser();
    let usage: Usage | null = null;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      usage = usageFromEvents(provider, parser.push(value), usage);
    }
    return usageFromEvents(provider, parser.end(), usage);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_JSON_USAGE_BYTES) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) { all.set(c, at); at += c.length; }
  return usageFromJson(provider, new TextDecoder().decode(all));
}
