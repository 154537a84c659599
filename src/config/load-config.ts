/**
 * Loads the compaction config from the Worker env (pure: takes the env object, returns data).
 *
 * 1. `SLUICE_COMPACTION` and `SLUICE_MEASURE` must be "", "0" or "1" (absent = "0").
 * 2. `COMPACTION_CONFIG` (trimmed) empty → defaults; else a JSON object validated by
 *    `compactionConfigSchema`. A block that omits `enabled` is on: writing the block is the
 *    opt-in (DESIGN invariant 1 covers "no block and no switch").
 * 3. `SLUICE_COMPACTION=1` forces `enabled`, except against a block that says `"enabled": false`
 *    (the operator's explicit off wins: a kill switch written in the block must hold);
 *    `SLUICE_MEASURE=1` forces `measure`.
 * 4. Mode: `measure` → "measure" (pipeline runs, bytes untouched, DESIGN §8); else `enabled`
 *    → "compact"; else "off".
 * 5. Warnings (non-fatal): secrets named but not set, settings that do nothing with this engine,
 *    a development audit key outside wrangler dev (src/config/secrets.ts). Warnings and errors name fields and env var NAMES, never values.
 *
 * On error the caller keeps compaction off (fail open), logs once, and /healthz names `field`.
 */
import type { z } from "zod";
import { compactionConfigSchema, type CompactionConfig } from "./schema";
import { secretProblem, secretProblemMessage } from "./secrets";
import { summarizerLocality } from "./summarizer-destination";
import { memoryInjectOn } from "./memory-inject-on";

/** Compaction mode derived from the config. */
export type CompactionMode = "off" | "measure" | "compact";

/** A config error: the field (config key or env var name) and a message naming it. */
export interface ConfigError {
  field: string;
  message: string;
}

export type LoadConfigResult =
  | { ok: true; config: CompactionConfig; mode: CompactionMode; warnings: string[] }
  | { ok: false; error: ConfigError };

/** The env vars loadConfig reads; other keys are looked up by the NAMES the config holds. */
export interface ConfigEnv {
  COMPACTION_CONFIG?: unknown;
  SLUICE_COMPACTION?: unknown;
  SLUICE_MEASURE?: unknown;
  [name: string]: unknown;
}

export { DEV_AUDIT_KEY } from "./secrets";

/** Validates the env's compaction settings. Never throws. */
export function loadConfig(env: ConfigEnv): LoadConfigResult {
  const compaction = readSwitch(env, "SLUICE_COMPACTION");
  if (typeof compaction === "object") return { ok: false, error: compaction };
  const measure = readSwitch(env, "SLUICE_MEASURE");
  if (typeof measure === "object") return { ok: false, error: measure };

  const raw = env.COMPACTION_CONFIG;
  if (raw !== undefined && typeof raw !== "string") {
    return { ok: false, error: { field: "COMPACTION_CONFIG", message: "COMPACTION_CONFIG must be a string holding a JSON object" } };
  }
  const text = (raw ?? "").trim();
  let block: unknown = {};
  let explicitOff = false;
  if (text !== "") {
    try {
      block = JSON.parse(text);
    } catch {
      // The parser's own message quotes the input, which may hold a pasted secret: fixed text only.
      return { ok: false, error: { field: "COMPACTION_CONFIG", message: "COMPACTION_CONFIG is not valid JSON" } };
    }
    if (typeof block !== "object" || block === null || Array.isArray(block)) {
      return { ok: false, error: { field: "COMPACTION_CONFIG", message: "COMPACTION_CONFIG must be a JSON object" } };
    }
    explicitOff = (block as { enabled?: unknown }).enabled === false;
    block = { enabled: true, ...block };
  }

  const parsed = compactionConfigSchema.safeParse(block);
  if (!parsed.success) return { ok: false, error: toConfigError(parsed.error) };
  const config: CompactionConfig = {
    ...parsed.data,
    enabled: explicitOff ? false : parsed.data.enabled || compaction,
    measure: parsed.data.measure || measure,
  };
  const mode: CompactionMode = config.measure ? "measure" : config.enabled ? "compact" : "off";
  return { ok: true, config, mode, warnings: collectWarnings(config, mode, env) };
}

