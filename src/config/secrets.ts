/**
 * Secrets and the deployment environment (pure: env object in, verdicts out). DESIGN §11:
 * every key is a secret, never a var, and a development value refuses to work outside
 * `wrangler dev`.
 *
 * - "Inside wrangler dev" means the var `SLUICE_ENV` is exactly "development". Only local runs set
 *   it: `.dev.vars` (see `.dev.vars.example`), `npm start` and the tools that start wrangler dev
 *   pass it with `--var`, and vitest.config.ts injects it for the Workers tests. wrangler.toml
 *   never holds it and `npm run deploy:check` refuses it in any production vars table, so a
 *   deployed Worker is never "development". Request `cf` properties were not used: wrangler dev
 *   fills them with real-looking values, so they cannot tell the two apart.
 * - A development value is one starting with DEV_VALUE_PREFIX ("dev-only-"). Outside development
 *   such a value counts as unset: the audit trail refuses to sign, a gateway key is refused.
 * - Problems are reported by secret NAME, never by value.
 */

/** The var that marks a local `wrangler dev` run (value "development"). */
export const ENV_VAR = "SLUICE_ENV";

/** Values starting with this are development values (refused outside wrangler dev). */
export const DEV_VALUE_PREFIX = "dev-only-";

/**
 * The development audit key used by `wrangler dev` (from `.dev.vars` or `--var`) and the tests.
 * Outside development it is refused like any other DEV_VALUE_PREFIX value.
 */
export const DEV_AUDIT_KEY = "dev-only-audit-key-not-for-production";

/** Vars a local run gets by default (`npm start`, tools/shared/start-wrangler-dev.ts, vitest). */
export const DEVELOPMENT_VARS: Readonly<Record<string, string>> = {
  [ENV_VAR]: "development",
  SLUICE_AUDIT_KEY: DEV_AUDIT_KEY,
};

/** Why a secret cannot be used. */
export type SecretProblem = "missing" | "development_value";

/** True when the env is a local `wrangler dev` (or test) run: `SLUICE_ENV` is "development". */
export function isDevelopment(env: Readonly<Record<string, unknown>>): boolean {
  return env[ENV_VAR] === "development";
}

/** Problem with the secret NAMED `name` in `env`, or null when it can be used. */
export function secretProblem(env: Readonly<Record<string, unknown>>, name: string): SecretProblem | null {
  const v = env[name];
  if (typeof v !== "string" || v === "") return "missing";
  if (v.startsWith(DEV_VALUE_PREFIX) && !isDevelopment(env)) return "development_value";
  return null;
}

/** The value of the secret NAMED `name`, or null when it is unset or a development value outside development. */
export function usableSecret(env: Readonly<Record<string, unknown>>, name: string): string | null {
  return secretProblem(env, name) === null ? (env[name] as string) : null;
}

/** A sentence naming the secret and its problem (never the value). */
export function secretProblemMessage(name: string, problem: SecretProblem): string {
  return problem === "missing"
    ? `${name} is not set (wrangler secret put ${name})`
    : `${name} holds a development value (${DEV_VALUE_PREFIX}…) outside wrangler dev: set a real secret (wrangler secret put ${name})`;
}
