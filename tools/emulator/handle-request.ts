/**
 * The emulator's request router (no I/O: the server shell passes a buffered request and the
 * current time, and writes back the answer). Routes:
 * - POST /v1/messages (Anthropic), POST /v1/chat/completions and POST /v1/responses (OpenAI);
 * - POST /v1/messages/count_tokens (Anthropic) and POST /v1/responses/input_tokens (OpenAI):
 *   the prompt's tokens, nothing billed or cached;
 * - GET /v1/models (Anthropic shape when `anthropic-version` or `x-api-key` is sent, else OpenAI's);
 * - POST /__emulator/reset, GET /__emulator/stats, GET /__emulator/last-body (emulator control,
 *   not part of any real API).
 * Emulator-only request headers: `x-emulator-time` (virtual clock, epoch ms),
 * `x-emulator-reply` (base64 JSON of the assistant message to answer with) and
 * `x-emulator-keep-body: 1` (keep the body for /__emulator/last-body: lets a replay through a
 * gateway see what the gateway forwarded).
 * A body with `content-encoding` (gzip, deflate, br, zstd) is decoded first (./shared/request-text.ts).
 */
import { hashText } from "../../src/core/hash";
import { handleCountTokens } from "./anthropic/handle-count-tokens";
import { handleMessages } from "./anthropic/handle-messages";
import { handleInputTokens } from "./openai-responses/handle-input-tokens";
import { handleChat } from "./openai-chat/handle-chat";
import { handleResponses } from "./openai-responses/handle-responses";
import type { Call, CountResult, HandlerResult } from "./shared/call";
import { formatUsd } from "./shared/compute-cost";
import { anthropicInvalid, openaiInvalid, rejectionBody, type Rejection } from "./shared/errors";
import type { Json } from "./shared/json";
import { ANTHROPIC_PRICES, OPENAI_PRICES } from "./shared/prices";
import { requestText } from "./shared/request-text";
import { keyState, type EmulatorState, type KeyTotals } from "./state";

export interface EmulatorRequest {
  method: string;
  /** Path with optional query string. */
  path: string;
  /** Lower-case header names. */
  headers: Readonly<Record<string, string | undefined>>;
  /** The body: text as received, or the raw bytes (decoded per their `content-encoding`). */
  body: string | Uint8Array;
}

export interface EmulatorResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

type Api = "anthropic" | "openai-chat" | "openai-responses";
const ROUTES: Record<string, Api> = { "/v1/messages": "anthropic", "/v1/chat/completions": "openai-chat", "/v1/responses": "openai-responses" };
const HANDLERS: Record<Api, (c: Call) => HandlerResult> = { anthropic: handleMessages, "openai-chat": handleChat, "openai-responses": handleResponses };
/** Token-counting routes: the API whose auth and validation they use, and the counter. */
const COUNT_ROUTES: Record<string, { api: Api; count: (c: Call) => CountResult }> = {
  "/v1/messages/count_tokens": { api: "anthropic", count: handleCountTokens },
  "/v1/responses/input_tokens": { api: "openai-responses", count: handleInputTokens },
};

const json = (status: number, body: unknown, extra: Record<string, string> = {}): EmulatorResponse => ({
  status,
  headers: { "content-type": "application/json", ...extra },
  body: JSON.stringify(body),
});

/** Answers one request; `now` is the real clock, overridden by `x-emulator-time`. */
export function handleRequest(state: EmulatorState, req: EmulatorRequest, now: number): EmulatorResponse {
  const path = req.path.split("?")[0]!;
  if (req.method === "POST" && path === "/__emulator/reset") {
    state.keys.clear();
    state.seq = 0;
    return json(200, { ok: true });
  }
  if (req.method === "GET" && path === "/__emulator/stats") return json(200, stats(state, req));
  if (req.method === "GET" && path === "/__emulator/last-body") return lastBody(state, req);
  if (req.method === "GET" && path === "/v1/models") return models(req);
  const counter = req.method === "POST" ? COUNT_ROUTES[path] : undefined;
  const api = req.method === "POST" ? ROUTES[path] ?? counter?.api : undefined;
  if (!api) return json(404, { type: "error", error: { type: "not_found_error", message: `No route for ${req.method} ${path}` } });
  return callApi(state, api, req, now, counter?.count);
}

/** API key (+ organisation) a request is billed to, or undefined when it sends none. */
export function requestKey(api: Api, headers: EmulatorRequest["headers"]): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(headers["authorization"] ?? "")?.[1];
  const key = api === "anthropic" ? headers["x-api-key"] ?? bearer : bearer;
  if (!key) return undefined;
  return api === "anthropic" ? `anthropic:${key}` : `openai:${key}|${headers["openai-organization"] ?? ""}`;
}

/** Public id of a key in stats (a hash, so keys never appear in output). */
export function keyId(key: string): string {
  return `key_${hashText(key)}`;
}

