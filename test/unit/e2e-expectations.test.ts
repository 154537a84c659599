/** tools/e2e/expectations.ts and the cost table of tools/e2e/format-report.ts. */
import { describe, expect, it } from "vitest";
import type { SessionFigures } from "../../tools/e2e/analyze-session";
import { checksFor, evaluate } from "../../tools/e2e/expectations";
import { costTable } from "../../tools/e2e/format-report";
import type { E2eReport, SessionReport } from "../../tools/e2e/run-e2e";

const figures: SessionFigures = {
  model: "gpt-6.2-sol", requests: 41, validation_errors: 0, validation_messages: [], other_forwarded: {}, steps: 0, step_tiers: {}, summary_blocks_last: 0, compaction_edits: 0, compaction_headers: {},
  bytes_sent: 0, bytes_forwarded: 0, last_bytes_sent: 0, last_bytes_forwarded: 0, reference_replies: 0, dangling_references: 0, prefix_changes_outside_steps: 0, trigger_requests: 0, triggers_untouched: 0, compacted_requests: 0,
};
function session(mode: "direct" | "sluice", tokens: number, usd: number, f: Partial<SessionFigures> = {}): SessionReport {
  return {
    setting: "codex-default", mode, completed: true, exit_code: 0, duration_ms: 1, figures: { ...figures, ...f },
    billed: { input_tokens: tokens, uncached: 0, cache_read: tokens, cache_write: 0, input_cost_usd: usd }, websocket: { attempts: 0, statuses: {}, max_answer_ms: 0 }, transcripts: [], stderr_tail: "",
  };
}
const byName = (rs: ReturnType<typeof evaluate>) => Object.fromEntries(rs.map((r) => [r.check, [r.pass, r.figure]]));

describe("checksFor", () => {
  it("checks Sluice's savings where the client does not compact itself, and the compaction traffic where it does", () => {
    expect(checksFor("codex-default")).toEqual(["completes", "no_validation_errors", "input_cost_not_higher", "no_dangling_references", "prefix_changes_only_at_steps", "websocket_answered_fast", "compaction_steps", "billed_input_reduction"]);
    expect(checksFor("codex-autocompact").slice(-2)).toEqual(["compaction_trigger_untouched", "compact_route_passthrough"]);
  });
});

describe("evaluate", () => {
  it("fails input_cost_not_higher beyond 0.5 % more dollars through Sluice, whatever the tokens", () => {
    const d = session("direct", 1000, 0.2);
    expect(byName(evaluate("codex-default", d, session("sluice", 600, 0.201, { steps: 1 }))).input_cost_not_higher).toEqual([true, "$0.2000 → $0.2010 (0.5 %)"]);
    expect(byName(evaluate("codex-default", d, session("sluice", 600, 0.2012, { steps: 1 }))).input_cost_not_higher).toEqual([false, "$0.2000 → $0.2012 (0.6 %)"]);
  });

  it("passes the trigger check only when there was a trigger and every one went through as sent; the probe check fails when nothing was probed", () => {
    const d = session("direct", 1000, 0.2, { trigger_requests: 3 });
    const probe = { status: 200, bytes: 10, request_untouched: true, answer_untouched: true, sluice_headers: ["x-sluice-request-id"] };
    const ok = byName(evaluate("codex-autocompact", d, session("sluice", 1000, 0.2, { trigger_requests: 3, triggers_untouched: 3 }), probe));
    expect([ok.compaction_trigger_untouched, ok.compact_route_passthrough]).toEqual([
      [true, "3 of 3 trigger requests forwarded as sent (direct 3)"],
      [true, "status 200, 10 B, request as sent, answer as answered, x-sluice headers x-sluice-request-id"],
    ]);
    const bad = byName(evaluate("codex-autocompact", d, session("sluice", 1000, 0.2, { trigger_requests: 2, triggers_untouched: 1 })));
    expect([bad.compaction_trigger_untouched![0], bad.compact_route_passthrough]).toEqual([false, [false, "not probed"]]);
    expect(byName(evaluate("codex-autocompact", d, session("sluice", 1000, 0.2), probe)).compaction_trigger_untouched![0]).toBe(false);
    expect(byName(evaluate("codex-autocompact", d, session("sluice", 1000, 0.2, { trigger_requests: 1, triggers_untouched: 1 }), { ...probe, sluice_headers: ["x-sluice-compaction", "x-sluice-request-id"] })).compact_route_passthrough![0]).toBe(false);
  });
});

describe("costTable", () => {
  it("gives per setting the client, model, requests, steps, 4xx, billed tokens and input dollars, and marks a costlier one (beyond run-to-run noise)", () => {
    const r = { sessions: [session("direct", 1_809_155, 0.33442838), session("sluice", 1_051_290, 0.33700001, { steps: 2, validation_errors: 1 })] } as unknown as E2eReport;
    const noise = { sessions: [session("direct", 1_809_155, 0.33442838), session("sluice", 1_051_290, 0.33450001)] } as unknown as E2eReport;
    expect(costTable(noise)).not.toContain("costlier");
    expect(costTable(r).split("\n").map((l) => l.trimEnd())).toEqual([
      "client  model        setting        requests d / s  steps  4xx d / s  billed input tokens direct → sluice  input $ direct → sluice",
      "------  -----------  -------------  --------------  -----  ---------  -----------------------------------  ------------------------  --------",
      "codex   gpt-6.2-sol  codex-default  41 / 41         2      0 / 1      1,809,155 → 1,051,290 (−41.9 %)      0.3344 → 0.3370 (+0.8 %)  costlier",
    ]);
  });
});
