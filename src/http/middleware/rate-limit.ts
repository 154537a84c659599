/**
 * Per-caller rate limit on the provider routes (shell, Hono middleware) with Cloudflare's Workers
 * Rate Limiting binding (`[[ratelimits]]` in wrangler.toml, binding RATE_LIMIT_BINDING; it runs
 * locally under wrangler dev and the Workers tests too). Runs after client authentication.
 *
 * - Key: the caller id (SHA-256 of the gateway key or the provider credential, never a key
 *   itself); a request without credential is counted by `cf-connecting-ip`.
 * - Over the limit: the provider's own 429 shape from Sluice with `retry-after` =
 *   SLUICE_RATE_LIMIT_PERIOD_SECONDS (the binding's `simple.period`: the longest a fixed window
 *   can still run), no upstream call, only the rejected counter.
 * - No binding, or the binding failing: the request passes (fail open: the limit protects the
 *   deployment, it must never break an allowed caller's request).
 */
import type { MiddlewareHandler } from "hono";
import type { Env } from "../../config/env";
import { providerError, type ProviderFamily } from "../../gateway/provider-errors";
import type { RequestIdVariables } from "../request-id";
import type { CallerVariables } from "./caller";
import { recordRejection } from "./rejections";

/** The binding's name in wrangler.toml `[[ratelimits]]`. */
export const RATE_LIMIT_BINDING = "SLUICE_RATE_LIMITER";
/** Var holding the binding's period in seconds, for `retry-after`. */
export const RATE_LIMIT_PERIOD_VAR = "SLUICE_RATE_LIMIT_PERIOD_SECONDS";
/** Periods the binding accepts, seconds (Cloudflare: 10 or 60). */
export const RATE_LIMIT_PERIODS = [10, 60] as const;
/** Default period, seconds: the one wrangler.toml ships. */
export const DEFAULT_RATE_LIMIT_PERIOD_S = 60;

type Vars = { Bindings: Env; Variables: RequestIdVariables & CallerVariables };

/** The `retry-after` seconds for the env: the period var when it is 10 or 60, else the default. */
export function retryAfterSeconds(env: Readonly<Record<string, unknown>>): number {
  const n = Number(env[RATE_LIMIT_PERIOD_VAR]);
  return (RATE_LIMIT_PERIODS as readonly number[]).includes(n) ? n : DEFAULT_RATE_LIMIT_PERIOD_S;
}

let warnedMissing = false;

/** The middleware for `family`'s routes. */
export function rateLimit(family: ProviderFamily): MiddlewareHandler<Vars> {
  return async (c, next) => {
    const limiter = c.env[RATE_LIMIT_BINDING] as RateLimit | undefined;
    if (!limiter || typeof limiter.limit !== "function") {
      if (!warnedMissing) { warnedMissing = true; console.warn(`sluice: no ${RATE_LIMIT_BINDING} binding: callers are not rate-limited`); }
      return next();
    }
    const key = c.var.caller?.id ?? `ip:${c.req.header("cf-connecting-ip") ?? "unknown"}`;
    let allowed = true;
    try {
      allowed = (await limiter.limit({ key })).success;
    } catch (err) {
      console.error(JSON.stringify({ event: "rate_limit_failed_open", family, request_id: c.var.requestId, error: (err as Error)?.name ?? "Error" }));
    }
    if (allowed) return next();
    recordRejection("rate_limited", family, c.var.requestId);
    return providerError(family, { code: "rate_limited", retryAfterSeconds: retryAfterSeconds(c.env) }, c.var.requestId);
  };
}
