/**
 * The scripted model upstream (Node HTTP shell on 127.0.0.1). Speaks what the real APIs serve at
 * their roots — `POST /v1/messages` (JSON or SSE), `POST /v1/messages/count_tokens`,
 * `POST /v1/responses` (SSE), and `POST /v1/responses/compact` (./compact-endpoint.ts) — by
 * handing every other request to the emulator's own router
 * (tools/emulator/handle-request.ts: the same validation rules, a 400 in the provider's error
 * shape on any violation, prompt caching and billing) with the scripted answer in its
 * `x-emulator-reply` header. The answer comes from the session plan (script-anthropic.ts,
 * script-responses.ts) and the run the API key was registered for. Every request is recorded
 * (bytes, headers, decoded body, status, rejection); WebSocket upgrades are recorded and refused.
 */
import { createHash } from "node:crypto";
import http from "node:http";
import { handleRequest, requestKey } from "../emulator/handle-request";
import { segmentAnthropicPrompt } from "../emulator/anthropic/segment-prompt";
import { validateAnthropicRequest } from "../emulator/anthropic/validate-request";
import { isObject, type Json } from "../emulator/shared/json";
import { totalTokens } from "../emulator/shared/prompt-block";
import { MAX_HEADER_BYTES } from "../emulator/server";
import { createState, keyState, type EmulatorState, type KeyTotals } from "../emulator/state";
import { answerCompact, COMPACT_ROUTE } from "./compact-endpoint";
import { decodeBody } from "./decode-body";
import { flatHeaders, listenLocal } from "./local-server";
import type { RecordedRequest, RecordedUpgrade } from "./request-record";
import { anthropicReply, type ScriptRun } from "./script-anthropic";
import { responsesReply } from "./script-responses";
import { needsSystemShim, systemAsUser, systemMessageProblem } from "./system-message-rule";

/** A running scripted upstream. */
export interface ScriptedUpstream {
  url: string;
  /** Registers the run that requests with `apiKey` belong to (and starts its recording). */
  register: (apiKey: string, run: ScriptRun) => void;
  /** Requests received with `apiKey`, in order. */
  requests: (apiKey: string) => RecordedRequest[];
  /** The emulator's billing totals for `apiKey` on `api`. */
  totals: (apiKey: string, api: "anthropic" | "openai") => KeyTotals;
  /** Requests whose API key was never registered (or that sent none). */
  strays: RecordedRequest[];
  upgrades: RecordedUpgrade[];
  close: () => Promise<void>;
}

function apiKeyOf(headers: Record<string, string>): string | undefined {
  return headers["x-api-key"] ?? /^Bearer\s+(.+)$/i.exec(headers["authorization"] ?? "")?.[1];
}

/** The emulator's answer for one request, with the scripted reply and the system-message rule applied. */
function answer(state: EmulatorState, path: string, method: string, headers: Record<string, string>, text: string, run: ScriptRun | undefined) {
  const route = path.split("?")[0]!;
  let body: Json | undefined;
  try {
    body = JSON.parse(text) as Json;
  } catch {
    body = undefined;
  }
  if (route === COMPACT_ROUTE && method === "POST" && run) return answerCompact(state, headers, text, run, Date.now());
  if (route === "/v1/messages/count_tokens" && isObject(body)) {
    return { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify({ input_tokens: totalTokens(segmentAnthropicPrompt(body)) }) };
  }
  let forward = text;
  const extra: Record<string, string> = {};
  if (route === "/v1/messages" && isObject(body) && run) {
    const key = requestKey("anthropic", headers);
    const rejection = key ? validateAnthropicRequest(body, { issuedThinking: keyState(state, key).issuedThinking }) : null;
    if (rejection && needsSystemShim(body, rejection.message)) {
      const problem = systemMessageProblem(body);
      if (problem) return { status: 400, headers: { "content-type": "application/json" }, body: JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: problem } }) };
      forward = JSON.stringify(systemAsUser(body));
    }
    extra["x-emulator-reply"] = Buffer.from(JSON.stringify(anthropicReply(body, run))).toString("base64");
  } else if (route === "/v1/responses" && isObject(body) && run) {
    extra["x-emulator-reply"] = Buffer.from(JSON.stringify(responsesReply(body, run))).toString("base64");
  }
  return handleRequest(state, { method, path, headers: { ...headers, ...extra }, body: forward }, Date.now());
}

/** Starts the scripted upstream on 127.0.0.1 (port 0 = any free port). */
export async function startScriptedUpstream(port = 0): Promise<ScriptedUpstream> {
  const state = createState();
  const runs = new Map<string, { run: ScriptRun; requests: RecordedRequest[] }>();
  const strays: RecordedRequest[] = [];
  const upgrades: RecordedUpgrade[] = [];
  let seq = 0;
  const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES }, async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const headers = flatHeaders(req.headers);
    const decoded = decodeBody(raw, headers["content-encoding"]);
    const text = decoded?.toString("utf8") ?? "";
    const key = apiKeyOf(headers);
    const entry = key === undefined ? undefined : runs.get(key);
    const url = req.url ?? "/";
    let out;
    try {
      out = decoded === null
        ? { status: 415, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: { message: `undecodable content-encoding ${headers["content-encoding"]}` } }) }
        : answer(state, url, req.method ?? "GET", headers, text, entry?.run);
    } catch (e) {
      out = { status: 500, headers: { "content-type": "application/json" }, body: JSON.stringify({ type: "error", error: { type: "api_error", message: `scripted upstream bug: ${String(e)}` } }) };
    }
    const responseHeaders = Object.fromEntries(Object.entries(out.headers).filter(([k]) => k.startsWith("x-emulator-")));
    const rejection = out.status >= 400 && out.status < 500 ? out.body : null;
    const responseSha256 = createHash("sha256").update(out.body).digest("hex");
    const record: RecordedRequest = { seq: ++seq, method: req.method ?? "GET", url, headers, bytes: raw.length, body: text, status: out.status, responseHeaders, rejection, responseSha256 };
    (entry ? entry.requests : strays).push(record);
    res.writeHead(out.status, out.headers);
    res.end(out.body);
  });
  server.on("upgrade", (req, socket) => {
    upgrades.push({ url: req.url ?? "/", headers: flatHeaders(req.headers), status: 404, answer_ms: 0 });
    socket.end("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
  });
  const local = await listenLocal(server, port);
  const empty: KeyTotals = { requests: 0, rejected: 0, input_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0, output_tokens: 0, cost_nano: 0 };
  return {
    url: local.url,
    register: (apiKey, run) => void runs.set(apiKey, { run, requests: [] }),
    requests: (apiKey) => runs.get(apiKey)?.requests ?? [],
    totals: (apiKey, api) => {
      const k = requestKey(api === "anthropic" ? "anthropic" : "openai-responses", api === "anthropic" ? { "x-api-key": apiKey } : { authorization: `Bearer ${apiKey}` });
      return k ? state.keys.get(k)?.totals ?? empty : empty;
    },
    strays,
    upgrades,
    close: local.close,
  };
}
