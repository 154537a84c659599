/**
 * Client authentication settings (pure: env object in, config out; docs/deploy.md "Client
 * authentication"). Who may use the gateway's provider routes:
 *
 * - `SLUICE_CLIENT_KEY_SHA256` (secret): allow-list of provider-key fingerprints, the SHA-256 hex
 *   of the credential a client already sends (`x-api-key`, or `Authorization` without its
 *   `Bearer ` scheme), separated by commas or whitespace. Clients change nothing.
 * - `SLUICE_GATEWAY_KEYS` (secret): gateway keys, separated by commas or whitespace, each at least
 *   MIN_GATEWAY_KEY_CHARS characters, sent in the `x-sluice-key` header (never forwarded: the
 *   header policy drops every `x-sluice-*`). Development values (`dev-only-…`) count only under
 *   wrangler dev (src/config/secrets.ts).
 * - `SLUICE_CLIENT_AUTH` (var): "required", "off", or "" / "auto" (the default). Auto is
 *   "required" when deployed (SLUICE_ENV is not "development") or when either secret holds an
 *   entry, so a deployed gateway is never an open relay; it is "off" only for a local run without
 *   keys (`npm start`, the demo, the tests). A malformed value counts as "required" (fail closed
 *   for unknown callers; allowed callers still pass) and is reported.
 *
 * Unusable entries (not 64 hex digits, too short, a development value outside development) are
 * left out and reported by secret NAME, never by value.
 */
import { DEV_VALUE_PREFIX, isDevelopment } from "./secrets";

export const CLIENT_AUTH_VAR = "SLUICE_CLIENT_AUTH";
export const CLIENT_KEY_FINGERPRINTS_SECRET = "SLUICE_CLIENT_KEY_SHA256";
export const GATEWAY_KEYS_SECRET = "SLUICE_GATEWAY_KEYS";
/** Request header carrying a gateway key (lowercase). */
export const GATEWAY_KEY_HEADER = "x-sluice-key";
/** Shortest gateway key accepted, characters (≈ 96 bits as base64; our floor against guessing). */
export const MIN_GATEWAY_KEY_CHARS = 16;

export type ClientAuthMode = "required" | "off";

export interface ClientAuthConfig {
  mode: ClientAuthMode;
  /** Allowed provider-key fingerprints, lowercase SHA-256 hex. */
  fingerprints: ReadonlySet<string>;
  /** Accepted gateway keys. */
  gatewayKeys: readonly string[];
  /** Problems with the settings: the var or secret NAME and a message naming it (never a value). */
  problems: readonly { name: string; message: string }[];
}

const HEX64 = /^[0-9a-f]{64}$/;

function entries(v: unknown): string[] {
  return typeof v === "string" ? v.split(/[\s,]+/).filter((s) => s !== "") : [];
}

/** Reads the client authentication settings. Never throws. */
export function readClientAuthConfig(env: Readonly<Record<string, unknown>>): ClientAuthConfig {
  const problems: { name: string; message: string }[] = [];
  const problem = (name: string, message: string) => problems.push({ name, message: `${name}: ${message}` });
  const fingerprints = new Set<string>();
  let badFingerprints = 0;
  for (const e of entries(env[CLIENT_KEY_FINGERPRINTS_SECRET])) {
    if (HEX64.test(e.toLowerCase())) fingerprints.add(e.toLowerCase());
    else badFingerprints++;
  }
  if (badFingerprints > 0) problem(CLIENT_KEY_FINGERPRINTS_SECRET, `${badFingerprints} entr${badFingerprints === 1 ? "y is" : "ies are"} not a SHA-256 hex fingerprint (64 hex digits) and ignored`);

  const dev = isDevelopment(env);
  const gatewayKeys: string[] = [];
  let short = 0;
  let devValues = 0;
  for (const e of entries(env[GATEWAY_KEYS_SECRET])) {
    if (e.length < MIN_GATEWAY_KEY_CHARS) short++;
    else if (e.startsWith(DEV_VALUE_PREFIX) && !dev) devValues++;
    else gatewayKeys.push(e);
  }
  if (short > 0) problem(GATEWAY_KEYS_SECRET, `${short} key${short === 1 ? " is" : "s are"} shorter than ${MIN_GATEWAY_KEY_CHARS} characters and ignored`);
  if (devValues > 0) problem(GATEWAY_KEYS_SECRET, `${devValues} development key${devValues === 1 ? "" : "s"} (${DEV_VALUE_PREFIX}…) ignored outside wrangler dev`);

  const raw = env[CLIENT_AUTH_VAR];
  const setting = typeof raw === "string" ? raw.trim() : "";
  let mode: ClientAuthMode;
  if (setting === "required" || setting === "off") mode = setting;
  else {
    if (setting !== "" && setting !== "auto") problem(CLIENT_AUTH_VAR, `must be "required", "off", "auto" or empty: treated as "required"`);
    const keysConfigured = fingerprints.size > 0 || gatewayKeys.length > 0 || badFingerprints + short + devValues > 0;
    mode = setting === "" || setting === "auto" ? (dev && !keysConfigured ? "off" : "required") : "required";
  }
  if (mode === "required" && fingerprints.size === 0 && gatewayKeys.length === 0) {
    problem(CLIENT_AUTH_VAR, `client authentication is required but neither ${CLIENT_KEY_FINGERPRINTS_SECRET} nor ${GATEWAY_KEYS_SECRET} holds a usable entry: every caller is refused (set one, or ${CLIENT_AUTH_VAR}=off)`);
  }
  return { mode, fingerprints, gatewayKeys, problems };
}
