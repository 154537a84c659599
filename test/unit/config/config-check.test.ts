import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkWranglerEnvironments, checkWranglerToml } from "../../../tools/config-check";
import { DURABLE_OBJECTS_TOML } from "../../support/durable-objects-toml";

const toml = (vars: string, envs = "") => `name = "x"\n[vars]\n${vars}\n${envs}`;
const SECRETS = "SLUICE_ADMIN_TOKEN, SLUICE_AUDIT_KEY, SLUICE_CLIENT_KEY_SHA256, SLUICE_GATEWAY_KEYS";

describe("config:check", () => {
  it("checks [vars] and every [env.*.vars] with loadConfig's messages", () => {
    const text = toml(`COMPACTION_CONFIG = '{"engine":"local","endpoint":"http://127.0.0.1:8789/decide"}'`,
      `[env.prod.vars]\nCOMPACTION_CONFIG = '{"engine":"local","endpoint":"http://8.8.8.8/"}'`);
    expect(checkWranglerToml(text)).toEqual([
      { where: "[vars]", ok: true, lines: ["ok: compaction compact (engine local)",
        "warning: audit_key_env names SLUICE_AUDIT_KEY, which is not set: audit records cannot be signed",
        `secrets to set (wrangler secret put; .dev.vars under wrangler dev): ${SECRETS}`] },
      { where: "[env.prod.vars]", ok: false, lines: [
        'error: endpoint: endpoint must be a loopback or private address for engine "local" (127.0.0.0/8, ::1, 10/8, 172.16/12, 192.168/16, fc00::/7, localhost); 8.8.8.8 is a public address'] },
    ]);
  });

  it("also checks the gateway's own vars, with the Worker's messages", () => {
    expect(checkWranglerToml(toml(`UPSTREAM_TIMEOUT_MS = "abc"`))).toEqual([
      { where: "[vars]", ok: false, lines: ["error: UPSTREAM_TIMEOUT_MS: must be a positive integer (milliseconds)"] },
    ]);
    expect(checkWranglerToml(toml(`ANTHROPIC_BASE_URL = "ftp://u:p@x?q=1"`))).toEqual([
      { where: "[vars]", ok: false, lines: ["error: ANTHROPIC_BASE_URL: must be an http(s) URL without credentials, query or fragment"] },
    ]);
  });

  it("a secret as a var, a development value or SLUICE_ENV is an error naming the var, never the value", () => {
    const text = toml(`SLUICE_AUDIT_KEY = "dev-only-audit-key-not-for-production"\nSLUICE_ENV = "development"\nCOMPACTION_CONFIG = '{"engine":"local","endpoint":"http://127.0.0.1:9/","api_key_env":"ENGINE_KEY"}'\nENGINE_KEY = "abc"\nOTHER = "dev-only-x"`);
    const [r] = checkWranglerToml(text);
    expect(r).toEqual({ where: "[vars]", ok: false, lines: [
      "error: SLUICE_AUDIT_KEY is a secret, not a var: remove it here and run `wrangler secret put SLUICE_AUDIT_KEY` (wrangler dev reads it from .dev.vars)",
      "error: SLUICE_ENV marks a local wrangler dev run (development keys accepted): remove it here; .dev.vars sets it",
      "error: ENGINE_KEY is a secret, not a var: remove it here and run `wrangler secret put ENGINE_KEY` (wrangler dev reads it from .dev.vars)",
      "error: OTHER holds a development value (dev-only-…): not for production vars",
      "secrets to set (wrangler secret put; .dev.vars under wrangler dev): SLUICE_ADMIN_TOKEN, SLUICE_AUDIT_KEY, ENGINE_KEY, SLUICE_CLIENT_KEY_SHA256, SLUICE_GATEWAY_KEYS",
    ] });
    expect(JSON.stringify(r)).not.toContain("dev-only-audit-key-not-for-production");
  });

  it("a var name close to one the Worker reads is a warning naming both; names the config chose are not", () => {
    const text = toml(`COMPACTON_CONFIG = '{"engine":"local","endpoint":"http://127.0.0.1:9/"}'\nanthropic_base_url = "https://a.example"\nMY_OWN_NOTE = "x"\nCOMPACTION_CONFIG = '{"admin_token_env":"SLUICE_ADMIN_TOKN"}'`);
    expect(checkWranglerToml(text)).toEqual([{ where: "[vars]", ok: true, lines: [
      "ok: compaction compact (engine heuristic)",
      "warning: audit_key_env names SLUICE_AUDIT_KEY, which is not set: audit records cannot be signed",
      "warning: COMPACTON_CONFIG is not a var Sluice reads; did you mean COMPACTION_CONFIG?",
      "warning: anthropic_base_url is not a var Sluice reads; did you mean ANTHROPIC_BASE_URL?",
      "secrets to set (wrangler secret put; .dev.vars under wrangler dev): SLUICE_ADMIN_TOKN, SLUICE_AUDIT_KEY, SLUICE_CLIENT_KEY_SHA256, SLUICE_GATEWAY_KEYS",
    ] }]);
  });

  it("the project's own wrangler.toml passes", async () => {
    const { readFile } = await import("node:fs/promises");
    const text = await readFile("wrangler.toml", "utf8");
    expect(checkWranglerToml(text).map((r) => [r.where, r.ok, r.lines[0]])).toEqual([["[vars]", true, "ok: compaction off"]]);
    expect(checkWranglerEnvironments(text)).toEqual([{ where: "top level", ok: true, lines: ["ok: Durable Object bindings and migrations match the Worker's classes"] }]);
  });

  it("checks every environment's Durable Object bindings, migrations and vars against the Worker", () => {
    const text = toml(`A = "1"`, `${DURABLE_OBJECTS_TOML}[env.staging.vars]\nB = "2"\n[[env.staging.durable_objects.bindings]]\nname = "SESSION"\nclass_name = "SessionObject"\n`);
    expect(checkWranglerEnvironments(text)).toEqual([
      { where: "top level", ok: true, lines: ["ok: Durable Object bindings and migrations match the Worker's classes"] },
      { where: "[env.staging]", ok: false, lines: [
        'error: no Durable Object binding AUDIT (class_name = "AuditObject"): the Worker\'s AUDIT would be undefined (bindings are not inherited from the top level)',
        'error: no Durable Object binding SESSION_INDEX (class_name = "SessionIndex"): the Worker\'s SESSION_INDEX would be undefined (bindings are not inherited from the top level)',
        'error: no Durable Object binding MEMORY (class_name = "MemoryObject"): the Worker\'s MEMORY would be undefined (bindings are not inherited from the top level)',
        "error: vars A are set at the top level but not in [env.staging.vars]: vars are not inherited, so this environment gets the built-in defaults",
      ] },
    ]);
  });

  it("as a program: exit 1 and the error on stderr", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sluice-cc-"));
    const path = join(dir, "wrangler.toml");
    writeFileSync(path, toml(`COMPACTION_CONFIG = '{"timeout_ms": 5}'`, DURABLE_OBJECTS_TOML));
    const out = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile("node_modules/.bin/tsx", ["tools/config-check.ts", path], (err, stdout, stderr) =>
        resolve({ code: err ? (err as { code?: number }).code ?? 1 : 0, stdout, stderr }));
    });
    expect(out).toEqual({ code: 1, stdout: `${path} top level ok: Durable Object bindings and migrations match the Worker's classes\n`, stderr: `${path} [vars] error: timeout_ms: timeout_ms must be an integer from 50 to 60000\n` });
  });

  it("as a program: a flag it does not know, or two paths, is a usage error (exit 2), never read as a file", async () => {
    const run = (args: string[]) => new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile("node_modules/.bin/tsx", ["tools/config-check.ts", ...args], (err, stdout, stderr) =>
        resolve({ code: err ? (err as { code?: number }).code ?? 1 : 0, stdout, stderr }));
    });
    const usage = "usage: npm run config:check [-- path/to/wrangler.toml]  (default ./wrangler.toml)";
    expect(await run(["--strict"])).toEqual({ code: 2, stdout: "", stderr: `error: Unknown option '--strict'. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- "--strict"\n${usage}\n` });
    expect(await run(["a.toml", "b.toml"])).toEqual({ code: 2, stdout: "", stderr: `error: one wrangler.toml at a time, got 2 paths\n${usage}\n` });
    expect(await run(["--help"])).toEqual({ code: 0, stdout: `${usage}\n`, stderr: "" });
  });
});
