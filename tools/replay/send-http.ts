/**
 * The HTTP sender (I/O): posts a request body to the provider emulator and reads what it billed.
 * Emulator contract (issue 7): endpoints /v1/messages, /v1/chat/completions, /v1/responses;
 * request headers `x-emulator-time` (virtual clock, epoch ms) and `x-emulator-reply` (base64 of
 * the recorded reply's JSON); usage in each API's real usage fields (read with
 * src/usage/extract-usage.ts); cost in response header `x-emulator-cost-usd`. Errors come in
 * the APIs' real error shapes ({error:{message}} on both providers).
 * Note: a recorded reply can be tens of KB; the emulator's HTTP server must accept headers that
 * large (Node's default limit is 16 KB: `http.createServer({maxHeaderSize})`).
 */
import { usageFromJson } from "../../src/usage/extract-usage";
import { agentHeaders } from "./agent-headers";
import type { Provider, SendFn } from "./types";

/** Endpoint path per provider. */
export const ENDPOINT_PATH: Record<Provider, string> = {
  anthropic: "/v1/messages",
  "openai-chat": "/v1/chat/completions",
  "openai-responses": "/v1/responses",
};

/** A sender posting to the emulator at `baseUrl` (no trailing slash needed). */
export function createHttpSender(baseUrl: string, fetchImpl: typeof fetch = fetch): SendFn {
  const base = baseUrl.replace(/\/+$/, "");
  return async (provider, body, opts) => {
    const headers = {
      ...agentHeaders(provider, opts.key, opts.key),
      "x-emulator-time": String(opts.time_ms),
      "x-emulator-reply": Buffer.from(JSON.stringify(opts.reply), "utf8").toString("base64"),
    };
    const t0 = performance.now();
    const res = await fetchImpl(`${base}${ENDPOINT_PATH[provider]}`, { method: "POST", headers, body });
    const text = await res.text();
    const latency_ms = performance.now() - t0;
    const costHeader = Number(res.headers.get("x-emulator-cost-usd"));
    const cost_usd = Number.isFinite(costHeader) ? costHeader : 0;
    if (!res.ok) {
      return { status: res.status, usage: { input: 0, cache_read: 0, cache_write: 0, output: 0 }, cost_usd, latency_ms, rejected: errorMessage(text, res.status) };
    }
    const u = usageFromJson(provider, text);
    const usage = u === null
      ? { input: 0, cache_read: 0, cache_write: 0, output: 0 }
      : { input: u.input_tokens, cache_read: u.cache_read_input_tokens, cache_write: u.cache_creation_input_tokens, output: u.output_tokens };
    return { status: res.status, usage, cost_usd, latency_ms };
  };
}

/** The API error message of an error body (`error.message`), else the status and the first 200 chars. */
function errorMessage(text: string, status: number): string {
  try {
    const v = JSON.parse(text) as { error?: { message?: unknown; type?: unknown } };
    if (typeof v.error?.message === "string") return `HTTP ${status}: ${v.error.message}`;
  } catch {
    // not JSON
  }
  return `HTTP ${status}: ${text.slice(0, 200)}`;
}
