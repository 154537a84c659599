/**
 * Upstream stand-in for the Workers tests: a real Node HTTP server on 127.0.0.1 that records
 * every request it receives (method, raw path, headers, body bytes) and answers as the request's
 * `x-test-scenario` header asks. Not part of the product. Recordings are keyed by `x-test-id`.
 *
 * Scenarios (header `x-test-scenario`):
 * - (none)          200 JSON `{"ok":true,"method","path","bytes","attempt"}` (attempt = 1-based
 *                   count of requests seen for this x-test-id)
 * - `status:NNN`    that status, JSON error body `STATUS_BODY(NNN)`, `retry-after` from header
 *                   `x-test-retry-after` (default "0"; "none" = no header)
 * - `fail-first:S`  the first request of this x-test-id plays scenario S (e.g. `reset`,
 *                   `status:429`); later ones play `x-test-then` (default: none → 200)
 * - `reset`         destroys the socket without answering
 * - `reset-mid-body` 200 headers and `PARTIAL_BODY`, then destroys the socket
 * - `hang`          never answers (until the connection closes)
 * - `encoded:E`     200 JSON `ENCODED_PLAIN` sent with content-encoding E (gzip | br | deflate)
 * - `sse-gated`     SSE_GATED_EVENTS one at a time: after each event (but the last) it waits for
 *                   `POST /__release/<id>` (or RELEASE_SAFETY_MS), so tests can observe order
 * - `sse-gated-usage` the same with SSE_GATED_USAGE_EVENTS (Anthropic events carrying usage)
 * - `usage:A:F`     USAGE_ANSWERS["A:F"] (A = anthropic | chat | responses, F = json | sse);
 *                   F = json-gzip: USAGE_ANSWERS["A:json"] gzipped, with content-encoding and
 *                   content-length (of the gzip bytes), as a provider's compressed answer comes
 * - `input-tokens:N` 200 Anthropic JSON answer whose usage reports N uncached input tokens (no
 *                   cache reads or writes), 7 output tokens
 * - `usage-tokens:I:R:W:O` 200 Anthropic JSON answer whose usage reports I uncached input, R
 *                   cache-read, W cache-write and O output tokens (a test chooses each call's usage)
 * - `sse-reset`     200 SSE headers, the first two SSE_GATED_EVENTS, then destroys the socket
 * - `sse-split`     SSE_SPLIT_BYTES in network chunks cut mid-JSON and between 0xC3|0xA9 ('é')
 * - `sse-bytewise`  SSE_SPLIT_BYTES one byte per write
 * A WebSocket handshake (any path) is recorded (body "") and answered by ./websocket-echo.ts.
 * Control: `GET /__received/<id>` → Recorded[]; `GET /__progress/<id>` → `{sent, finished}`
 * for sse-gated; `POST /__release/<id>` lets sse-gated send its next event; `GET /__closed/<id>`
 * → `{finished}` once the connection of the last request of <id> closed (`finished`: the
 * stand-in had written the whole answer), null while it is open — how a client abort is seen.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { webSocketEcho } from "./websocket-echo";
import { ENCODED_PLAIN, PARTIAL_BODY, RELEASE_SAFETY_MS, SSE_GATED_EVENTS, SSE_GATED_USAGE_EVENTS, SSE_SPLIT_TEXT, STATUS_BODY, USAGE_ANSWERS } from "./scenarios";

export interface Recorded {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body_base64: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const SSE_HEADERS = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" };

export async function startUpstream(): Promise<{ url: string; close: () => Promise<void> }> {
  const received = new Map<string, Recorded[]>();
  const progress = new Map<string, { sent: number; finished: boolean }>();
  const releases = new Map<string, Array<() => void>>();
  const closed = new Map<string, { finished: boolean }>();

  const waitRelease = (id: string) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(resolve, RELEASE_SAFETY_MS);
      const list = releases.get(id) ?? [];
      list.push(() => { clearTimeout(t); resolve(); });
      releases.set(id, list);
    });

  async function play(scenario: string, req: http.IncomingMessage, res: http.ServerResponse, id: string, attempt: number, body: Buffer, url: string) {
    if (scenario.startsWith("fail-first:")) {
      const next = attempt === 1 ? scenario.slice("fail-first:".length) : String(req.headers["x-test-then"] ?? "");
      return play(next, req, res, id, attempt, body, url);
    }
    if (scenario.startsWith("status:")) {
      const status = Number(scenario.slice(7));
      const ra = String(req.headers["x-test-retry-after"] ?? "0");
      const payload = Buffer.from(STATUS_BODY(status));
      const headers: Record<string, string> = { "content-type": "application/json", "content-length": String(payload.length), "x-upstream-marker": "yes" };
      if (ra !== "none") headers["retry-after"] = ra;
      res.writeHead(status, headers);
      res.end(payload);
      return;
    }
    if (scenario === "reset") {
      req.socket.destroy();
      return;
    }
    if (scenario === "reset-mid-body") {
      res.writeHead(200, { "content-type": "application/json" });
      res.write(PARTIAL_BODY);
      await sleep(100);
      req.socket.destroy();
      return;
    }
    if (scenario === "hang") return;
    if (scenario === "sse-reset") {
      res.writeHead(200, SSE_HEADERS);
      res.write(SSE_GATED_EVENTS[0]! + SSE_GATED_EVENTS[1]!);
      await sleep(100);
      req.socket.destroy();
      return;
    }
    if (scenario.startsWith("encoded:")) {
      const enc = scenario.slice(8);
      const raw = Buffer.from(ENCODED_PLAIN);
      const payload = enc === "gzip" ? gzipSync(raw) : enc === "br" ? brotliCompressSync(raw) : deflateSync(raw);
      res.writeHead(200, { "content-type": "application/json", "content-encoding": enc, "content-length": String(payload.length) });
      res.end(payload);
      return;
    }
    if (scenario.startsWith("usage:") && scenario.endsWith(":json-gzip")) {
      const answer = USAGE_ANSWERS[`${scenario.slice(6, -":json-gzip".length)}:json`];
      if (!answer) throw new Error(`unknown scenario ${scenario}`);
      const payload = gzipSync(Buffer.from(answer.body));
      res.writeHead(200, { "content-type": answer.contentType, "content-encoding": "gzip", "content-length": String(payload.length) });
      res.end(payload);
      return;
    }
    if (scenario.startsWith("input-tokens:")) {
      const n = Number(scenario.slice("input-tokens:".length));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: "msg_c1", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "text", text: "ok" }], stop_reason: "end_turn", usage: { input_tokens: n, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 7 } }));
      return;
    }
    if (scenario.startsWith("usage-tokens:")) {
      const [input, read, write, output] = scenario.slice("usage-tokens:".length).split(":").map(Number);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: "msg_u1", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "text", text: "ok" }], stop_reason: "end_turn", usage: { input_tokens: input, cache_creation_input_tokens: write, cache_read_input_tokens: read, output_tokens: output } }));
      return;
    }
    if (scenario.startsWith("usage:")) {
      const answer = USAGE_ANSWERS[scenario.slice(6)];
      if (!answer) throw new Error(`unknown scenario ${scenario}`);
      res.writeHead(200, { "content-type": answer.contentType });
      res.end(answer.body);
      return;
    }
    if (scenario === "sse-gated" || scenario === "sse-gated-usage") {
      const events = scenario === "sse-gated" ? SSE_GATED_EVENTS : SSE_GATED_USAGE_EVENTS;
      const state = { sent: 0, finished: false };
      progress.set(id, state);
      res.writeHead(200, SSE_HEADERS);
      for (let i = 0; i < events.length; i++) {
        if (i > 0) await waitRelease(id);
        res.write(events[i]);
        state.sent = i + 1;
      }
      res.end();
      state.finished = true;
      return;
    }
    if (scenario === "sse-split" || scenario === "sse-bytewise") {
      res.writeHead(200, SSE_HEADERS);
      const whole = Buffer.from(SSE_SPLIT_TEXT, "utf8");
      const eAt = whole.indexOf(Buffer.from([0xc3, 0xa9]));
      const midJson = whole.indexOf(Buffer.from('"delta"'));
      const cuts = scenario === "sse-split" ? [midJson + 3, eAt + 1, whole.length] : [...whole.keys()].map((i) => i + 1);
      let from = 0;
      for (const cut of cuts) {
        res.write(whole.subarray(from, cut));
        from = cut;
        await sleep(scenario === "sse-split" ? 30 : 1);
      }
      res.end();
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ ok: true, method: req.method, path: url, bytes: body.length, attempt }));
  }

  const server = http.createServer(async (req, res) => {
    const url = req.url ?? "/";
    const control = url.match(/^\/__(received|progress|release|closed)\/(.*)$/);
    if (control) {
      const id = decodeURIComponent(control[2]!);
      if (control[1] === "release") {
        const next = releases.get(id)?.shift();
        next?.();
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ released: next !== undefined }));
        return;
      }
      const data = control[1] === "received" ? (received.get(id) ?? []) : control[1] === "closed" ? (closed.get(id) ?? null) : (progress.get(id) ?? null);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(data));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const id = String(req.headers["x-test-id"] ?? "default");
    const list = received.get(id) ?? [];
    list.push({ method: req.method ?? "", path: url, headers: req.headers, body_base64: body.toString("base64") });
    received.set(id, list);
    closed.delete(id);
    res.once("close", () => closed.set(id, { finished: res.writableFinished }));
    await play(String(req.headers["x-test-scenario"] ?? ""), req, res, id, list.length, body, url);
  });

  // A WebSocket handshake is recorded like a request (no body) and answered by an echo.
  server.on("upgrade", (req: http.IncomingMessage, socket: Duplex) => {
    const id = String(req.headers["x-test-id"] ?? "default");
    received.set(id, [...(received.get(id) ?? []), { method: req.method ?? "", path: req.url ?? "/", headers: req.headers, body_base64: "" }]);
    webSocketEcho(req, socket);
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const list of releases.values()) for (const r of list) r();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A 127.0.0.1 URL on which nothing listens (a port bound, then released). */
export async function closedPortUrl(): Promise<string> {
  const s = http.createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
