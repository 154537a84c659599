/** tools/e2e/run-defaults.ts (its pure parts) and the defaults tables of tools/e2e/format-report.ts. */
import { describe, expect, it } from "vitest";
import type { SessionFigures } from "../../tools/e2e/analyze-session";
import { defaultsTables } from "../../tools/e2e/format-report";
import { defaultsSettings, evaluateDefaults } from "../../tools/e2e/run-defaults";
import type { SessionReport } from "../../tools/e2e/run-session";
import { SETTINGS, type ClientSetting } from "../../tools/e2e/settings";

const figures: SessionFigures = {
  model: "claude-opus-4-8", requests: 41, validation_errors: 0, validation_messages: [], other_forwarded: {}, steps: 0, step_tiers: {}, summary_blocks_last: 0, compaction_edits: 0, compaction_headers: {},
  bytes_sent: 0, bytes_forwarded: 0, last_bytes_sent: 0, last_bytes_forwarded: 0, reference_replies: 0, dangling_references: 0, prefix_changes_outside_steps: 0, trigger_requests: 0, triggers_untouched: 0, compacted_requests: 0,
};
function session(setting: ClientSetting, mode: "direct" | "sluice", tokens: number, usd: number, f: Partial<SessionFigures> = {}): SessionReport {
  return {
    setting, mode, completed: true, exit_code: 0, duration_ms: 1, figures: { ...figures, ...f },
    billed: { input_tokens: tokens, uncached: 0, cache_read: tokens, cache_write: 0, input_cost_usd: usd }, websocket: { attempts: 0, statuses: {}, max_answer_ms: 0 }, transcripts: [], stderr_tail: "",
  };
}

describe("defaultsSettings", () => {
  it("keeps every setting but the one where the client compacts itself, in the order given", () => {
    expect(defaultsSettings(SETTINGS)).toEqual(["claude-default", "claude-4x-thinking", "claude-4x-no-thinking", "codex-default", "codex", "codex-builtin-default", "codex-builtin"]);
    expect(defaultsSettings(["codex-autocompact", "codex"])).toEqual(["codex"]);
  });
});

describe("evaluateDefaults", () => {
  it("asks the main pass's five config-bound checks, with its figures, and no known failure", () => {
    const d = session("claude-4x-no-thinking", "direct", 1_786_152, 1.3194);
    const v = session("claude-4x-no-thinking", "sluice", 1_785_283, 1.3187);
    expect(evaluateDefaults("claude-4x-no-thinking", d, v)).toEqual([
      { setting: "claude-4x-no-thinking", check: "completes", figure: "direct yes, sluice yes", pass: true, known_failing: null },
      { setting: "claude-4x-no-thinking", check: "no_validation_errors", figure: "0 (direct 0)", pass: true, known_failing: null },
      { setting: "claude-4x-no-thinking", check: "input_cost_not_higher", figure: "$1.3194 → $1.3187 (-0.1 %)", pass: true, known_failing: null },
      { setting: "claude-4x-no-thinking", check: "no_dangling_references", figure: "0 of 0 reference replies", pass: true, known_failing: null },
      { setting: "claude-4x-no-thinking", check: "prefix_changes_only_at_steps", figure: "0 changes outside steps", pass: true, known_failing: null },
    ]);
  });

  it("fails input_cost_not_higher at +3.3 % and prefix_changes_only_at_steps on one change outside a step", () => {
    const d = session("claude-4x-no-thinking", "direct", 1_000_000, 1.0);
    const v = session("claude-4x-no-thinking", "sluice", 900_000, 1.033, { steps: 1, prefix_changes_outside_steps: 1 });
    const byName = Object.fromEntries(evaluateDefaults("claude-4x-no-thinking", d, v).map((c) => [c.check, [c.pass, c.figure]]));
    expect([byName.input_cost_not_higher, byName.prefix_changes_only_at_steps]).toEqual([[false, "$1.0000 → $1.0330 (3.3 %)"], [false, "1 changes outside steps"]]);
  });
});

describe("defaultsTables", () => {
  it("gives per setting the model, requests, steps, 4xx, billed tokens and input dollars direct → defaults, marks a costlier one, then the checks", () => {
    const direct = [session("claude-4x-no-thinking", "direct", 1_786_152, 1.31940000), session("codex", "direct", 1_602_331, 0.28240000, { model: "gpt-5.5-codex" })];
    const defaults = [session("claude-4x-no-thinking", "sluice", 1_785_283, 1.33000000), session("codex", "sluice", 1_441_319, 0.27780000, { model: "gpt-5.5-codex", steps: 1 })];
    const checks = evaluateDefaults("codex", direct[1]!, defaults[1]!).slice(2, 3);
    expect(defaultsTables({ config: {}, sessions: defaults, checks }, direct).split("\n").map((l) => l.trimEnd())).toEqual([
      "Through Sluice at the default config (gateway config {}), against the direct sessions above",
      "setting                model            requests d / s  steps  4xx d / s  billed input tokens direct → defaults  input $ direct → defaults",
      "---------------------  ---------------  --------------  -----  ---------  -------------------------------------  -------------------------  --------",
      "claude-4x-no-thinking  claude-opus-4-8  41 / 41         0      0 / 0      1,786,152 → 1,785,283 (−0.0 %)         1.3194 → 1.3300 (+0.8 %)   costlier",
      "codex                  gpt-5.5-codex    41 / 41         1      0 / 0      1,602,331 → 1,441,319 (−10.0 %)        0.2824 → 0.2778 (−1.6 %)",
      "",
      "setting  check                  result  figure",
      "-------  ---------------------  ------  --------------------------",
      "codex    input_cost_not_higher  pass    $0.2824 → $0.2778 (-1.6 %)",
    ]);
  });
});
