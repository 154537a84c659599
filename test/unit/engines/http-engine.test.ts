/**
 * The HTTP engine client against a real Node HTTP server on 127.0.0.1 (in process). The path of
 * the endpoint picks the server's behaviour.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpEngine, type HttpEngineConfig } from "../../../src/engines/http-engine";
import type { EngineRequest } from "../../../src/engines/protocol";

const REQUEST: EngineRequest = {
  protocol: "sluice-engine/1", model: "m", head_chars: 500,
  candidates: [
    { id: "t1", tool_name: "Read", input_excerpt: "{}", result_head: "abc", result_bytes: 3, age_turns: 4, is_error: false },
    { id: "t2", tool_name: "Bash", input_excerpt: "{}", result_head: "err", result_bytes: 3, age_turns: 2, is_error: true },
  ],
};
const GOOD = JSON.stringify({ verdicts: [{ id: "t1", verdict: "drop_pair", confidence: 0.9 }, { id: "t2", verdict: "drop_result", confidence: 0.3 }] });
const SECRET = "sk-test-never-logged-0123";

let base = "";
let server: http.Server;
const seen: Array<{ path: string; auth: string | undefined; body: string }> = [];

beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    seen.push({ path: req.url!, auth: req.headers.authorization, body: Buffer.concat(chunks).toString() });
    const json = (status: number, body: string) => { res.writeHead(status, { "content-type": "application/json" }); res.end(body); };
    switch (req.url) {
      case "/ok": return json(200, GOOD);
      // Never answer (headers, or the body's end): only the client's deadline or abort can end
      // these calls, however slow the machine is. afterAll's closeAllConnections ends them.
      case "/slow": return;
      case "/slow-body": res.writeHead(200, { "content-type": "application/json" }); res.write(GOOD.slice(0, 10)); return;
      case "/500": return json(500, '{"error":"boom"}');
      case "/401": return json(401, '{"error":"no"}');
      case "/redirect": res.writeHead(302, { location: "http://8.8.8.8/decide" }); return res.end();
      case "/garbage": return json(200, "<html>");
      case "/wrong-ids": return json(200, JSON.stringify({ verdicts: [{ id: "t1", verdict: "keep", confidence: 1 }, { id: "x", verdict: "keep", confidence: 1 }] }));
      case "/huge": return json(200, JSON.stringify({ verdicts: [], pad: "x".repeat(1_100_000) }));
      case "/reset": return req.socket.destroy();
      default: return json(404, "{}");
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => { server.closeAllConnections(); await new Promise((r) => server.close(r)); });

/**
 * The deadline of every call that is not about the deadline: an answer that the server sends at
 * once must never be classified as a timeout, even when the machine is busy (two cores shared
 * with other test runs made a 300 ms deadline classify a prompt 500 as a timeout). The deadline
 * tests use SHORT_DEADLINE_MS against a server that never answers, so their outcome does not
 * depend on the machine's speed either.
 */
const GENEROUS_DEADLINE_MS = 60_000;
const SHORT_DEADLINE_MS = 300;

function engine(path: string, over: Partial<HttpEngineConfig> = {}, env: Record<string, string> = {}) {
  const logs: string[] = [];
  const firstUse: string[] = [];
  const e = createHttpEngine(
    { kind: "local", endpoint: `${base}${path}`, model: "m", api_key_env: null, timeout_ms: GENEROUS_DEADLINE_MS, decision_threshold: 0.6, head_chars: 500, ...over },
    { env, log: (l) => logs.push(l), onFirstUse: (h) => firstUse.push(h), announced: new Set() });
  return { e, logs, firstUse };
}
const failure = async (path: string, over: Partial<HttpEngineConfig> = {}) => {
  const out = await engine(path, over).e.decide(REQUEST);
  return out.ok ? out : { reason: out.reason, detail: out.detail, status: out.status };
};

