/**
 * The emulator's HTTP shell (Node): buffers each request, hands its bytes to `handleRequest` (which
 * decodes a compressed body) with the wall clock, writes the answer. `startEmulator` is what tests and the replay use.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { handleRequest } from "./handle-request";
import { createState, type EmulatorState } from "./state";

/**
 * Largest request header block accepted, bytes. Node's default (16 KiB) answers 431 to a replay
 * whose `x-emulator-reply` carries a long recorded answer (≈ 41 KB of base64 in the corpus).
 */
export const MAX_HEADER_BYTES = 1024 * 1024;

export interface EmulatorHandle {
  /** Base URL, e.g. `http://127.0.0.1:8788`. */
  url: string;
  /** The live state (for in-process inspection). */
  state: EmulatorState;
  close: () => Promise<void>;
}

/** Starts the emulator on `host` (default 127.0.0.1) and `port` (0 = any free port). */
export async function startEmulator(opts: { port?: number; host?: string } = {}): Promise<EmulatorHandle> {
  const host = opts.host ?? "127.0.0.1";
  const state = createState();
  const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES }, async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(", ") : v;
    try {
      const answer = handleRequest(state, { method: req.method ?? "GET", path: req.url ?? "/", headers, body: new Uint8Array(Buffer.concat(chunks)) }, Date.now());
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    } catch (e) {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: "api_error", message: `emulator bug: ${String(e)}` } }));
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    state,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}
