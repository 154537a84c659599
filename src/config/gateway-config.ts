/**
 * The gateway's own settings, read from the Worker's vars (pure: env object in, config out).
 * zod validates every var at this boundary; an invalid value throws an Error naming the var.
 * Only the vars without which nothing can be forwarded live here (base URLs, the upstream
 * timeout): a var that tunes compaction belongs to the compaction config
 * (./load-config.ts), whose errors turn compaction off and never fail a request.
 * Of the compaction config it reads only whether one is configured (GET /healthz) and the name
 * of the admin token secret, whose value the forward path strips.
 */
import { z } from "zod";
import type { ProviderFamily } from "../gateway/provider-errors";
import { adminTokenEnv } from "./admin-token-env";
import type { Env } from "./env";

/** Default upstream hosts: the providers' public APIs (docs.anthropic.com, platform.openai.com). */
export const DEFAULT_BASE_URLS: Record<ProviderFamily, string> = {
  anthropic: "https://api.anthropic.com",
  openai: "https://api.openai.com",
};

/**
 * Default upstream timeout to response headers, ms. 600 000 = 10 min, the official Anthropic and
 * OpenAI SDKs' default request timeout; long non-streaming answers need that much.
 */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 600_000;

/** Settings the proxy needs on every request. */
export interface GatewayConfig {
  /** Upstream base URL per provider family: http(s), no credentials, query or fragment, no trailing "/". */
  baseUrls: Record<ProviderFamily, string>;
  /** Upstream timeout to response headers, ms (> 0). */
  upstreamTimeoutMs: number;
  /** The NAME of the admin token secret (the compaction config's `admin_token_env`: ./admin-token-env.ts). */
  adminTokenEnv: string;
  /** Value of that secret (no header carrying it is forwarded upstream), or null when unset. */
  adminToken: string | null;
  /** True when COMPACTION_CONFIG is a non-empty string, or SLUICE_COMPACTION or SLUICE_MEASURE is "1" (measurement runs the pipeline too). */
  compactionConfigured: boolean;
}

/** "" (= use the default) or an http(s) URL without credentials, query or fragment; trailing "/" removed. */
const baseUrl = z
  .string()
  .trim()
  .refine((s) => {
    if (s === "") return true;
    if (!URL.canParse(s)) return false;
    const u = new URL(s);
    return (u.protocol === "http:" || u.protocol === "https:") && !u.username && !u.password && !u.search && !u.hash;
  }, "must be an http(s) URL without credentials, query or fragment")
  .transform((s) => s.replace(/\/+$/, ""));

const vars = z.object({
  ANTHROPIC_BASE_URL: baseUrl.optional(),
  OPENAI_BASE_URL: baseUrl.optional(),
  UPSTREAM_TIMEOUT_MS: z
    .string()
    .regex(/^\s*\d*\s*$/, "must be a positive integer (milliseconds)")
    .optional(),
  COMPACTION_CONFIG: z.string().optional(),
  SLUICE_COMPACTION: z.string().optional(),
  SLUICE_MEASURE: z.string().optional(),
});

/**
 * Distinct var sets remembered per isolate: every request reads the config, and a zod parse
 * costs ≈ 0.45 ms in workerd (no code generation there) against a map lookup. Tests run many.
 */
const MEMO_MAX = 32;
const memo = new Map<string, GatewayConfig | Error>();

/**
 * Reads and validates the gateway settings from `env`, once per distinct value of the vars it
 * reads (isolate memory; the result is shared, do not mutate it). Throws Error("<VAR>:
 * <problem>") on a bad var.
 */
export function readGatewayConfig(env: Env): GatewayConfig {
  const e = env as Record<string, unknown>;
  // The admin token's var is named by COMPACTION_CONFIG (part of the key): an entry holds while that var's value is the one it read.
  const key = JSON.stringify([e.ANTHROPIC_BASE_URL, e.OPENAI_BASE_URL, e.UPSTREAM_TIMEOUT_MS, e.COMPACTION_CONFIG, e.SLUICE_COMPACTION, e.SLUICE_MEASURE]);
  let r = memo.get(key);
  if (r === undefined || (!(r instanceof Error) && r.adminToken !== adminTokenValue(e[r.adminTokenEnv]))) {
    try {
      r = parseGatewayConfig(env);
    } catch (err) {
      r = err instanceof Error ? err : new Error(String(err));
    }
    memo.delete(key);
    if (memo.size >= MEMO_MAX) memo.delete(memo.keys().next().value!);
    memo.set(key, r);
  }
  if (r instanceof Error) throw r;
  return r;
}

/** The admin token secret's value: a non-empty string, else null. */
const adminTokenValue = (v: unknown): string | null => (typeof v === "string" && v.length > 0 ? v : null);

function parseGatewayConfig(env: Env): GatewayConfig {
  const parsed = vars.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${issue.path.join(".")}: ${issue.message}`);
  }
  const v = parsed.data;
  const timeout = Number((v.UPSTREAM_TIMEOUT_MS ?? "").trim() || DEFAULT_UPSTREAM_TIMEOUT_MS);
  if (timeout <= 0) throw new Error("UPSTREAM_TIMEOUT_MS: must be a positive integer (milliseconds)");
  const tokenEnv = adminTokenEnv(env);
  return {
    baseUrls: {
      anthropic: v.ANTHROPIC_BASE_URL || DEFAULT_BASE_URLS.anthropic,
      openai: v.OPENAI_BASE_URL || DEFAULT_BASE_URLS.openai,
    },
    upstreamTimeoutMs: timeout,
    adminTokenEnv: tokenEnv,
    adminToken: adminTokenValue((env as Record<string, unknown>)[tokenEnv]),
    compactionConfigured: (v.COMPACTION_CONFIG ?? "").trim() !== "" || (v.SLUICE_COMPACTION ?? "").trim() === "1" || (v.SLUICE_MEASURE ?? "").trim() === "1",
  };
}
