/**
 * The `secrets` part of GET /healthz (pure): the secrets that cannot be used, by NAME with the
 * reason, never a value (src/config/secrets.ts, docs/deploy.md). Checked: the audit key (the
 * name set by `audit_key_env`) — unset or a development value outside wrangler dev means the audit
 * trail refuses to sign — and the client-authentication settings' problems.
 */
import { DEFAULTS } from "../config/defaults";
import { readClientAuthConfig } from "../config/client-auth-config";
import type { Env } from "../config/env";
import { loadConfig } from "../config/load-config";
import { secretProblem, secretProblemMessage, type SecretProblem } from "../config/secrets";

/** One secret (or setting) that needs the operator. */
export interface SecretStatus {
  /** The secret or var NAME. */
  name: string;
  problem: SecretProblem | "invalid";
  message: string;
}

/** `{ secrets: [...] }` when something needs attention, else `{}` (the healthy body stays as it was). */
export function healthSecrets(env: Env): { secrets?: SecretStatus[] } {
  const out: SecretStatus[] = [];
  const loaded = loadConfig(env);
  const auditName = loaded.ok ? loaded.config.audit_key_env : DEFAULTS.audit_key_env;
  const audit = secretProblem(env, auditName);
  if (audit !== null) out.push({ name: auditName, problem: audit, message: `audit trail refuses to sign: ${secretProblemMessage(auditName, audit)}` });
  for (const p of readClientAuthConfig(env).problems) out.push({ name: p.name, problem: "invalid", message: p.message });
  return out.length > 0 ? { secrets: out } : {};
}
