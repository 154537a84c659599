import { describe, expect, it } from "vitest";
import { DEFAULTS } from "../../../src/config/defaults";
import { DEV_AUDIT_KEY, loadConfig, type ConfigEnv } from "../../../src/config/load-config";

const cfg = (block: Record<string, unknown>, extra: ConfigEnv = {}) => loadConfig({ COMPACTION_CONFIG: JSON.stringify(block), ...extra });
const errorOf = (r: ReturnType<typeof loadConfig>) => (r.ok ? null : r.error);
const AUDIT = { SLUICE_AUDIT_KEY: "k" };

describe("loadConfig: switches and defaults", () => {
  it("no config and no switch: compaction off with every default", () => {
    expect(loadConfig({})).toEqual({ ok: true, config: { ...DEFAULTS, exclude_tools: [] }, mode: "off", warnings: [] });
    expect(loadConfig({ COMPACTION_CONFIG: "  ", SLUICE_COMPACTION: "0", SLUICE_MEASURE: "" })).toEqual(loadConfig({}));
  });

  it("SLUICE_COMPACTION=1 turns compaction on with defaults", () => {
    expect(loadConfig({ SLUICE_COMPACTION: "1", ...AUDIT })).toEqual({
      ok: true, config: { ...DEFAULTS, exclude_tools: [], enabled: true }, mode: "compact", warnings: [] });
  });

  it("SLUICE_MEASURE=1 is measurement mode and wins over SLUICE_COMPACTION=1", () => {
    const r = loadConfig({ SLUICE_MEASURE: "1", SLUICE_COMPACTION: "1", ...AUDIT });
    expect(r.ok && [r.mode, r.config.enabled, r.config.measure, r.warnings]).toEqual(
      ["measure", true, true, ["SLUICE_MEASURE=1 wins over SLUICE_COMPACTION=1: requests go untouched"]]);
  });

  it("a config block is the opt-in unless it says enabled: false", () => {
    const on = cfg({ threshold_tokens: 1000 }, AUDIT);
    expect(on.ok && [on.mode, on.config.threshold_tokens]).toEqual(["compact", 1000]);
    const off = cfg({ enabled: false });
    expect(off.ok && off.mode).toBe("off");
  });

  it("a block's enabled: false wins over SLUICE_COMPACTION=1, with a warning naming both", () => {
    const r = loadConfig({ COMPACTION_CONFIG: JSON.stringify({ enabled: false }), SLUICE_COMPACTION: "1", ...AUDIT });
    expect(r.ok && [r.mode, r.config.enabled, r.warnings]).toEqual(
      ["off", false, ['COMPACTION_CONFIG says "enabled": false, which wins over SLUICE_COMPACTION=1: compaction is off']]);
    const measured = loadConfig({ COMPACTION_CONFIG: JSON.stringify({ enabled: false }), SLUICE_MEASURE: "1", ...AUDIT });
    expect(measured.ok && measured.mode).toBe("measure");
  });

  it("refuses a switch other than 0/1", () => {
    expect(errorOf(loadConfig({ SLUICE_COMPACTION: "yes" }))).toEqual({ field: "SLUICE_COMPACTION", message: 'SLUICE_COMPACTION must be "0", "1" or empty' });
    expect(errorOf(loadConfig({ SLUICE_MEASURE: "true" }))).toEqual({ field: "SLUICE_MEASURE", message: 'SLUICE_MEASURE must be "0", "1" or empty' });
  });
});

