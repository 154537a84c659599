/**
 * Real-client conformance: Claude Code 2.1.332 (default model; claude-opus-4-8 with thinking;
 * with thinking off) and Codex CLI 0.171.0 (default model gpt-6.2-sol and pinned gpt-5.5-codex,
 * custom and built-in provider; the default model compacting itself) run a 40-tool-step scripted
 * session through `wrangler dev` with SLUICE_COMPACTION=1, and once straight at the scripted
 * upstream; then each setting but codex-autocompact once more through Sluice at the default
 * config (tools/e2e/run-defaults.ts), checked against its direct session (completes, no 4xx, input
 * dollars not higher, no dangling reference, prefix changes only at steps); then the restore
 * settings (tools/e2e/run-restore.ts): both clients configured with
 * Sluice's MCP server restore a removed result and get its exact bytes back. Each check of tools/e2e/expectations.ts that applies to a setting (checksFor) is one
 * test; the ones listed in KNOWN_FAILING are marked `fails` (they turn red once they pass: then
 * remove the entry). The report is written to e2e-report/ like `npm run e2e:clients` does.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { checksFor, KNOWN_FAILING } from "../../tools/e2e/expectations";
import { formatReport } from "../../tools/e2e/format-report";
import { runE2e, SETTINGS, type E2eReport, type SessionReport } from "../../tools/e2e/run-e2e";
import { AUTO_COMPACT_TOKENS, CLAUDE_4X_MODEL, CODEX_MODEL, isCodex, type ClientSetting } from "../../tools/e2e/settings";
import { DEFAULTS_CHECKS, DEFAULTS_CONFIG, defaultsSettings } from "../../tools/e2e/run-defaults";
import { RESTORE_SETTINGS, toolName } from "../../tools/e2e/run-restore";

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
    for (const check of checksFor(setting)) {
      const known = KNOWN_FAILING[setting]?.[check];
      (known ? test.fails : test)(`${check}${known ? " (known failing)" : ""}`, () => {
        const result = report.checks.find((c) => c.setting === setting && c.check === check);
        expect(result, `${setting} ${check} was not evaluated`).toBeDefined();
        expect(result!.pass, `${setting} ${check}: ${result!.figure}`).toBe(true);
      });
    }
  });
}

describe(`at the default config (${JSON.stringify(DEFAULTS_CONFIG)}): each setting through Sluice against its direct session`, () => {
  for (const setting of defaultsSettings(SETTINGS)) {
    describe(setting, () => {
      for (const check of DEFAULTS_CHECKS) {
        test(check, () => {
          const result = report.defaults.checks.find((c) => c.setting === setting && c.check === check);
          expect(result, `${setting} ${check} at the defaults was not evaluated`).toBeDefined();
          expect(result!.pass, `${setting} ${check} at the defaults: ${result!.figure}`).toBe(true);
        });
      }
    });
  }
});

test("every session, the defaults pass's too, ran 40 tool steps plus the final answer (41 main-loop requests)", () => {
  for (const s of report.sessions) expect(s.figures.requests, `${s.setting} ${s.mode}`).toBeGreaterThanOrEqual(report.plan_tool_steps + 1);
  for (const s of report.defaults.sessions) expect(s.figures.requests, `${s.setting} defaults`).toBeGreaterThanOrEqual(report.plan_tool_steps + 1);
});

const session = (setting: ClientSetting, mode: "direct" | "sluice"): SessionReport => report.sessions.find((s) => s.setting === setting && s.mode === mode)!;

test("each setting ran its client's default model (Claude Code 2.1.332: claude-opus-5-5, Codex 0.171.0: gpt-6.2-sol) or the pinned one", () => {
  expect(report.models).toEqual({
    "claude-default": "claude-opus-5-5",
    "claude-4x-thinking": CLAUDE_4X_MODEL,
    "claude-4x-no-thinking": CLAUDE_4X_MODEL,
    "codex-default": "gpt-6.2-sol",
    codex: CODEX_MODEL,
    "codex-builtin-default": "gpt-6.2-sol",
    "codex-builtin": CODEX_MODEL,
    "codex-autocompact": "gpt-6.2-sol",
  });
});

test("every Codex session sent exactly one request per plan step, plus one per compaction it asked for", () => {
  for (const s of report.sessions.filter((x) => isCodex(x.setting))) expect(s.figures.requests, `${s.setting} ${s.mode}`).toBe(report.plan_tool_steps + 1 + s.figures.trigger_requests);
  for (const s of report.defaults.sessions.filter((x) => isCodex(x.setting))) expect(s.figures.requests, `${s.setting} defaults`).toBe(report.plan_tool_steps + 1 + s.figures.trigger_requests);
});

describe(`codex-autocompact: Codex compacts at ${AUTO_COMPACT_TOKENS} tokens`, () => {
  test("two compaction_trigger requests in each session, all forwarded as sent; Sluice stands aside on the 28 requests after a compaction item", () => {
    const d = session("codex-autocompact", "direct");
    const v = session("codex-autocompact", "sluice");
    expect([d.figures.requests, d.figures.trigger_requests, d.figures.compacted_requests]).toEqual([43, 2, 28]);
    expect([v.figures.requests, v.figures.trigger_requests, v.figures.triggers_untouched, v.figures.compacted_requests, v.figures.steps, v.figures.bytes_forwarded - v.figures.bytes_sent]).toEqual([43, 2, 2, 28, 0, 0]);
  });

  test("POST /openai/v1/responses/compact reaches the upstream byte for byte, and its answer the client, with no compaction header", () => {
    const { bytes, ...probe } = report.probes["codex-autocompact"]!;
    expect(bytes).toBeGreaterThan(100_000);
    expect(probe).toEqual({ status: 200, request_untouched: true, answer_untouched: true, sluice_headers: ["x-sluice-request-id"] });
  });
});

describe("restore through Sluice's MCP tool (placeholders, archive_removed): real Claude Code and Codex", () => {
  for (const setting of RESTORE_SETTINGS) {
    describe(setting, () => {
      for (const check of ["completes", "no_validation_errors", "tool_listed_from_first_request", "restore_called", "restore_bytes_equal", "cache_hit_within_1pt"] as const) {
        test(check, () => {
          const result = report.restore?.checks.find((c) => c.setting === setting && c.check === check);
          expect(result, `${setting} ${check} was not evaluated`).toBeDefined();
          expect(result!.pass, `${setting} ${check}: ${result!.figure}`).toBe(true);
        });
      }
    });
  }

  test("each client called the tool under the name it exposes, with the first marker's id, and got back the client's own copy of that result", () => {
    const calls = Object.fromEntries(report.restore!.sessions.filter((s) => s.mcp).map((s) => [s.setting, s.restore.restore && { tool: toolName(s.restore.restore.tool), call_id: s.restore.restore.call_id, mcp_equal: s.restore.restore.mcp_equal }]));
    // The first marker in the forwarded history: Claude Code's first Read (src/module_01.ts), Codex's `cat src/module_04.ts` (plan step 3).
    expect(calls).toEqual({
      "claude-restore": { tool: "mcp__sluice__restore_tool_result", call_id: "toolu_e2e_0", mcp_equal: true },
      "codex-restore": { tool: "mcp__sluice.restore_tool_result", call_id: "call_e2e_6", mcp_equal: true },
    });
  });
});
