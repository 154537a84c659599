/**
 * The Worker's bindings and vars (wrangler.toml [vars], secrets, Durable Object namespaces).
 * Every var is a string as wrangler delivers it; parsing and validation live in src/config.
 */
import type { AuditObject } from "../do/audit-object";
import type { SessionIndex } from "../do/index-object";
import type { MemoryObject } from "../observers/memory-object";

export interface Env {
  /** Anthropic upstream base URL, no trailing slash needed. Default https://api.anthropic.com */
  ANTHROPIC_BASE_URL?: string;
  /** OpenAI (or compatible) upstream base URL. Default https://api.openai.com */
  OPENAI_BASE_URL?: string;
  /** Compaction config as a JSON object string; empty = off. */
  COMPACTION_CONFIG?: string;
  /** "1" turns compaction on with defaults. */
  SLUICE_COMPACTION?: string;
  /** "1" turns measurement mode on. */
  SLUICE_MEASURE?: string;
  /** Upstream timeout to response headers, ms. Default 600000. */
  UPSTREAM_TIMEOUT_MS?: string;
  /** Session Durable Object namespace. */
  SESSION: DurableObjectNamespace;
  /** Audit trail Durable Object namespace (one instance, src/do/audit-object.ts). */
  AUDIT: DurableObjectNamespace<AuditObject>;
  /** Global session index Durable Object namespace (one instance, src/do/index-object.ts). */
  SESSION_INDEX: DurableObjectNamespace<SessionIndex>;
  /** Project memory Durable Object namespace (one instance per project key, src/observers/memory-object.ts). */
  MEMORY: DurableObjectNamespace<MemoryObject>;
  /** Admin bearer token (name set by admin_token_env). A secret: `wrangler secret put SLUICE_ADMIN_TOKEN`. Unset = admin routes answer 503. */
  SLUICE_ADMIN_TOKEN?: string;
  /** HMAC key of the audit trail (name set by audit_key_env). A secret; under wrangler dev from `.dev.vars` (src/config/secrets.ts). */
  SLUICE_AUDIT_KEY?: string;
  /** "development" only under wrangler dev and in tests (src/config/secrets.ts); never in wrangler.toml. */
  SLUICE_ENV?: string;
  /** Client authentication: "required", "off", or ""/"auto" (src/config/client-auth-config.ts). */
  SLUICE_CLIENT_AUTH?: string;
  /** Secret: allowed provider-key SHA-256 fingerprints, comma/whitespace separated. */
  SLUICE_CLIENT_KEY_SHA256?: string;
  /** Secret: gateway keys accepted in `x-sluice-key`, comma/whitespace separated. */
  SLUICE_GATEWAY_KEYS?: string;
  /** Seconds of the rate limit binding's period (10 or 60), sent as retry-after. Default 60. */
  SLUICE_RATE_LIMIT_PERIOD_SECONDS?: string;
  /** Workers Rate Limiting binding (`[[ratelimits]]`), per caller fingerprint. */
  SLUICE_RATE_LIMITER?: RateLimit;
  [key: string]: unknown;
}
