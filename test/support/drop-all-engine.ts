/**
 * TEST FIXTURE: a local HTTP decision engine on 127.0.0.1 (docs/engine-protocol.md) that answers
 * every candidate with `drop_result` at confidence 0.9, started before the file's tests and
 * closed after them. `extra(url)` adds members to each answer (e.g. `cost_usd` read from the
 * request path).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import type { EngineRequest } from "../../src/engines/protocol";

/** Registers the server's lifecycle; `base()` is its `http://127.0.0.1:<port>` once started. */
export function dropAllEngine(extra: (url: string) => Record<string, unknown> = () => ({})): { base: () => string } {
  let base = "";
  let server: http.Server;
  beforeAll(async () => {
    server = http.createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const request = JSON.parse(Buffer.concat(chunks).toString()) as EngineRequest;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ verdicts: request.candidates.map((c) => ({ id: c.id, verdict: "drop_result", confidence: 0.9 })), ...extra(req.url ?? "") }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => { server.closeAllConnections(); await new Promise((r) => server.close(r)); });
  return { base: () => base };
}
