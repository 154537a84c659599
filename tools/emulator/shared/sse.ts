/**
 * Server-sent events framing (pure): `event:` / `data:` lines, one blank line between events
 * (html.spec.whatwg.org/multipage/server-sent-events.html). Anthropic and the Responses API name
 * every event; Chat Completions sends unnamed `data:` lines ending with `data: [DONE]`.
 */

export interface SseEvent {
  /** Event name, omitted for unnamed events. */
  event?: string;
  /** The data payload (one line; JSON or `[DONE]`). */
  data: string;
}

/** Wire text of a list of events. */
export function formatSse(events: readonly SseEvent[]): string {
  return events.map((e) => (e.event !== undefined ? `event: ${e.event}\n` : "") + `data: ${e.data}\n\n`).join("");
}

/** Parses SSE wire text back into events (multi-line data joined with "\n"; comments skipped). */
export function parseSse(text: string): SseEvent[] {
  const out: SseEvent[] = [];
  for (const chunk of text.replace(/\r\n/g, "\n").split("\n\n")) {
    if (chunk.trim() === "") continue;
    let event: string | undefined;
    const data: string[] = [];
    for (const line of chunk.split("\n")) {
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") event = value;
      else if (field === "data") data.push(value);
    }
    if (data.length > 0) out.push(event !== undefined ? { event, data: data.join("\n") } : { data: data.join("\n") });
  }
  return out;
}

/** Splits text into pieces of at most `size` characters (at least one piece, possibly empty). */
export function chunkText(text: string, size = 48): string[] {
  if (text.length <= size) return [text];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
