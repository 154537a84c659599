/**
 * The deploy gate of `.ci/run` and `npm run deploy:check` (pure: file sizes and wrangler.toml text
 * in, report out; docs/deploy.md "CI gate"):
 * 1. Bundle budget: the gzipped size of the code wrangler would upload (every file of the
 *    `wrangler deploy --dry-run --outdir` folder except source maps and README.md) must be at most
 *    BUNDLE_BUDGET_GZIP_BYTES. Cloudflare's own limits are 3 MiB (Free) / 10 MiB (Paid) gzipped;
 *    our budget is 1 MiB, so growth is seen long before it blocks a deploy.
 * 2. Every vars table (top level and each [env.<name>]) passes tools/shared/production-vars.ts:
 *    no secret as a var, no development value, no SLUICE_ENV.
 * 3. Rate limit: each table that has vars needs the [[ratelimits]] binding SLUICE_RATE_LIMITER,
 *    and its `simple.period` must equal SLUICE_RATE_LIMIT_PERIOD_SECONDS (the retry-after sent).
 * 4. `[observability] enabled = true` at the top level (Workers Logs keep the structured lines).
 * 5. Every environment's Durable Object bindings, migrations and vars against the classes the
 *    Worker exports (./check-environments.ts, src/durable-object-classes.ts).
 * Warnings (exit 0): SLUICE_CLIENT_AUTH = "off" in a deployed table (an open relay unless
 * something in front authenticates callers).
 */
import { parse } from "smol-toml";
import type { ConfigEnv } from "../../src/config/load-config";
import { DEFAULT_RATE_LIMIT_PERIOD_S, RATE_LIMIT_BINDING, RATE_LIMIT_PERIOD_VAR } from "../../src/http/middleware/rate-limit";
import { productionVarErrors } from "../shared/production-vars";
import { DURABLE_OBJECT_CLASSES } from "../../src/durable-object-classes";
import { checkEnvironments, type WranglerDoc } from "./check-environments";

/** Gzipped bundle budget, bytes (1 MiB). */
export const BUNDLE_BUDGET_GZIP_BYTES = 1_048_576;

/** One uploaded file: name, raw bytes and gzipped bytes. */
export interface BundleFile {
  name: string;
  bytes: number;
  gzipBytes: number;
}

export interface DeployReport {
  ok: boolean;
  /** Lines to print: `ok: …`, `warning: …`, `error: …`. */
  lines: string[];
}

interface RateLimitEntry { name?: string; simple?: { limit?: number; period?: number } }
interface EnvTable { vars?: ConfigEnv; ratelimits?: RateLimitEntry[] }
type TomlDoc = EnvTable & { env?: Record<string, EnvTable>; observability?: { enabled?: boolean } };

/** Files of the dry-run folder that count toward the budget (no source maps, no README). */
export function countsTowardBudget(name: string): boolean {
  return !name.endsWith(".map") && name !== "README.md";
}

const kib = (n: number) => `${(n / 1024).toFixed(2)} KiB`;

/** Checks a dry-run bundle and the wrangler.toml text. */
export function checkDeploy(files: readonly BundleFile[], tomlText: string, budgetGzipBytes = BUNDLE_BUDGET_GZIP_BYTES): DeployReport {
  const lines: string[] = [];
  let ok = true;
  const error = (l: string) => { ok = false; lines.push(`error: ${l}`); };

  const counted = files.filter((f) => countsTowardBudget(f.name));
  const raw = counted.reduce((s, f) => s + f.bytes, 0);
  const gz = counted.reduce((s, f) => s + f.gzipBytes, 0);
  if (counted.length === 0) error("the dry-run folder holds no bundle (did `wrangler deploy --dry-run --outdir` run?)");
  else if (gz > budgetGzipBytes) error(`bundle ${kib(gz)} gzipped (${kib(raw)} raw) is over the budget of ${kib(budgetGzipBytes)} gzipped`);
  else lines.push(`ok: bundle ${kib(gz)} gzipped (${kib(raw)} raw), budget ${kib(budgetGzipBytes)} gzipped`);

  const doc = parse(tomlText) as TomlDoc;
  const tables: Array<[string, EnvTable]> = [["top level", doc]];
  for (const [name, e] of Object.entries(doc.env ?? {})) tables.push([`[env.${name}]`, e]);
  for (const [where, t] of tables) {
    const vars = t.vars ?? {};
    for (const e of productionVarErrors(vars)) error(`${where} vars: ${e}`);
    if (t.vars === undefined && where !== "top level") continue;
    const binding = (t.ratelimits ?? []).find((r) => r.name === RATE_LIMIT_BINDING);
    const declared = typeof vars[RATE_LIMIT_PERIOD_VAR] === "string" && vars[RATE_LIMIT_PERIOD_VAR] !== "" ? Number(vars[RATE_LIMIT_PERIOD_VAR]) : DEFAULT_RATE_LIMIT_PERIOD_S;
    if (!binding) error(`${where}: no [[ratelimits]] binding named ${RATE_LIMIT_BINDING}: callers would not be rate-limited`);
    else if (binding.simple?.period !== declared) error(`${where}: ${RATE_LIMIT_BINDING} has period ${binding.simple?.period} s but ${RATE_LIMIT_PERIOD_VAR} is ${declared}: retry-after would be wrong`);
    if (typeof vars.SLUICE_CLIENT_AUTH === "string" && vars.SLUICE_CLIENT_AUTH.trim() === "off") {
      lines.push(`warning: ${where} vars: SLUICE_CLIENT_AUTH = "off": anyone who reaches the URL can use the gateway unless something in front authenticates callers`);
    }
  }
  if (doc.observability?.enabled !== true) error("[observability] enabled = true is missing: Workers Logs would drop the structured log lines");
  for (const f of checkEnvironments(doc as WranglerDoc, DURABLE_OBJECT_CLASSES)) for (const e of f.errors) error(`${f.where}: ${e}`);
  if (ok) lines.push("ok: production vars hold no secret, no development value and no SLUICE_ENV; rate limit and observability configured");
  if (ok) lines.push(`ok: every environment binds and migrates the Worker's Durable Object classes (${DURABLE_OBJECT_CLASSES.map((c) => c.class_name).join(", ")}) and repeats the top-level vars`);
  return { ok, lines };
}
