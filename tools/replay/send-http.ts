/**
 * The HTTP sender (I/O): posts a request body to the provider emulator and reads what it billed.
 * Emulator contract: endpoints /v1/messages, /v1/chat/completions, /v1/responses;
 * request headers `x-emulator-time` (virtual clock, epoch ms) and `x-emulator-reply` (base64 of
 * the recorded reply's JSON); usage in each API's real usage fields (read with
 * src/usage/extract-usage.ts); cost in response headers `x-emulator-cost-usd` (whole call) and
 * `x-emulator-input-cost-usd` (its input side). Errors come in the APIs' real error shapes
 * ({error:{message}} on both providers).
 * Note: a recorded reply can be tens of KB; the emulator's HTTP server accepts headers that large
 * (tools/emulator/server.ts MAX_HEADER_BYTES; Node's default limit is 16 KB).
 */
import { usageFromJson } from "../../src/usage/extract-usage";
import { agentHeaders } from "./agent-headers";
import type { Provider, SendFn, SendOptions, SendResult } from "./types";

/** Endpoint path per provider. */
export const ENDPOINT_PATH: Record<Provider, string> = {
  anthropic: "/v1/messages",
  "openai-chat": "/v1/chat/completions",
  "openai-responses": "/v1/responses",
};

/** The agent's headers plus the emulator's (virtual time, recorded reply) for one call. */
export function emulatorCallHeaders(provider: Provider, opts: SendOptions): Record<string, string> {
  return {
    ...agentHeaders(provider, opts.key, opts.key),
    "x-emulator-time": String(opts.time_ms),
    "x-emulator-reply": Buffer.from(JSON.stringify(opts.reply), "utf8").toString("base64"),
    ...opts.headers,
  };
}

/** Posts one call to `url` and reads status, usage, billed cost and round-trip time. */
export async function postCall(fetchImpl: typeof fetch, url: string, provider: Provider, headers: Record<string, string>, body: string): Promise<SendResult> {
  const t0 = performance.now();
  const res = await fetchImpl(url, { method: "POST", headers, body });
  const text = await res.text();
  const latency_ms = performance.now() - t0;
  const usd = (name: string): number => {
    const v = Number(res.headers.get(name) ?? Number.NaN);
    return Number.isFinite(v) ? v : 0;
  };
  const cost_usd = usd("x-emulator-cost-usd");
  const note = res.headers.get("x-sluice-compaction");
  const extra = note === null ? {} : { note };
  if (!res.ok) {
    return { status: res.status, usage: { input: 0, cache_read: 0, cache_write: 0, output: 0 }, cost_usd, input_cost_usd: 0, latency_ms, rejected: errorMessage(text, res.status), ...extra };
  }
  const u = usageFromJson(provider, text);
  const usage = u === null
    ? { input: 0, cache_read: 0, cache_write: 0, output: 0 }
    : { input: u.input_tokens, cache_read: u.cache_read_input_tokens, cache_write: u.cache_creation_input_tokens, output: u.output_tokens };
  return { status: res.status, usage, cost_usd, input_cost_usd: usd("x-emulator-input-cost-usd"), latency_ms, ...extra };
}

/** A sender posting to the emulator at `baseUrl` (no trailing slash needed). */
export function createHttpSender(baseUrl: string, fetchImpl: typeof fetch = fetch): SendFn {
  const base = baseUrl.replace(/\/+$/, "");
  return (provider, body, opts) => postCall(fetchImpl, `${base}${ENDPOINT_PATH[provider]}`, provider, emulatorCallHeaders(provider, opts), body);
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
