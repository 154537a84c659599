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
    for (;;) {
      const m = /\r\n|\r|\n/.exec(this.buffer);
      if (!m) break;
      // A lone CR at the very end may be the first half of CRLF: wait for more input.
      if (m[0] === "\r" && m.index === this.buffer.length - 1 && !final) break;
      const line = this.buffer.slice(0, m.index);
      this.buffer = this.buffer.slice(m.index + m[0].length);
      this.line(line, out);
    }
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
