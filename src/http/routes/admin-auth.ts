/**
 * Admin bearer-token check (shell, Hono middleware; DESIGN §9). The token is the secret whose
 * NAME is the config's `admin_token_env` (src/config/admin-token-env.ts: default
 * SLUICE_ADMIN_TOKEN, the default also when the config is invalid).
 *
 * 1. Secret unset or empty, or a development value (`dev-only-…`) outside wrangler dev → 503
 *    naming the env var NAME (never a value) and where to set it: `.dev.vars` under wrangler dev
 *    (read once at start: restart after a change), `wrangler secret put` when deployed.
 * 2. Otherwise Hono's bearer-auth middleware: no `Authorization` → 401, malformed header →
 *    400, token not equal → 401. The compare is hono/utils/buffer `timingSafeEqual` (SHA-256
 *    of both sides, then a constant-time compare), so timing does not leak the token length
 *    or prefix. Error bodies are fixed JSON; the presented token is never echoed or logged.
 */
import type { MiddlewareHandler } from "hono";
import { bearerAuth } from "hono/bearer-auth";
import { timingSafeEqual } from "hono/utils/buffer";
import type { Env } from "../../config/env";
import { adminTokenEnv } from "../../config/admin-token-env";
import { isDevelopment, secretProblem, secretProblemMessage, usableSecret } from "../../config/secrets";

/** The admin token, or null when the secret is unset (or a development value outside wrangler dev). */
export function adminToken(env: Env): string | null {
  return usableSecret(env, adminTokenEnv(env));
}

/** The 503 message for an unusable admin token secret `name`. */
export function adminDisabledMessage(env: Env, name: string): string {
  if (isDevelopment(env)) return `admin API disabled: set the secret ${name} (under wrangler dev: add ${name}=<token> to .dev.vars, then restart wrangler dev)`;
  return `admin API disabled: ${secretProblemMessage(name, secretProblem(env, name) ?? "missing")}`;
}

const unauthorized = { error: { type: "unauthorized", message: "admin routes need Authorization: Bearer <admin token>" } };

/** The middleware guarding every admin route. */
export function adminAuth(): MiddlewareHandler<{ Bindings: Env }> {
  const check = bearerAuth<{ Bindings: Env }>({
    verifyToken: async (token, c) => {
      const expected = adminToken(c.env);
      return expected !== null && (await timingSafeEqual(expected, token));
    },
    noAuthenticationHeader: { message: unauthorized },
    invalidToken: { message: unauthorized },
    invalidAuthenticationHeader: { message: { error: { type: "bad_request", message: "Authorization must be Bearer <token> (token68 characters)" } } },
  });
  return async (c, next) => {
    if (adminToken(c.env) === null) {
      const name = adminTokenEnv(c.env);
      return c.json({ error: { type: "admin_disabled", message: adminDisabledMessage(c.env, name), field: name } }, 503);
    }
    return check(c, next);
  };
}
