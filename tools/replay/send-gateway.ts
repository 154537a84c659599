/**
 * The gateway sender (I/O): Sluice end to end over HTTP. Posts the agent's ORIGINAL body to the
 * gateway (`wrangler dev`) at its provider route (/anthropic/v1/messages,
 * /openai/v1/chat/completions, /openai/v1/responses) with the agent's headers (incl.
 * `x-sluice-session`) and the emulator's (`x-emulator-time`, `x-emulator-reply`, and
 * `x-emulator-keep-body: 1`), which the gateway forwards upstream untouched — none is hop-by-hop
 * or `x-sluice-*` (src/gateway/headers.ts). The gateway's upstream is the emulator; after each
 * call the sender reads back from the emulator (`GET /__emulator/last-body`, same credential)
 * what the gateway forwarded, so pairs removed and re-fetches are measured on the real bytes.
 * The round trip it reports includes the gateway; the report compares it with `none`'s direct one.
 */
import { agentHeaders } from "./agent-headers";
import { emulatorCallHeaders, ENDPOINT_PATH, postCall } from "./send-http";
import type { Provider, SendFn } from "./types";

/** Gateway route prefix per provider (src/http/app.ts). */
export const GATEWAY_PREFIX: Record<Provider, string> = { anthropic: "/anthropic", "openai-chat": "/openai", "openai-responses": "/openai" };

/** A sender through the gateway at `gatewayUrl`, reading forwarded bodies from the emulator at `emulatorUrl`. */
export function createGatewaySender(gatewayUrl: string, emulatorUrl: string, fetchImpl: typeof fetch = fetch): SendFn {
  const gw = gatewayUrl.replace(/\/+$/, "");
  const emu = emulatorUrl.replace(/\/+$/, "");
  return async (provider, body, opts) => {
    const headers = { ...emulatorCallHeaders(provider, opts), "x-emulator-keep-body": "1" };
    const res = await postCall(fetchImpl, `${gw}${GATEWAY_PREFIX[provider]}${ENDPOINT_PATH[provider]}`, provider, headers, body);
    if (res.status >= 400) return { ...res, forwarded: null };
    const auth = agentHeaders(provider, opts.key, opts.key);
    delete auth["x-sluice-session"];
    const back = await fetchImpl(`${emu}/__emulator/last-body`, { headers: auth });
    return { ...res, forwarded: back.ok ? await back.text() : null };
  };
}