describe("http engine", () => {
  it("posts the request and turns the answer into a plan, with the credential as a bearer header", async () => {
    const { e, logs, firstUse } = engine("/ok", { api_key_env: "ENGINE_KEY" }, { ENGINE_KEY: SECRET });
    const out = await e.decide(REQUEST);
    expect(out.ok && out.plan).toEqual({ actions: { t1: { kind: "drop_pair" } } });
    const last = seen.at(-1)!;
    expect([last.path, last.auth, JSON.parse(last.body)]).toEqual(["/ok", `Bearer ${SECRET}`, REQUEST]);
    expect([logs, firstUse]).toEqual([[], [e.host]]);
  });

  it("remote logs one line naming the destination host, once", async () => {
    const { e, logs, firstUse } = engine("/ok", { kind: "remote" });
    await e.decide(REQUEST);
    await e.decide(REQUEST);
    expect(logs).toEqual([`sluice: remote decision engine in use; destination host ${new URL(base).host} receives tool-result excerpts (up to 500 chars each)`]);
    expect(firstUse).toEqual([new URL(base).host]);
  });

  it("a missing credential fails without a call; the secret never shows in an outcome", async () => {
    const before = seen.length;
    const out = await engine("/ok", { api_key_env: "ENGINE_KEY" }).e.decide(REQUEST);
    expect(out.ok ? out : [out.reason, out.detail]).toEqual(["missing_credential", "env var ENGINE_KEY is not set"]);
    // A development value counts only under wrangler dev (SLUICE_ENV=development).
    const dev = await engine("/ok", { api_key_env: "ENGINE_KEY" }, { ENGINE_KEY: "dev-only-engine-key" }).e.decide(REQUEST);
    expect(dev.ok ? dev : [dev.reason, dev.detail]).toEqual(["missing_credential", "env var ENGINE_KEY holds a development value outside wrangler dev"]);
    expect(seen.length).toBe(before);
    const devOk = await engine("/ok", { api_key_env: "ENGINE_KEY" }, { ENGINE_KEY: "dev-only-engine-key", SLUICE_ENV: "development" }).e.decide(REQUEST);
    expect([devOk.ok, seen.at(-1)!.auth]).toEqual([true, "Bearer dev-only-engine-key"]);
    const bad = await engine("/500", { api_key_env: "ENGINE_KEY" }, { ENGINE_KEY: SECRET }).e.decide(REQUEST);
    expect(JSON.stringify(bad)).not.toContain("never-logged");
  });

  it("no candidates: empty plan, no call", async () => {
    const before = seen.length;
    expect(await engine("/ok").e.decide({ ...REQUEST, candidates: [] })).toEqual({ ok: true, plan: { actions: {} }, verdicts: [], latency_ms: 0, cost_usd: 0 });
    expect(seen.length).toBe(before);
  });

  it("each failure is a typed outcome with its reason", async () => {
    expect(await failure("/slow", { timeout_ms: SHORT_DEADLINE_MS })).toEqual({ reason: "timeout", detail: "no answer within 300 ms", status: undefined });
    expect(await failure("/slow-body", { timeout_ms: SHORT_DEADLINE_MS })).toEqual({ reason: "timeout", detail: "no answer within 300 ms", status: undefined });
    expect(await failure("/500")).toEqual({ reason: "http_5xx", detail: "status 500", status: 500 });
    expect(await failure("/401")).toEqual({ reason: "http_4xx", detail: "status 401", status: 401 });
    expect(await failure("/redirect")).toEqual({ reason: "unexpected_status", detail: "status 302", status: 302 });
    expect(await failure("/garbage")).toEqual({ reason: "malformed", detail: "answer is not JSON", status: 200 });
    expect(await failure("/wrong-ids")).toEqual({ reason: "malformed", detail: 'unknown id "x"', status: 200 });
    expect(await failure("/huge")).toEqual({ reason: "malformed", detail: "answer over 1048576 bytes", status: 200 });
    expect(await failure("/reset")).toEqual({ reason: "network", detail: "TypeError (UND_ERR_SOCKET)", status: undefined });
  });

  it("a closed port is a network failure", async () => {
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const e = createHttpEngine({ kind: "local", endpoint: `http://127.0.0.1:${port}/decide`, model: null, api_key_env: null, timeout_ms: GENEROUS_DEADLINE_MS, decision_threshold: 0.6, head_chars: 500 },
      { env: {}, log: () => {}, announced: new Set() });
    const out = await e.decide(REQUEST);
    expect(out.ok ? out : [out.reason, out.detail]).toEqual(["network", "TypeError (ECONNREFUSED)"]);
  });

  it("the caller's abort signal ends the call as cancelled", async () => {
    const ctrl = new AbortController();
    const pending = engine("/slow").e.decide(REQUEST, ctrl.signal);
    setTimeout(() => ctrl.abort(), 50);
    const out = await pending;
    expect(out.ok ? out : [out.reason, out.detail]).toEqual(["cancelled", "caller aborted"]);
  });

  it("a throwing fetch implementation is a network failure, not an exception", async () => {
    const e = createHttpEngine({ kind: "local", endpoint: `${base}/ok`, model: null, api_key_env: null, timeout_ms: GENEROUS_DEADLINE_MS, decision_threshold: 0.6, head_chars: 500 },
      { env: {}, log: () => {}, announced: new Set(), fetch: () => { throw new RangeError("x"); } });
    const out = await e.decide(REQUEST);
    expect(out.ok ? out : [out.reason, out.detail]).toEqual(["network", "RangeError"]);
  });
});
