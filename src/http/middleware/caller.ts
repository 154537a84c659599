/**
 * Who is calling (pure apart from Web Crypto hashing): the credentials a request carries and the
 * caller id the rate limit counts by.
 *
 * - Provider credential: the first of `x-api-key` (Anthropic), `Authorization` (OpenAI, Claude
 *   Code OAuth), `api-key` (Azure OpenAI) — session-id.ts `providerKeyOf` — without a `Bearer `
 *   scheme. Empty values count as absent.
 * - Gateway key: the `x-sluice-key` header.
 * - Caller id: "g:" + SHA-256 hex of the gateway key when one is sent, else "p:" + SHA-256 hex of
 *   the provider credential, else null (no credential). Hashes only: no key is kept or logged.
 */
import { GATEWAY_KEY_HEADER } from "../../config/client-auth-config";
import { sha256Hex } from "../../core/audit/digest";
import { providerKeyOf } from "../../gateway/session-id";

export interface Credentials {
  providerKey: string | null;
  gatewayKey: string | null;
}

/** The caller as the middlewares pass it on (Hono variable `caller`). */
export interface Caller {
  /** "g:<sha256 hex>" or "p:<sha256 hex>", or null when the request carries no credential. */
  id: string | null;
  /** SHA-256 hex of the provider credential, or null. */
  providerFingerprint: string | null;
}

export type CallerVariables = { caller: Caller };

/** The credentials in `headers`. */
export function credentialsOf(headers: Headers): Credentials {
  const providerKey = providerKeyOf(headers);
  const gatewayKey = headers.get(GATEWAY_KEY_HEADER)?.trim() ?? "";
  return { providerKey, gatewayKey: gatewayKey || null };
}

/** The caller for `credentials` (hashes computed once per request; a fingerprint is what `printf '%s' "$KEY" | sha256sum` prints). */
export async function callerOf(credentials: Credentials): Promise<Caller> {
  const providerFingerprint = credentials.providerKey === null ? null : await sha256Hex(credentials.providerKey);
  const id = credentials.gatewayKey !== null ? `g:${await sha256Hex(credentials.gatewayKey)}` : providerFingerprint !== null ? `p:${providerFingerprint}` : null;
  return { id, providerFingerprint };
}
