/**
 * The NAME of the admin token secret (pure: env object in, name out): the compaction config's
 * `admin_token_env`, or its default SLUICE_ADMIN_TOKEN when the config is invalid, so a config
 * error never opens or locks the admin surface. Admin auth (src/http/routes/admin-auth.ts)
 * checks the secret of this name, and the forward path (./gateway-config.ts) keeps its value
 * from going upstream: both read the name here.
 */
import { DEFAULTS } from "./defaults";
import { loadConfig, type ConfigEnv } from "./load-config";

/** The env var that holds the admin token for `env`. */
export function adminTokenEnv(env: ConfigEnv): string {
  const loaded = loadConfig(env);
  return loaded.ok ? loaded.config.admin_token_env : DEFAULTS.admin_token_env;
}
