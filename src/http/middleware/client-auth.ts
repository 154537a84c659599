/**
 * Client authentication on the provider routes (shell, Hono middleware; settings in
 * src/config/client-auth-config.ts, docs/deploy.md "Client authentication"). Sets the `caller`
 * variable for the rate limit and the route, then:
 *
 * - mode "off": every request passes.
 * - mode "required": a request passes when its `x-sluice-key` equals one of the gateway keys
 *   (Hono's timingSafeEqual: SHA-256 of both sides, constant-time compare), or, without that
 *   header, when the SHA-256 of its provider credential is in the allow-list. Anything else —
 *   no credential, a wrong gateway key, an unlisted provider key — gets the provider's own 401
 *   shape from Sluice: no upstream call, no Durable Object, only the rejected counter.
 *
 * A request with no credential at all never reaches the compaction hook in any mode (the route
 * drops it when `caller.id` is null), so it never creates session state.
 */
import type { MiddlewareHandler } from "hono";
import { timingSafeEqual } from "hono/utils/buffer";
import type { Env } from "../../config/env";
import { CLIENT_KEY_FINGERPRINTS_SECRET, GATEWAY_KEY_HEADER, GATEWAY_KEYS_SECRET, readClientAuthConfig, type ClientAuthConfig } from "../../config/client-auth-config";
import { providerError, type ProviderFamily } from "../../gateway/provider-errors";
import type { RequestIdVariables } from "../request-id";
import { callerOf, credentialsOf, type CallerVariables } from "./caller";
import { recordRejection } from "./rejections";

type Vars = { Bindings: Env; Variables: RequestIdVariables & CallerVariables };

/** The settings for the env, parsed once per distinct value of the three vars (isolate memory). */
const memo = new Map<string, ClientAuthConfig>();
const MEMO_MAX = 16;
function configOf(env: Env): ClientAuthConfig {
  const key = JSON.stringify([env.SLUICE_CLIENT_AUTH, env[CLIENT_KEY_FINGERPRINTS_SECRET], env[GATEWAY_KEYS_SECRET], env.SLUICE_ENV]);
  let c = memo.get(key);
  if (!c) {
    c = readClientAuthConfig(env);
    for (const p of c.problems) console.warn(`sluice: ${p.message}`);
    if (memo.size >= MEMO_MAX) memo.delete(memo.keys().next().value!);
    memo.set(key, c);
  }
  return c;
}

async function matchesAny(presented: string, keys: readonly string[]): Promise<boolean> {
  let found = false;
  // Every key is compared (no early exit), so timing does not tell which one matched.
  for (const k of keys) if (await timingSafeEqual(k, presented)) found = true;
  return found;
}

/** The middleware for `family`'s routes. */
export function clientAuth(family: ProviderFamily): MiddlewareHandler<Vars> {
  return async (c, next) => {
    const config = configOf(c.env);
    const credentials = credentialsOf(c.req.raw.headers);
    const caller = await callerOf(credentials);
    c.set("caller", caller);
    if (config.mode === "off") return next();

    let detail: string | null = null;
    if (credentials.gatewayKey !== null) {
      if (!(await matchesAny(credentials.gatewayKey, config.gatewayKeys))) detail = `the ${GATEWAY_KEY_HEADER} header holds no valid gateway key`;
    } else if (caller.providerFingerprint === null) {
      detail = `send a gateway key in the ${GATEWAY_KEY_HEADER} header, or an allowed provider API key`;
    } else if (!config.fingerprints.has(caller.providerFingerprint)) {
      detail = `this API key is not on the gateway's allow-list (send a gateway key in the ${GATEWAY_KEY_HEADER} header, or ask the operator to allow the key)`;
    }
    if (detail === null) return next();
    recordRejection("unauthenticated", family, c.var.requestId);
    return providerError(family, { code: "unauthenticated", detail }, c.var.requestId);
  };
}
