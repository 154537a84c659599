/**
 * `npm run e2e:clients`: runs the real-client conformance sessions (tools/e2e/run-e2e.ts),
 * prints the tables and writes `e2e-report/report.json` (with the sessions' transcripts under
 * `e2e-report/transcripts/`). Exits 1 when a check fails that is not a known failure.
 * Flags: `--settings a,b` (a subset of SETTINGS in ./settings.ts),
 * `--out DIR` (report folder), `--config JSON` (the gateway's COMPACTION_CONFIG block, e.g.
 * `{"guarantee_level":"rewrite"}`; checked like any config, a bad one fails the gateway's start).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { formatReport } from "./format-report";
import type { ClientSetting } from "./settings";
import { runE2e, SETTINGS } from "./run-e2e";

const { values } = parseArgs({ options: { settings: { type: "string" }, out: { type: "string", default: "e2e-report" }, config: { type: "string" } } });
const settings = values.settings ? (values.settings.split(",") as ClientSetting[]) : SETTINGS;
const unknown = settings.filter((s) => !SETTINGS.includes(s));
if (unknown.length > 0) {
  console.error(`--settings: unknown ${unknown.join(", ")} (known: ${SETTINGS.join(", ")})`);
  process.exit(2);
}
const reportDir = resolve(values.out!);
mkdirSync(reportDir, { recursive: true });
const report = await runE2e({ reportDir, settings, log: (l) => console.error(`[e2e] ${l}`), ...(values.config ? { compactionConfig: values.config } : {}) });
writeFileSync(join(reportDir, "report.json"), JSON.stringify(report, null, 2) + "\n");
console.log(formatReport(report));
console.log(`\nreport: ${join(reportDir, "report.json")}`);
process.exit(report.checks.some((c) => !c.pass && c.known_failing === null) ? 1 : 0);
