/**
 * Correlation id middleware (shell). Every response, including 404s, gateway errors and
 * /healthz, carries `x-sluice-request-id`. The id is always ours (a random UUID): a client-sent
 * `x-sluice-request-id` is ignored here and never forwarded upstream (headers.ts drops x-sluice-*).
 *
 * Hono's own requestId middleware sets the header before `next()`, which is lost when a handler
 * returns a Response object (the proxied ones), so we set it after `next()` on the final response.
 */
import type { MiddlewareHandler } from "hono";

/** Response header carrying the correlation id. */
export const REQUEST_ID_HEADER = "x-sluice-request-id";

/** Context variables this middleware provides: `requestId` (UUID string). */
export type RequestIdVariables = { requestId: string };

/** Sets c.var.requestId before the handler and the response header after it. */
export function sluiceRequestId(): MiddlewareHandler<{ Variables: RequestIdVariables }> {
  return async (c, next) => {
    const id = crypto.randomUUID();
    c.set("requestId", id);
    await next();
    c.res.headers.set(REQUEST_ID_HEADER, id);
  };
}
