/**
 * Turns the Worker env into the compaction hook (shell). The config is loaded (zod) once per
 * isolate per distinct value; an invalid config keeps compaction off (fail open) and is logged
 * once; /healthz reports it. A config that turns an HTTP engine on announces its destination when
 * first loaded (src/gateway/engine-destination.ts). On first use of a config the audit trail gets
 * `config_loaded`, for a remote engine a dated `consent` record, and for an HTTP engine the dated
 * `engine_destination` record (each appended once).
 */
import type { Env } from "../config/env";
import { loadConfig, type LoadConfigResult } from "../config/load-config";
import type { AuditEntry } from "../core/audit/audit-record";
import { sha256Hex } from "../core/audit/digest";
import type { SessionObject } from "../session/session-object";
import { AUDIT_OBJECT_NAME, type AuditObject } from "../do/audit-object";
import { globalSwitch } from "./global-switch";
import { configHash } from "../session/contract";
import { sessionLengthsCache } from "./session-lengths-cache";
import { sessionIndexOf } from "../do/index-object";
import { runPipeline, type PipelineDeps } from "./compaction-pipeline";
import { announceEngineDestination, engineDestination } from "./engine-destination";
import type { CompactionHook } from "./handle-request";

/** DO step deadline without an HTTP engine, ms: a cold DO start plus a SQLite read stay well under it. */
export const DO_STEP_TIMEOUT_MS = 3_000;

const loaded = new Map<string, LoadConfigResult>();
const audited = new Set<string>();
/** Loaded configs whose audit record was already asked for in this isolate: the hash (SHA-256 of the config's JSON) is taken once per config, not per request. */
const auditAsked = new WeakSet<LoadConfigResult>();
/** The step's config hash per loaded config (../session/contract.ts configHash), taken once per config. */
const hashes = new WeakMap<LoadConfigResult, string>();

/** loadConfig, memoised per isolate on the three vars that decide it; logs an invalid config once. */
export function compactionConfigOf(env: Env): LoadConfigResult {
  const key = JSON.stringify([env.COMPACTION_CONFIG ?? "", env.SLUICE_COMPACTION ?? "", env.SLUICE_MEASURE ?? ""]);
  let r = loaded.get(key);
  if (!r) {
    r = loadConfig(env);
    loaded.set(key, r);
    if (!r.ok) console.error(`sluice: compaction config invalid, compaction stays off: ${r.error.message}`);
    else {
      for (const w of r.warnings) console.warn(`sluice: ${w}`);
      if (r.mode !== "off") announceEngineDestination(r.config);
    }
  }
  return r;
}

/** The audit DO (the trail and the global kill switch). */
export function auditStub(env: Env): DurableObjectStub<AuditObject> {
  return env.AUDIT.get(env.AUDIT.idFromName(AUDIT_OBJECT_NAME));
}

/** Appends to the audit trail, best effort (never fails a request). */
export function audit(env: Env, entry: AuditEntry, once: boolean): Promise<unknown> {
  if (!env.AUDIT) return Promise.resolve();
  const stub = auditStub(env);
  return (once ? stub.appendOnce(entry) : stub.append(entry)).catch(() => undefined);
}

async function auditConfig(env: Env, r: Extract<LoadConfigResult, { ok: true }>): Promise<void> {
  const hash = await sha256Hex(JSON.stringify(r.config));
  if (audited.has(hash)) return;
  audited.add(hash);
  await audit(env, { kind: "config_loaded", fields: { config_hash: hash, mode: r.mode, engine: r.config.engine } }, true);
  if (r.config.engine === "remote" && r.config.consent_export_prompt && r.config.endpoint) {
    await audit(env, { kind: "consent", fields: { scope: "export_prompt", host: new URL(r.config.endpoint).host, config_hash: hash } }, true);
  }
  const destination = engineDestination(r.config);
  if (destination) await audit(env, { kind: "engine_destination", fields: destination }, true);
}

/**
 * The compaction hook for this request, or undefined when compaction is off or misconfigured.
 * `overrides` replaces pipeline deps (tests: a wrapped DO namespace, a clock, an adapter, a buffer).
 */
export function compactionHookFor(env: Env, ctx: ExecutionContext | undefined, overrides: Partial<PipelineDeps> = {}): CompactionHook | undefined {
  const r = compactionConfigOf(env);
  if (!r.ok || r.mode === "off" || !env.SESSION) return undefined;
  const waitUntil = (p: Promise<unknown>) => (ctx ? ctx.waitUntil(p) : void p.catch(() => undefined));
  if (!auditAsked.has(r)) {
    auditAsked.add(r);
    waitUntil(auditConfig(env, r).catch(() => undefined));
  }
  const config = r.config;
  const mode = r.mode;
  let config_hash = hashes.get(r);
  if (config_hash === undefined) hashes.set(r, (config_hash = configHash(config)));
  return (req) =>
    runPipeline(
      {
        config,
        config_hash,
        mode,
        sessions: env.SESSION as DurableObjectNamespace<SessionObject>,
        waitUntil,
        env,
        now: () => Date.now(),
        doTimeoutMs: DO_STEP_TIMEOUT_MS + (config.engine === "heuristic" ? 0 : config.timeout_ms),
        index: env.SESSION_INDEX ? sessionIndexOf(env.SESSION_INDEX) : undefined,
        globallyDisabled: env.AUDIT ? () => globalSwitch.disabled(() => auditStub(env).compactionDisabled(), Date.now()) : undefined,
        onStep: (step) => waitUntil(audit(env, { kind: "compaction_step", fields: step }, false)),
        // The deployment's finished sessions (idle past complete_after_seconds) set R's table; read off the hot path.
        remainingCallsTable: env.SESSION_INDEX ? () => {
          const index = sessionIndexOf(env.SESSION_INDEX);
          const now = Date.now();
          return sessionLengthsCache.current(() => index.lengths(now - config.complete_after_seconds * 1000), now, waitUntil);
        } : undefined,
        ...overrides,
      },
      req,
    );
}
