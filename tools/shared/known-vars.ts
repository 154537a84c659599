/**
 * The vars the Worker reads by fixed name (src/config/env.ts, src/config/client-auth-config.ts),
 * and the "did you mean" check `npm run config:check` runs on a vars table (pure). A misspelt
 * var is otherwise silent: the Worker never reads it and runs on the built-in default
 * (`COMPACTON_CONFIG` leaves compaction off). Names a config key chooses (`admin_token_env`,
 * `audit_key_env`, `api_key_env`) are the user's own and are never flagged; a name is flagged
 * only when it is not one of these and a known name is close to it (src/config/nearest-key.ts).
 */
import { nearestKey } from "../../src/config/nearest-key";

/** Every var and secret name the Worker reads by a fixed name. */
export const KNOWN_VAR_NAMES: readonly string[] = [
  "ANTHROPIC_BASE_URL", "OPENAI_BASE_URL", "COMPACTION_CONFIG", "SLUICE_COMPACTION", "SLUICE_MEASURE",
  "UPSTREAM_TIMEOUT_MS", "SLUICE_ADMIN_TOKEN", "SLUICE_AUDIT_KEY", "SLUICE_ENV", "SLUICE_CLIENT_AUTH",
  "SLUICE_CLIENT_KEY_SHA256", "SLUICE_GATEWAY_KEYS", "SLUICE_RATE_LIMIT_PERIOD_SECONDS",
];

/**
 * Warnings for var names in `names` that look like a misspelt known var, e.g.
 * `COMPACTON_CONFIG is not a var Sluice reads; did you mean COMPACTION_CONFIG?`.
 * `chosen` holds the names the config itself chose (secret names), which are never flagged.
 */
export function misspeltVarWarnings(names: readonly string[], chosen: readonly string[]): string[] {
  const known = new Set([...KNOWN_VAR_NAMES, ...chosen]);
  const out: string[] = [];
  for (const name of names) {
    if (known.has(name)) continue;
    const near = nearestKey(name, KNOWN_VAR_NAMES.map((k) => k.toLowerCase()));
    if (near !== null) out.push(`${name} is not a var Sluice reads; did you mean ${near.toUpperCase()}?`);
  }
  return out;
}
