/** The deploy gate (tools/deploy/check-deploy.ts): bundle budget, production vars, rate limit binding, observability, every environment's Durable Objects. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "smol-toml";
import { checkDeploy, type BundleFile } from "../../tools/deploy/check-deploy";
import { checkEnvironments, type WranglerDoc } from "../../tools/deploy/check-environments";
import { DURABLE_OBJECT_CLASSES } from "../../src/durable-object-classes";
import { DURABLE_OBJECTS_TOML } from "../support/durable-objects-toml";

const DURABLE_OBJECTS = DURABLE_OBJECTS_TOML;
const GOOD_TOML = `name = "x"
[vars]
SLUICE_RATE_LIMIT_PERIOD_SECONDS = "60"
[[ratelimits]]
name = "SLUICE_RATE_LIMITER"
namespace_id = "1001"
simple = { limit = 600, period = 60 }
[observability]
enabled = true
${DURABLE_OBJECTS}`;
const BUNDLE: BundleFile[] = [
  { name: "worker.js", bytes: 1_189_877, gzipBytes: 230_205 },
  { name: "worker.js.map", bytes: 2_406_161, gzipBytes: 600_000 },
  { name: "README.md", bytes: 107, gzipBytes: 100 },
];
const OK_VARS = "ok: production vars hold no secret, no development value and no SLUICE_ENV; rate limit and observability configured";
const OK_ENVS = "ok: every environment binds and migrates the Worker's Durable Object classes (SessionObject, AuditObject, SessionIndex, MemoryObject) and repeats the top-level vars";

describe("checkDeploy", () => {
  it("counts the code only (no source map, no README) against the 1 MiB gzipped budget", () => {
    expect(checkDeploy(BUNDLE, GOOD_TOML)).toEqual({ ok: true, lines: ["ok: bundle 224.81 KiB gzipped (1161.99 KiB raw), budget 1024.00 KiB gzipped", OK_VARS, OK_ENVS] });
  });

  it("fails over budget, naming both sizes", () => {
    const big = [{ name: "worker.js", bytes: 5_000_000, gzipBytes: 1_048_577 }];
    expect(checkDeploy(big, GOOD_TOML)).toEqual({ ok: false, lines: ["error: bundle 1024.00 KiB gzipped (4882.81 KiB raw) is over the budget of 1024.00 KiB gzipped"] });
    expect(checkDeploy([], GOOD_TOML).lines[0]).toBe("error: the dry-run folder holds no bundle (did `wrangler deploy --dry-run --outdir` run?)");
  });

  it("fails on a dev-only value or a secret in any production vars table, and on a period mismatch", () => {
    const toml = GOOD_TOML.replace('[vars]\n', '[vars]\nSLUICE_AUDIT_KEY = "dev-only-audit-key-not-for-production"\n') +
      `[env.staging]\n[env.staging.vars]\nNOTE = "dev-only-thing"\nSLUICE_AUDIT_KEY = "x"\nSLUICE_CLIENT_AUTH = "off"\nSLUICE_RATE_LIMIT_PERIOD_SECONDS = "10"\n[[env.staging.ratelimits]]\nname = "SLUICE_RATE_LIMITER"\nnamespace_id = "1002"\nsimple = { limit = 100, period = 60 }\n` +
      DURABLE_OBJECTS.split("[[migrations]]")[0]!.replaceAll("[[durable_objects", "[[env.staging.durable_objects");
    const r = checkDeploy(BUNDLE, toml);
    expect(r).toEqual({ ok: false, lines: [
      "ok: bundle 224.81 KiB gzipped (1161.99 KiB raw), budget 1024.00 KiB gzipped",
      "error: top level vars: SLUICE_AUDIT_KEY is a secret, not a var: remove it here and run `wrangler secret put SLUICE_AUDIT_KEY` (wrangler dev reads it from .dev.vars)",
      "error: [env.staging] vars: NOTE holds a development value (dev-only-…): not for production vars",
      "error: [env.staging] vars: SLUICE_AUDIT_KEY is a secret, not a var: remove it here and run `wrangler secret put SLUICE_AUDIT_KEY` (wrangler dev reads it from .dev.vars)",
      "error: [env.staging]: SLUICE_RATE_LIMITER has period 60 s but SLUICE_RATE_LIMIT_PERIOD_SECONDS is 10: retry-after would be wrong",
      'warning: [env.staging] vars: SLUICE_CLIENT_AUTH = "off": anyone who reaches the URL can use the gateway unless something in front authenticates callers',
    ] });
  });

  it("fails without the rate limit binding or [observability]", () => {
    const toml = `name = "x"\n[vars]\nA = "1"\n${DURABLE_OBJECTS}`;
    expect(checkDeploy(BUNDLE, toml).lines.slice(1)).toEqual([
      "error: top level: no [[ratelimits]] binding named SLUICE_RATE_LIMITER: callers would not be rate-limited",
      "error: [observability] enabled = true is missing: Workers Logs would drop the structured log lines",
    ]);
  });

  it("the project's wrangler.toml passes", () => {
    expect(checkDeploy(BUNDLE, readFileSync("wrangler.toml", "utf8"))).toEqual({ ok: true, lines: [expect.stringMatching(/^ok: bundle/), OK_VARS, OK_ENVS] });
  });
});

describe("checkEnvironments: every environment against the Worker's Durable Object classes", () => {
  const envTable = (body: string) => `${GOOD_TOML}[env.staging]\nname = "x-staging"\n${body}`;
  const findings = (toml: string) => checkEnvironments(parse(toml) as WranglerDoc, DURABLE_OBJECT_CLASSES);

  it("an [env.*] without a binding, with another class, or missing a top-level var is an error naming each", () => {
    const bindings = DURABLE_OBJECTS.split("[[migrations]]")[0]!.replaceAll("[[durable_objects", "[[env.staging.durable_objects");
    const toml = envTable(`[env.staging.vars]\nSLUICE_MEASURE = "1"\n${bindings.replace(/\[\[env.staging.durable_objects.bindings\]\]\nname = "MEMORY"\nclass_name = "MemoryObject"\n/, "").replace('class_name = "AuditObject"', 'class_name = "Audit"')}`);
    expect(findings(toml)).toEqual([
      { where: "top level", errors: [] },
      { where: "[env.staging]", errors: [
        'binding AUDIT names class "Audit", but the Worker\'s AUDIT is class AuditObject (bindings are not inherited from the top level)',
        'no Durable Object binding MEMORY (class_name = "MemoryObject"): the Worker\'s MEMORY would be undefined (bindings are not inherited from the top level)',
        "binding AUDIT names class Audit, which the Worker does not export (it exports SessionObject, AuditObject, SessionIndex, MemoryObject) (bindings are not inherited from the top level)",
        "vars SLUICE_RATE_LIMIT_PERIOD_SECONDS are set at the top level but not in [env.staging.vars]: vars are not inherited, so this environment gets the built-in defaults",
      ] },
    ]);
  });

  it("migrations: a missing class, a key-value class, a class the Worker does not export, a repeated tag", () => {
    const toml = GOOD_TOML.replace('new_sqlite_classes = ["SessionObject", "AuditObject", "SessionIndex", "MemoryObject"]', 'new_sqlite_classes = ["SessionObject", "SessionIndex", "Gone"]\nnew_classes = ["AuditObject"]') +
      '[[migrations]]\ntag = "v1"\nrenamed_classes = [{ from = "Gone", to = "Old" }]\n';
    expect(findings(toml)).toEqual([{ where: "top level", errors: [
      "migration tag v1 is used more than once: Cloudflare applies each tag once",
      "class AuditObject is created with new_classes (key-value storage), but it keeps its state in SQLite: it needs new_sqlite_classes",
      'no migration creates class MemoryObject: append [[migrations]] tag = "v3", new_sqlite_classes = ["MemoryObject"]',
      "the migrations leave class Old, which the Worker does not export: deploy refuses it; append a migration with deleted_classes or renamed_classes",
    ] }]);
    // Deleting it again, under a new tag, settles it; an environment inherits the top-level list.
    const fixed = GOOD_TOML + '[[migrations]]\ntag = "v2"\nnew_sqlite_classes = ["Old"]\n[[migrations]]\ntag = "v3"\ndeleted_classes = ["Old"]\n';
    expect(findings(fixed)).toEqual([{ where: "top level", errors: [] }]);
  });

  it("the deploy gate reports them as errors", () => {
    const r = checkDeploy(BUNDLE, GOOD_TOML.replace('name = "MEMORY"', 'name = "MEM"'));
    expect([r.ok, r.lines.filter((l) => l.startsWith("error"))]).toEqual([false, [
      'error: top level: no Durable Object binding MEMORY (class_name = "MemoryObject"): the Worker\'s MEMORY would be undefined',
    ]]);
  });
});