describe("loadConfig: schema errors name the field", () => {
  it("bad JSON gives a fixed message that never quotes the input", () => {
    expect(errorOf(loadConfig({ COMPACTION_CONFIG: '{"api_key_env": sk-ant-secret}' }))).toEqual(
      { field: "COMPACTION_CONFIG", message: "COMPACTION_CONFIG is not valid JSON" });
    expect(errorOf(loadConfig({ COMPACTION_CONFIG: "[1]" }))).toEqual({ field: "COMPACTION_CONFIG", message: "COMPACTION_CONFIG must be a JSON object" });
  });

  it("unknown keys are named, with the nearest known key; seed names point to the English key", () => {
    const hint = (key: string, near: string) => ({ field: key, message: `unknown key "${key}": did you mean "${near}"? (see docs/configuration.md for the known keys)` });
    expect(errorOf(cfg({ treshold_tokens: 1 }))).toEqual(hint("treshold_tokens", "threshold_tokens"));
    expect(errorOf(cfg({ threshold: 1 }))).toEqual(hint("threshold", "threshold_tokens"));
    expect(errorOf(cfg({ Head_Chars: 200 }))).toEqual(hint("Head_Chars", "head_chars"));
    expect(errorOf(cfg({ preserve_recent: 2 }))).toEqual(hint("preserve_recent", "preserve_recent_turns"));
    expect(errorOf(cfg({ mechansim: "splice" }))).toEqual(hint("mechansim", "mechanism"));
    expect(errorOf(cfg({ retention_secs: 60 }))).toEqual(hint("retention_secs", "retention_seconds"));
    // Nothing close, or a start several keys share ("time": timeout_ms, time_based_age_seconds): no guess.
    expect(errorOf(cfg({ colour: "red" }))).toEqual({ field: "colour", message: 'unknown key "colour" (see docs/configuration.md for the known keys)' });
    expect(errorOf(cfg({ time: 1 }))).toEqual({ field: "time", message: 'unknown key "time" (see docs/configuration.md for the known keys)' });
    expect(errorOf(cfg({ limiar_decisao: 0.5 }))).toEqual({ field: "limiar_decisao", message: 'unknown key "limiar_decisao": use "decision_threshold"' });
  });

  it("ranges and types", () => {
    expect(errorOf(cfg({ timeout_ms: 10 }))).toEqual({ field: "timeout_ms", message: "timeout_ms must be an integer from 50 to 60000" });
    expect(errorOf(cfg({ timeout_ms: 800.5 }))).toEqual({ field: "timeout_ms", message: "timeout_ms must be an integer from 50 to 60000" });
    expect(errorOf(cfg({ decision_threshold: "0.5" }))).toEqual({ field: "decision_threshold", message: "decision_threshold must be a number from 0 to 1" });
    expect(errorOf(cfg({ min_reduction: 5 }))).toEqual({ field: "min_reduction", message: "min_reduction must be a number from 0 to 1" });
    expect(errorOf(cfg({ head_chars: -1 }))).toEqual({ field: "head_chars", message: "head_chars must be an integer from 0 to 100000" });
    expect(errorOf(cfg({ engine: "gpt" }))).toEqual({ field: "engine", message: "engine must be one of heuristic, local, remote" });
    expect(errorOf(cfg({ guarantee_level: "loose" }))).toEqual({ field: "guarantee_level", message: "guarantee_level must be one of strict, placeholders, rewrite" });
    expect(errorOf(cfg({ archive_removed: 1 }))).toEqual({ field: "archive_removed", message: "archive_removed must be true or false" });
    expect(errorOf(cfg({ exclude_tools: ["Read", ""] }))).toEqual({ field: "exclude_tools", message: "exclude_tools must be a list of tool names (1 to 200 characters each)" });
    expect(errorOf(cfg({ idle_seconds: 4000 }))).toEqual({ field: "complete_after_seconds", message: "complete_after_seconds must be greater than idle_seconds" });
    expect(errorOf(cfg({ time_based_age_seconds: "600" }))).toEqual({ field: "time_based_age_seconds", message: "time_based_age_seconds must be an integer from 0 to 31536000" });
    expect(errorOf(cfg({ time_based_age_seconds: -1 }))).toEqual({ field: "time_based_age_seconds", message: "time_based_age_seconds must be an integer from 0 to 31536000" });
    expect(errorOf(cfg({ memory_retention_seconds: 1.5 }))).toEqual({ field: "memory_retention_seconds", message: "memory_retention_seconds must be an integer from 0 to 31536000" });
    expect(errorOf(cfg({ working_set_turns: -1 }))).toEqual({ field: "working_set_turns", message: "working_set_turns must be an integer from 0 to 100000" });
    expect(errorOf(cfg({ working_set_turns: "48" }))).toEqual({ field: "working_set_turns", message: "working_set_turns must be an integer from 0 to 100000" });
  });

  it("working_set_turns: 40 by default, an integer of turns or null (for good) when set", () => {
    const d = cfg({});
    expect(d.ok && d.config.working_set_turns).toBe(40);
    const set = cfg({ working_set_turns: 12 });
    expect(set.ok && set.config.working_set_turns).toBe(12);
    const unbounded = cfg({ working_set_turns: null });
    expect(unbounded.ok && unbounded.config.working_set_turns).toBeNull();
  });

  it("min_remaining_calls: 2 by default, an integer from 1 to 10000 when set", () => {
    const d = cfg({});
    expect(d.ok && d.config.min_remaining_calls).toBe(2);
    const set = cfg({ min_remaining_calls: 8 });
    expect(set.ok && set.config.min_remaining_calls).toBe(8);
    for (const bad of [0, "x", 2.5, 10_001, null]) expect(errorOf(cfg({ min_remaining_calls: bad }))).toEqual({ field: "min_remaining_calls", message: "min_remaining_calls must be an integer from 1 to 10000" });
  });

  it("time_based_age_seconds: null (the idle gap) by default, an integer of seconds when set; memory_retention_seconds: 0 (off) by default", () => {
    const d = cfg({});
    expect(d.ok && [d.config.time_based_age_seconds, d.config.memory_retention_seconds]).toEqual([null, 0]);
    const set = cfg({ time_based_age_seconds: 900, memory_retention_seconds: 2_592_000 });
    expect(set.ok && [set.config.time_based_age_seconds, set.config.memory_retention_seconds]).toEqual([900, 2_592_000]);
    const explicitNull = cfg({ time_based_age_seconds: null });
    expect(explicitNull.ok && explicitNull.config.time_based_age_seconds).toBeNull();
  });
});

