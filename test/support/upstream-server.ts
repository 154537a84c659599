/**
 * Upstream stand-in for the Workers tests: a real Node HTTP server on 127.0.0.1 that records
 * every request it receives (method, path, headers, body bytes) and answers as the request's
 * `x-test-scenario` header asks. Not part of the product.
 *
 * Scenarios (header `x-test-scenario`):
 * - (none)        200 application/json `{"ok":true,"path":...,"bytes":N}`
 * - `status:NNN`  that status with a provider-like JSON error body and `retry-after: 0`
 * - `sse-slow`    SSE: one event, then a pause of `x-test-delay-ms` (default 1500), then the rest
 * - `sse-split`   SSE whose network chunks split a data: line mid-JSON and a UTF-8 'é' byte pair
 * - `gzip`        200 JSON body sent with content-encoding: gzip
 * - `reset`       destroys the socket without answering
 * Recorded requests: `GET /__received/<x-test-id>` → JSON array of
 * `{method, path, headers, body_base64}`.
 */
import http from "node:http";
import { gzipSync } from "node:zlib";
import type { AddressInfo } from "node:net";

interface Recorded {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body_base64: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startUpstream(): Promise<{ url: string; close: () => Promise<void> }> {
  const received = new Map<string, Recorded[]>();

  const server = http.createServer(async (req, res) => {
    const url = req.url ?? "/";
    if (req.method === "GET" && url.startsWith("/__received/")) {
      const id = decodeURIComponent(url.slice("/__received/".length));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(received.get(id) ?? []));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const id = String(req.headers["x-test-id"] ?? "default");
    const list = received.get(id) ?? [];
    list.push({ method: req.method ?? "", path: url, headers: req.headers, body_base64: body.toString("base64") });
    received.set(id, list);

    const scenario = String(req.headers["x-test-scenario"] ?? "");
    if (scenario.startsWith("status:")) {
      const status = Number(scenario.slice(7));
      res.writeHead(status, { "content-type": "application/json", "retry-after": "0", "x-upstream-marker": "yes" });
      res.end(JSON.stringify({ type: "error", error: { type: "upstream_test_error", message: `status ${status} from stand-in` } }));
      return;
    }
    if (scenario === "reset") {
      req.socket.destroy();
      return;
    }
    if (scenario === "gzip") {
      const payload = gzipSync(Buffer.from(JSON.stringify({ ok: true, compressed: "café" })));
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip", "content-length": String(payload.length) });
      res.end(payload);
      return;
    }
    if (scenario === "sse-slow") {
      const delay = Number(req.headers["x-test-delay-ms"] ?? 1500);
      res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" });
      res.write('event: message_start\ndata: {"type":"message_start"}\n\n');
      await sleep(delay);
      res.write('event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"type":"text_delta","text":"1 2 3"}}\n\n');
      res.end('event: message_stop\ndata: {"type":"message_stop"}\n\n');
      return;
    }
    if (scenario === "sse-split") {
      res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" });
      const whole = Buffer.from(
        'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"type":"text_delta","text":"caf\u00e9 ok"}}\n\n' +
          'event: message_stop\ndata: {"type":"message_stop"}\n\n',
        "utf8",
      );
      const eAt = whole.indexOf(Buffer.from([0xc3, 0xa9]));
      const midJson = whole.indexOf(Buffer.from('"delta"'));
      const cuts = [midJson + 3, eAt + 1, whole.length];
      let from = 0;
      for (const cut of cuts) {
        res.write(whole.subarray(from, cut));
        from = cut;
        await sleep(30);
      }
      res.end();
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ ok: true, path: url, bytes: body.length }));
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
