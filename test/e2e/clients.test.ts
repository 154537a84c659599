/**
 * Real-client conformance: Claude Code 2.1.332 (default model; claude-opus-4-8
 * with thinking; with thinking off) and Codex CLI 0.171.0 run a 40-tool-step scripted session
 * through `wrangler dev` with SLUICE_COMPACTION=1, and once straight at the scripted upstream.
 * Each check of tools/e2e/expectations.ts is one test per setting; the ones listed in
 * KNOWN_FAILING are marked `fails` (they turn red once they pass: then remove the entry).
 * The report is written to e2e-report/ like `npm run e2e:clients` does.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { KNOWN_FAILING, type CheckName } from "../../tools/e2e/expectations";
import { formatReport } from "../../tools/e2e/format-report";
import { runE2e, SETTINGS, type E2eReport } from "../../tools/e2e/run-e2e";

const CHECKS: readonly CheckName[] = ["completes", "no_validation_errors", "compaction_steps", "billed_input_reduction", "no_dangling_references", "prefix_changes_only_at_steps", "websocket_answered_fast"];

let report: E2eReport;

beforeAll(async () => {
  const reportDir = resolve("e2e-report");
  mkdirSync(reportDir, { recursive: true });
  report = await runE2e({ reportDir });
  writeFileSync(join(reportDir, "report.json"), JSON.stringify(report, null, 2) + "\n");
  console.log(formatReport(report));
});

for (const setting of SETTINGS) {
  describe(setting, () => {
    for (const check of CHECKS) {
      const known = KNOWN_FAILING[setting]?.[check];
      (known ? test.fails : test)(`${check}${known ? " (known failing)" : ""}`, () => {
        const result = report.checks.find((c) => c.setting === setting && c.check === check);
        expect(result, `${setting} ${check} was not evaluated`).toBeDefined();
        expect(result!.pass, `${setting} ${check}: ${result!.figure}`).toBe(true);
      });
    }
  });
}

test("every session ran 40 tool steps plus the final answer (41 main-loop requests)", () => {
  for (const s of report.sessions) expect(s.figures.requests, `${s.setting} ${s.mode}`).toBeGreaterThanOrEqual(report.plan_tool_steps + 1);
});