describe("loadConfig: memory_inject", () => {
  it("false by default; true is kept at rewrite with project memory on, without a warning", () => {
    const d = cfg({});
    expect(d.ok && d.config.memory_inject).toBe(false);
    const on = cfg({ memory_inject: true, guarantee_level: "rewrite", memory_retention_seconds: 86_400 }, AUDIT);
    expect(on.ok && [on.config.memory_inject, on.warnings]).toEqual([true, []]);
  });

  it("true below rewrite or without project memory is accepted with a warning naming both conditions; a non-boolean is an error", () => {
    const strict = cfg({ memory_inject: true, memory_retention_seconds: 86_400 }, AUDIT);
    expect(strict.ok && strict.warnings).toEqual(['memory_inject is ignored unless guarantee_level is "rewrite" and memory_retention_seconds > 0 (got "strict" and 86400): no block is written']);
    const noMemory = cfg({ memory_inject: true, guarantee_level: "rewrite" }, AUDIT);
    expect(noMemory.ok && noMemory.warnings).toEqual(['memory_inject is ignored unless guarantee_level is "rewrite" and memory_retention_seconds > 0 (got "rewrite" and 0): no block is written']);
    expect(errorOf(cfg({ memory_inject: "yes" }))).toEqual({ field: "memory_inject", message: "memory_inject must be true or false" });
  });

  it("warns when no block can ever be forwarded: measurement mode (config or SLUICE_MEASURE=1) or mechanism \"native\"", () => {
    const on = { memory_inject: true, guarantee_level: "rewrite", memory_retention_seconds: 86_400 };
    const measure = "memory_inject has no effect in measurement mode: no block is forwarded, no map is taken";
    const native = 'memory_inject has no effect on Anthropic routes with mechanism "native": no block is forwarded there, no map is taken';
    const byConfig = cfg({ ...on, measure: true }, AUDIT);
    const byEnv = cfg(on, { ...AUDIT, SLUICE_MEASURE: "1" });
    const nat = cfg({ ...on, mechanism: "native" }, AUDIT);
    const splice = cfg({ ...on, mechanism: "splice" }, AUDIT);
    expect([byConfig.ok && byConfig.warnings, byEnv.ok && byEnv.warnings, nat.ok && nat.warnings, splice.ok && splice.warnings]).toEqual([[measure], [measure], [native], []]);
  });
});

describe("loadConfig: summarizer below rewrite", () => {
  it("a summarizer below guarantee_level \"rewrite\" is never called: a warning; at rewrite none", () => {
    const summarizer = { kind: "engine", endpoint: "http://127.0.0.1:8789/summarize" };
    const strict = cfg({ summarizer }, AUDIT);
    const placeholders = cfg({ summarizer, guarantee_level: "placeholders" }, AUDIT);
    const rewrite = cfg({ summarizer, guarantee_level: "rewrite" }, AUDIT);
    expect([strict.ok && strict.warnings, placeholders.ok && placeholders.warnings, rewrite.ok && rewrite.warnings]).toEqual([
      ['summarizer is never called below guarantee_level "rewrite" (got "strict")'],
      ['summarizer is never called below guarantee_level "rewrite" (got "placeholders")'],
      [],
    ]);
  });
});

