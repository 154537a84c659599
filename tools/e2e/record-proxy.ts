/**
 * A recording pass-through in front of Sluice (Node HTTP shell on 127.0.0.1): the client talks
 * to it as to Sluice; it sends the request's exact bytes and headers on to Sluice (adding only
 * `x-e2e-seq`, which pairs a client request with what Sluice forwarded upstream), streams the
 * answer back unchanged, and records what the client sent and Sluice's `x-sluice-*` response
 * headers (and, on the MCP route, the answer's body). WebSocket upgrade requests are recorded and relayed to Sluice byte for byte (its
 * answer's status and delay recorded), so the client sees what Sluice does with them.
 */
import http from "node:http";
import net from "node:net";
import { decodeBody } from "./decode-body";
import { flatHeaders, listenLocal } from "./local-server";
import type { RecordedRequest, RecordedUpgrade } from "./request-record";

/** Sluice's MCP route: the proxy also keeps the answer body of requests under it. */
export const MCP_PATH = "/mcp";

/** Header carrying the proxy's request number to the upstream. */
export const SEQ_HEADER = "x-e2e-seq";

/** A running recording proxy. */
export interface RecordProxy {
  url: string;
  /** Requests the clients sent, in order (all clients: filter by API key). */
  requests: RecordedRequest[];
  upgrades: RecordedUpgrade[];
  close: () => Promise<void>;
}

/** Starts a proxy to `target` (Sluice's base URL) on a free 127.0.0.1 port. */
export async function startRecordProxy(target: string): Promise<RecordProxy> {
  const to = new URL(target);
  const requests: RecordedRequest[] = [];
  const upgrades: RecordedUpgrade[] = [];
  let seq = 0;
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const headers = flatHeaders(req.headers);
    const n = ++seq;
    const record: RecordedRequest = {
      seq: n, method: req.method ?? "GET", url: req.url ?? "/", headers, bytes: raw.length,
      body: decodeBody(raw, headers["content-encoding"])?.toString("utf8") ?? "", status: 0, responseHeaders: {}, rejection: null,
    };
    requests.push(record);
    const out = http.request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host, [SEQ_HEADER]: String(n) } },
      (up) => {
        record.status = up.statusCode ?? 0;
        record.responseHeaders = Object.fromEntries(Object.entries(flatHeaders(up.headers)).filter(([k]) => k.startsWith("x-sluice-") || k.startsWith("x-emulator-")));
        res.writeHead(up.statusCode ?? 502, up.headers);
        if (record.url.startsWith(MCP_PATH)) {
          // Sluice's MCP answers are small: kept whole, so the harness can compare a restore's bytes.
          const parts: Buffer[] = [];
          up.on("data", (b: Buffer) => parts.push(b));
          up.on("end", () => (record.responseBody = Buffer.concat(parts).toString("utf8")));
        }
        up.pipe(res);
      },
    );
    out.on("error", (e) => {
      record.status = 502;
      if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `record proxy: ${String(e)}` } }));
    });
    out.end(raw);
  });
  server.on("upgrade", (req, socket, head) => {
    const started = Date.now();
    const record: RecordedUpgrade = { url: req.url ?? "/", headers: flatHeaders(req.headers), status: null, answer_ms: 0 };
    upgrades.push(record);
    const lines = [`${req.method} ${req.url} HTTP/1.1`];
    for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i]!.toLowerCase() === "host" ? to.host : req.rawHeaders[i + 1]}`);
    const upstream = net.connect(Number(to.port), to.hostname, () => {
      upstream.write(lines.join("\r\n") + "\r\n\r\n");
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.once("data", (b: Buffer) => {
      record.status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(b.toString("latin1"))?.[1] ?? 0);
      record.answer_ms = Date.now() - started;
    });
    const end = () => {
      if (record.status === null) record.answer_ms = Date.now() - started;
      upstream.destroy();
      socket.destroy();
    };
    upstream.on("close", end).on("error", end);
    socket.on("close", end).on("error", end);
  });
  const local = await listenLocal(server);
  return { url: local.url, requests, upgrades, close: local.close };
}
