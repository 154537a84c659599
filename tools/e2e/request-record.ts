/** What the harness records of every HTTP request a client or Sluice sent (shared types, no logic). */

/** One request as received, with the answer's status. */
export interface RecordedRequest {
  /** Arrival order within the recording server. */
  seq: number;
  method: string;
  /** Path and query string as received. */
  url: string;
  /** Lower-case header names; multi-valued headers joined with ", ". */
  headers: Record<string, string>;
  /** Length of the body as received (before any content-encoding is decoded), bytes. */
  bytes: number;
  /** The body as UTF-8 text after decoding its content-encoding ("" when it could not be decoded). */
  body: string;
  /** The answer's HTTP status. */
  status: number;
  /** Response headers the harness cares about (`x-sluice-*`, `x-emulator-*`), lower-case. */
  responseHeaders: Record<string, string>;
  /** Validation error text when the upstream rejected the request with a 4xx, else null. */
  rejection: string | null;
  /** The answer body, as Sluice sent it, of a request on its MCP route (recording proxy only; set once the answer ended). */
  responseBody?: string;
  /** SHA-256 (hex) of the answer body the scripted upstream sent (absent in the recording proxy's records). */
  responseSha256?: string;
}

/** A WebSocket upgrade attempt. */
export interface RecordedUpgrade {
  url: string;
  headers: Record<string, string>;
  /** Status of the answer's first line (the scripted upstream answers 404; through the proxy, Sluice's answer), null when none came. */
  status: number | null;
  /** Time from the attempt until the answer's first byte, or until the connection closed or was given up when none came, ms. */
  answer_ms: number;
}
