/**
 * What a production vars table of wrangler.toml must not hold (pure; used by `npm run
 * config:check` and `npm run deploy:check`): a secret as a var, a development value
 * (`dev-only-…`), or `SLUICE_ENV` (it marks a local wrangler dev run and would make the Worker
 * accept development keys). Messages name vars, never values.
 */
import { CLIENT_KEY_FINGERPRINTS_SECRET, GATEWAY_KEYS_SECRET } from "../../src/config/client-auth-config";
import { DEFAULTS } from "../../src/config/defaults";
import { loadConfig, type ConfigEnv } from "../../src/config/load-config";
import { DEV_VALUE_PREFIX, ENV_VAR } from "../../src/config/secrets";

/** The secret NAMES a vars table implies: admin token, audit key, the engine and summariser keys (api_key_env) and the client-auth secrets. */
export function secretNames(vars: ConfigEnv): string[] {
  const r = loadConfig(vars);
  const names = r.ok
    ? [r.config.admin_token_env, r.config.audit_key_env, ...(r.config.api_key_env ? [r.config.api_key_env] : []),
      ...(r.config.summarizer?.api_key_env ? [r.config.summarizer.api_key_env] : [])]
    : [DEFAULTS.admin_token_env, DEFAULTS.audit_key_env];
  return [...names, CLIENT_KEY_FINGERPRINTS_SECRET, GATEWAY_KEYS_SECRET];
}

/** Errors for a production vars table (empty = fine). */
export function productionVarErrors(vars: ConfigEnv): string[] {
  const out: string[] = [];
  const secrets = new Set(secretNames(vars));
  for (const [name, value] of Object.entries(vars)) {
    if (secrets.has(name)) out.push(`${name} is a secret, not a var: remove it here and run \`wrangler secret put ${name}\` (wrangler dev reads it from .dev.vars)`);
    else if (name === ENV_VAR) out.push(`${ENV_VAR} marks a local wrangler dev run (development keys accepted): remove it here; .dev.vars sets it`);
    else if (typeof value === "string" && value.startsWith(DEV_VALUE_PREFIX)) out.push(`${name} holds a development value (${DEV_VALUE_PREFIX}…): not for production vars`);
  }
  return out;
}