describe("loadConfig: engine rules", () => {
  const local = (endpoint: string) => cfg({ engine: "local", endpoint });
  const localMsg = (tail: string) => ({ field: "endpoint",
    message: `endpoint must be a loopback or private address for engine "local" (127.0.0.0/8, ::1, 10/8, 172.16/12, 192.168/16, fc00::/7, localhost); ${tail}` });

  it("local accepts loopback and private endpoints", () => {
    for (const e of ["http://127.0.0.1:8789/decide", "http://localhost:8789/decide", "http://[::1]:8789/", "http://10.0.0.5/", "https://192.168.0.2/x"]) {
      expect(local(e).ok).toBe(true);
    }
  });

  it("local refuses public literals and unknown hostnames, naming endpoint", () => {
    expect(errorOf(local("http://8.8.8.8/decide"))).toEqual(localMsg("8.8.8.8 is a public address"));
    expect(errorOf(local("http://[2606:4700::1111]/"))).toEqual(localMsg("[2606:4700::1111] is a public address"));
    expect(errorOf(local("http://engine.corp.example/"))).toEqual(localMsg("engine.corp.example is a hostname not known to be local"));
    expect(errorOf(cfg({ engine: "local" }))).toEqual({ field: "endpoint", message: 'endpoint is required when engine is "local"' });
  });

  it("endpoints must be http(s) and carry no user:password", () => {
    const msg = { field: "endpoint", message: "endpoint must be an http:// or https:// URL without user:password@" };
    expect(errorOf(local("ftp://127.0.0.1/"))).toEqual(msg);
    expect(errorOf(local("http://u:sk-secret@127.0.0.1/"))).toEqual(msg);
    expect(errorOf(local("not a url"))).toEqual(msg);
  });

  it("remote refuses without consent_export_prompt: true", () => {
    expect(errorOf(cfg({ engine: "remote", endpoint: "https://engine.example.com/decide" }))).toEqual({ field: "consent_export_prompt",
      message: 'engine "remote" sends tool-result excerpts to another host: set consent_export_prompt to true to allow it' });
    const ok = cfg({ engine: "remote", endpoint: "https://engine.example.com/decide", consent_export_prompt: true, api_key_env: "ENGINE_KEY" }, { ENGINE_KEY: "x", ...AUDIT });
    expect(ok.ok && ok.warnings).toEqual([]);
  });

  it("api_key_env holding a credential is refused and the credential appears nowhere in the result", () => {
    const secret = "sk-ant-api03-AbCdEf0123456789";
    const r = cfg({ engine: "remote", endpoint: "https://e.example.com/", consent_export_prompt: true, api_key_env: secret });
    expect(errorOf(r)).toEqual({ field: "api_key_env",
      message: "api_key_env must be the NAME of an env var (e.g. ENGINE_API_KEY), not a credential: the value starts with a known key prefix (value not shown)" });
    expect(JSON.stringify(r)).not.toContain("AbCdEf");
    expect(errorOf(cfg({ audit_key_env: "a3f9c1d2e4b5a6f7c8d9e0f1a2b3c4d5" }))).toEqual({ field: "audit_key_env",
      message: "audit_key_env must be the NAME of an env var, not a credential: the value looks like a random key (value not shown)" });
  });

  it("warns about names that are not set, ignored keys, plain http and the dev audit key — naming names, never values", () => {
    const r = cfg({ engine: "remote", endpoint: "http://e.example.com/", consent_export_prompt: true, api_key_env: "ENGINE_KEY" }, { SLUICE_AUDIT_KEY: DEV_AUDIT_KEY });
    expect(r.ok && r.warnings).toEqual([
      "endpoint uses plain http: excerpts travel unencrypted to the remote engine",
      "api_key_env names ENGINE_KEY, which is not set: engine calls will fail open",
      "SLUICE_AUDIT_KEY holds a development value (dev-only-…) outside wrangler dev: set a real secret (wrangler secret put SLUICE_AUDIT_KEY); audit records cannot be signed",
    ]);
    // Under wrangler dev (SLUICE_ENV=development) the development key is fine: no warning.
    const dev = cfg({ engine: "remote", endpoint: "https://e.example.com/", consent_export_prompt: true }, { SLUICE_AUDIT_KEY: DEV_AUDIT_KEY, SLUICE_ENV: "development" });
    expect(dev.ok && dev.warnings).toEqual([]);
    const h = cfg({ endpoint: "http://127.0.0.1/", consent_export_prompt: true });
    expect(h.ok && h.warnings).toEqual([
      'endpoint is ignored with engine "heuristic"',
      'consent_export_prompt is ignored with engine "heuristic"',
      "audit_key_env names SLUICE_AUDIT_KEY, which is not set: audit records cannot be signed",
    ]);
  });
});