function readSwitch(env: ConfigEnv, name: "SLUICE_COMPACTION" | "SLUICE_MEASURE"): boolean | ConfigError {
  const v = env[name];
  if (v === undefined || v === "" || v === "0") return false;
  if (v === "1") return true;
  return { field: name, message: `${name} must be "0", "1" or empty` };
}

/** First zod issue → {field, message}. Unknown keys are named by the key itself. */
function toConfigError(error: z.ZodError): ConfigError {
  const issue = error.issues[0]!;
  // Nested keys are named with dots (`summarizer.endpoint`); list indexes are left out.
  const keys = issue.path.filter((k): k is string => typeof k === "string");
  if (issue.code === "unrecognized_keys") return { field: [...keys, issue.keys[0]!].join("."), message: issue.message };
  const field = keys.length > 0 ? keys.join(".") : "COMPACTION_CONFIG";
  return { field, message: issue.message };
}

function collectWarnings(c: CompactionConfig, mode: CompactionMode, env: ConfigEnv): string[] {
  const out: string[] = [];
  const isSet = (name: string) => typeof env[name] === "string" && env[name] !== "";
  if (env.SLUICE_COMPACTION === "1" && env.SLUICE_MEASURE === "1") out.push("SLUICE_MEASURE=1 wins over SLUICE_COMPACTION=1: requests go untouched");
  if (env.SLUICE_COMPACTION === "1" && !c.enabled) out.push("COMPACTION_CONFIG says \"enabled\": false, which wins over SLUICE_COMPACTION=1: compaction is off");
  if (c.engine === "heuristic") {
    for (const key of ["endpoint", "model", "api_key_env"] as const) {
      if (c[key] !== null) out.push(`${key} is ignored with engine "heuristic"`);
    }
  }
  const remoteSummarizer = c.summarizer !== null && !summarizerLocality(c.summarizer.endpoint).local;
  if (c.engine !== "remote" && !remoteSummarizer && c.consent_export_prompt) out.push(`consent_export_prompt is ignored with engine "${c.engine}"`);
  if (mode !== "off" && c.summarizer?.api_key_env != null && !isSet(c.summarizer.api_key_env)) {
    out.push(`summarizer.api_key_env names ${c.summarizer.api_key_env}, which is not set: every summary will fail and its step falls back to removal only`);
  }
  const memoryInjectActive = memoryInjectOn(c);
  if (c.memory_inject && !memoryInjectActive) {
    out.push(`memory_inject is ignored unless guarantee_level is "rewrite" and memory_retention_seconds > 0 (got "${c.guarantee_level}" and ${c.memory_retention_seconds}): no block is written`);
  }
  // Blocks are forwarded only in compact mode by the splice mechanism (src/session/run-step.ts claims a map only then).
  if (memoryInjectActive && mode === "measure") out.push("memory_inject has no effect in measurement mode: no block is forwarded, no map is taken");
  if (memoryInjectActive && c.mechanism === "native") out.push('memory_inject has no effect on Anthropic routes with mechanism "native": no block is forwarded there, no map is taken');
  if (c.summarizer !== null && c.guarantee_level !== "rewrite") out.push(`summarizer is never called below guarantee_level "rewrite" (got "${c.guarantee_level}")`);
  if (c.engine === "remote" && c.endpoint?.startsWith("http:")) out.push("endpoint uses plain http: excerpts travel unencrypted to the remote engine");
  if (mode !== "off" && c.engine !== "heuristic" && c.api_key_env !== null && !isSet(c.api_key_env)) {
    out.push(`api_key_env names ${c.api_key_env}, which is not set: engine calls will fail open`);
  }
  if (mode !== "off") {
    const problem = secretProblem(env, c.audit_key_env);
    if (problem === "missing") out.push(`audit_key_env names ${c.audit_key_env}, which is not set: audit records cannot be signed`);
    else if (problem === "development_value") out.push(`${secretProblemMessage(c.audit_key_env, problem)}; audit records cannot be signed`);
  }
  return out;
}
