/**
 * `npm run e2e:clients`: runs the real-client conformance sessions (tools/e2e/run-e2e.ts),
 * prints the tables and writes `e2e-report/report.json` (with the sessions' transcripts under
 * `e2e-report/transcripts/`). Exits 1 when a check fails that is not a known failure.
 * Flags: `--settings a,b` (a subset of SETTINGS in ./settings.ts and RESTORE_SETTINGS in ./run-restore.ts;
 * the defaults pass, ./run-defaults.ts, runs for the named settings of SETTINGS),
 * `--out DIR` (report folder), `--config JSON` (the gateway's COMPACTION_CONFIG block, e.g.
 * `{"guarantee_level":"rewrite"}`; checked like any config, a bad one fails the gateway's start).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { formatReport } from "./format-report";
import type { ClientSetting } from "./settings";
import { runE2e, SETTINGS } from "./run-e2e";
import { RESTORE_SETTINGS, type RestoreSetting } from "./run-restore";

const { values } = parseArgs({ options: { settings: { type: "string" }, out: { type: "string", default: "e2e-report" }, config: { type: "string" } } });
const named = values.settings ? values.settings.split(",") : [...SETTINGS, ...RESTORE_SETTINGS];
const known: readonly string[] = [...SETTINGS, ...RESTORE_SETTINGS];
const unknown = named.filter((s) => !known.includes(s));
if (unknown.length > 0) {
  console.error(`--settings: unknown ${unknown.join(", ")} (known: ${known.join(", ")})`);
  process.exit(2);
}
const settings = named.filter((s): s is ClientSetting => (SETTINGS as readonly string[]).includes(s));
const restoreSettings = named.filter((s): s is RestoreSetting => (RESTORE_SETTINGS as readonly string[]).includes(s));
const reportDir = resolve(values.out!);
mkdirSync(reportDir, { recursive: true });
const report = await runE2e({ reportDir, settings, restoreSettings, log: (l) => console.error(`[e2e] ${l}`), ...(values.config ? { compactionConfig: values.config } : {}) });
writeFileSync(join(reportDir, "report.json"), JSON.stringify(report, null, 2) + "\n");
console.log(formatReport(report));
console.log(`\nreport: ${join(reportDir, "report.json")}`);
const failed = report.checks.some((c) => !c.pass && c.known_failing === null) || report.defaults.checks.some((c) => !c.pass) || (report.restore?.checks.some((c) => !c.pass) ?? false);
process.exit(failed ? 1 : 0);
