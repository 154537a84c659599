/**
 * `npm run config:check [path/to/wrangler.toml]`: validates the compaction settings in
 * wrangler.toml offline, with the same schema and messages as the Worker (src/config).
 * Checks top-level [vars] and every [env.<name>.vars]. Secrets are not in the file, so a
 * warning that a named secret "is not set" is expected here; a secret written as a var, a
 * development value (`dev-only-…`) or SLUICE_ENV in a vars table is an error
 * (tools/shared/production-vars.ts), and a last line lists the secrets to set. Then the top
 * level and every [env.<name>]: Durable Object bindings, migrations and vars against the classes
 * the Worker exports (tools/deploy/check-environments.ts). Exit 1 on any error.
 */
import { readFileSync } from "node:fs";
import { parse } from "smol-toml";
import { loadConfig, type ConfigEnv } from "../src/config/load-config";
import { readGatewayConfig } from "../src/config/gateway-config";
import type { Env } from "../src/config/env";
import { productionVarErrors, secretNames } from "./shared/production-vars";
import { misspeltVarWarnings } from "./shared/known-vars";
import { parseArgs } from "node:util";
import { DURABLE_OBJECT_CLASSES } from "../src/durable-object-classes";
import { checkEnvironments, type WranglerDoc } from "./deploy/check-environments";

/** One checked vars table: where it came from and what loadConfig said. */
export interface CheckedVars {
  where: string;
  lines: string[];
  ok: boolean;
}

/** Checks every vars table of a wrangler.toml text (pure apart from nothing: no I/O). */
export function checkWranglerToml(text: string): CheckedVars[] {
  const doc = parse(text) as { vars?: ConfigEnv; env?: Record<string, { vars?: ConfigEnv }> };
  const tables: Array<[string, ConfigEnv]> = [["[vars]", doc.vars ?? {}]];
  for (const [name, e] of Object.entries(doc.env ?? {})) {
    if (e.vars) tables.push([`[env.${name}.vars]`, e.vars]);
  }
  return tables.map(([where, vars]) => {
    // The gateway's own vars (base URLs, timeout) first: the Worker refuses them the same way.
    try {
      readGatewayConfig(vars as unknown as Env);
    } catch (err) {
      return { where, ok: false, lines: [`error: ${(err as Error).message}`] };
    }
    const misspelt = misspeltVarWarnings(Object.keys(vars), secretNames(vars)).map((w) => `warning: ${w}`);
    const r = loadConfig(vars);
    if (!r.ok) return { where, ok: false, lines: [`error: ${r.error.field}: ${r.error.message}`, ...misspelt] };
    const errors = productionVarErrors(vars);
    const secretsLine = `secrets to set (wrangler secret put; .dev.vars under wrangler dev): ${secretNames(vars).join(", ")}`;
    if (errors.length > 0) return { where, ok: false, lines: [...errors.map((e) => `error: ${e}`), secretsLine] };
    const engine = r.mode === "off" ? "" : ` (engine ${r.config.engine})`;
    return { where, ok: true, lines: [`ok: compaction ${r.mode}${engine}`, ...r.warnings.map((w) => `warning: ${w}`), ...misspelt, secretsLine] };
  });
}

/** Checks every environment's Durable Object bindings, migrations and vars (pure). */
export function checkWranglerEnvironments(text: string): CheckedVars[] {
  return checkEnvironments(parse(text) as WranglerDoc, DURABLE_OBJECT_CLASSES).map((f) => ({
    where: f.where,
    ok: f.errors.length === 0,
    lines: f.errors.length === 0 ? ["ok: Durable Object bindings and migrations match the Worker's classes"] : f.errors.map((e) => `error: ${e}`),
  }));
}

const USAGE = "usage: npm run config:check [-- path/to/wrangler.toml]  (default ./wrangler.toml)";

function main(): void {
  let positionals: string[];
  try {
    const args = parseArgs({ args: process.argv.slice(2), options: { help: { type: "boolean", short: "h" } }, allowPositionals: true });
    if (args.values.help) {
      console.log(USAGE);
      return;
    }
    positionals = args.positionals;
  } catch (err) {
    console.error(`error: ${(err as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  if (positionals.length > 1) {
    console.error(`error: one wrangler.toml at a time, got ${positionals.length} paths\n${USAGE}`);
    process.exit(2);
  }
  const path = positionals[0] ?? "wrangler.toml";
  let results: CheckedVars[];
  try {
    const text = readFileSync(path, "utf8");
    results = [...checkWranglerToml(text), ...checkWranglerEnvironments(text)];
  } catch (err) {
    console.error(`error: ${path}: ${(err as Error).message}`);
    process.exit(1);
  }
  for (const r of results) {
    for (const line of r.lines) (r.ok ? console.log : console.error)(`${path} ${r.where} ${line}`);
  }
  process.exit(results.every((r) => r.ok) ? 0 : 1);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