function callApi(state: EmulatorState, api: Api, req: EmulatorRequest, realNow: number, count?: (c: Call) => CountResult): EmulatorResponse {
  const invalid = (m: string): Rejection => (api === "anthropic" ? anthropicInvalid(m) : openaiInvalid(m, null));
  const reject = (r: Rejection, k?: KeyTotals) => {
    if (k) k.rejected++;
    return json(r.status, rejectionBody(r), { "x-emulator-cost-usd": formatUsd(0) });
  };
  const key = requestKey(api, req.headers);
  if (key === undefined) {
    return api === "anthropic"
      ? reject({ api: "anthropic", status: 401, type: "authentication_error", message: "x-api-key header is required" })
      : reject({
          api: "openai",
          status: 401,
          type: "invalid_request_error",
          message: "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
          param: null,
          code: null,
        });
  }
  const ks = keyState(state, key);
  ks.totals.requests++;

  const timeHeader = req.headers["x-emulator-time"];
  const now = timeHeader === undefined ? realNow : Number(timeHeader);
  if (!Number.isSafeInteger(now) || now < 0) return reject(invalid("x-emulator-time: expected integer epoch milliseconds"), ks.totals);
  let reply: Json | undefined;
  const replyHeader = req.headers["x-emulator-reply"];
  if (replyHeader !== undefined) {
    try {
      reply = JSON.parse(Buffer.from(replyHeader, "base64").toString("utf8")) as Json;
    } catch {
      return reject(invalid("x-emulator-reply: expected base64 of a JSON value"), ks.totals);
    }
  }
  const text = requestText(req.headers["content-encoding"], req.body);
  if (!text.ok) return reject(invalid(text.message), ks.totals);
  let body: Json;
  try {
    body = JSON.parse(text.text) as Json;
  } catch {
    return reject(
      api === "anthropic"
        ? anthropicInvalid("There was an error parsing the body of your request. Please check that the body is valid JSON.")
        : openaiInvalid("We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly.)", null),
      ks.totals,
    );
  }

  const call: Call = { body, headers: req.headers, now, reply, key: ks, seq: ++state.seq };
  if (count !== undefined) {
    const counted = count(call);
    return counted.kind === "rejected" ? reject(counted.rejection, ks.totals) : json(200, counted.body, { "x-emulator-cost-usd": formatUsd(0) });
  }
  const result = HANDLERS[api](call);
  if (result.kind === "rejected") return reject(result.rejection, ks.totals);
  ks.lastBody = req.headers["x-emulator-keep-body"] === "1" ? text.text : null;
  const t = ks.totals;
  t.input_tokens += result.usage.uncached;
  t.cache_read_tokens += result.usage.cacheRead;
  t.cache_write_tokens += result.usage.cacheWrite5m + result.usage.cacheWrite1h;
  t.output_tokens += result.usage.output;
  t.cost_nano += result.costNano;
  const headers: Record<string, string> = {
    "content-type": result.stream ? "text/event-stream; charset=utf-8" : "application/json",
    "x-emulator-cost-usd": formatUsd(result.costNano),
    "x-emulator-input-cost-usd": formatUsd(result.inputCostNano),
    "request-id": `req_emu${state.seq}`,
  };
  if (result.stream) headers["cache-control"] = "no-cache";
  if (!result.knownModel) headers["x-emulator-warning"] = "unknown model: default price used (docs/emulator.md)";
  return { status: 200, headers, body: result.body };
}

function stats(state: EmulatorState, req: EmulatorRequest) {
  const view = (t: KeyTotals) => ({ ...t, cost_usd: formatUsd(t.cost_nano) });
  const keys: Record<string, ReturnType<typeof view>> = {};
  for (const [k, s] of state.keys) keys[keyId(k)] = view(s.totals);
  const self = [requestKey("anthropic", req.headers), requestKey("openai-chat", req.headers)]
    .map((k) => (k === undefined ? undefined : state.keys.get(k)))
    .find((k) => k !== undefined);
  return { keys, ...(self ? { self: view(self.totals) } : {}) };
}

/** The caller's (by its auth header) last kept request body, as sent; 404 when none was kept. */
function lastBody(state: EmulatorState, req: EmulatorRequest): EmulatorResponse {
  const ks = [requestKey("anthropic", req.headers), requestKey("openai-chat", req.headers)]
    .map((k) => (k === undefined ? undefined : state.keys.get(k)))
    .find((k) => k !== undefined && k.lastBody !== null);
  if (!ks || ks.lastBody === null) return json(404, { type: "error", error: { type: "not_found_error", message: "no kept body for this key (send x-emulator-keep-body: 1)" } });
  return { status: 200, headers: { "content-type": "application/json" }, body: ks.lastBody };
}

function models(req: EmulatorRequest): EmulatorResponse {
  if (req.headers["anthropic-version"] !== undefined || req.headers["x-api-key"] !== undefined) {
    const data = ANTHROPIC_PRICES.map((p) => ({ type: "model", id: p.prefix, display_name: p.prefix, created_at: "2025-01-01T00:00:00Z" }));
    return json(200, { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null });
  }
  return json(200, { object: "list", data: OPENAI_PRICES.map((p) => ({ id: p.prefix, object: "model", created: 1_700_000_000, owned_by: "openai" })) });
}
