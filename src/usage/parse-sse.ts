/**
 * Incremental Server-Sent Events parser (pure). Feed it network chunks as they come; it buffers
 * partial lines across chunks and decodes UTF-8 in streaming mode, so an event or a multi-byte
 * character split between chunks is parsed whole (case B10). Follows the WHATWG HTML "event
 * stream interpretation" rules for `event:` and `data:` fields (multiple data lines joined by
 * "\n"; comments and other fields ignored; CRLF, CR and LF line ends).
 */

/** One dispatched event. `event` is "message" when the stream named none. */
export interface SseEvent {
  event: string;
  data: string;
}

export class SseParser {
  private decoder = new TextDecoder("utf-8");
  private buffer = "";
  private eventName = "";
  private data: string[] = [];

  /** Feeds a chunk; returns the events completed by it. */
  push(chunk: Uint8Array): SseEvent[] {
    this.buffer += this.decoder.decode(chunk, { stream: true });
    return this.drain(false);
  }

  /** Flushes the end of the stream; returns any final event terminated by end of input. */
  end(): SseEvent[] {
    this.buffer += this.decoder.decode();
    return this.drain(true);
  }

  private drain(final: boolean): SseEvent[] {
    const out: SseEvent[] = [];
    // One cursor over the buffer, cut once at the end (not a regex search and a copy per line).
    const buf = this.buffer;
    let at = 0;
    // Next LF and CR at or after `at` (-1: none left); each searched again only once passed, so a
    // stream without CRs costs one failed search per chunk, not one per line.
    let lf = -2;
    let cr = -2;
    for (;;) {
      if (lf !== -1 && lf < at) lf = buf.indexOf("\n", at);
      if (cr !== -1 && cr < at) cr = buf.indexOf("\r", at);
      if (lf < 0 && cr < 0) break;
      const end = cr < 0 || (lf >= 0 && lf < cr) ? lf : cr;
      // A lone CR at the very end may be the first half of CRLF: wait for more input.
      if (end === cr && cr === buf.length - 1 && !final) break;
      const next = end === cr && buf.charCodeAt(cr + 1) === 10 ? cr + 2 : end + 1;
      this.line(buf.slice(at, end), out);
      at = next;
    }
    this.buffer = at === 0 ? buf : buf.slice(at);
    if (final) {
      if (this.buffer.length > 0) this.line(this.buffer, out);
      this.buffer = "";
      this.line("", out);
    }
    return out;
  }

  private line(line: string, out: SseEvent[]): void {
    if (line === "") {
      if (this.data.length > 0) out.push({ event: this.eventName || "message", data: this.data.join("\n") });
      this.eventName = "";
      this.data = [];
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.eventName = value;
    else if (field === "data") this.data.push(value);
  }
}
