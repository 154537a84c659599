/**
 * The replay's savings ledger against the bill (tools/replay/ledger-check.ts): per session and in
 * total, the saving the emulator billed, (none − strategy) ÷ none, beside the ledger's own, and
 * the gap in points; strategies without a ledger are left out.
 */
import { describe, expect, it } from "vitest";
import { ledgerCheckLines, ledgerCheckRows } from "../../tools/replay/ledger-check";
import type { ReplayReport, StrategyMetrics } from "../../tools/replay/summarize-report";

const metrics = (m: Partial<StrategyMetrics>): StrategyMetrics => ({ input_cost_without_usd: 10, input_cost_with_usd: 10, engine_cost_usd: 0, ledger: null, ...m }) as StrategyMetrics;
const ledger = (without: number, withCost: number, pct: number) => ({ without_usd: without, with_usd: withCost, saving_pct: pct, removals: 0, removals_mentioned: 0, removals_deterministic: 0 });

describe("ledgerCheckRows", () => {
  it("sets the ledger's saving beside the billed one, per session and in total", () => {
    const report = {
      strategies: ["none", "sluice"],
      sessions: [{ id: "s1", strategies: { none: metrics({}), sluice: metrics({ input_cost_with_usd: 6, ledger: ledger(9.9, 6, 39.39) }) } }],
      total: { none: metrics({}), sluice: metrics({ input_cost_with_usd: 6, ledger: ledger(9.9, 6, 39.39) }) },
    } as unknown as ReplayReport;
    // Billed: (10 − 6) ÷ 10 = 40 %; the ledger 39.39 %: 0.61 points under.
    expect(ledgerCheckRows(report)).toEqual([
      { session: "s1", strategy: "sluice", billed_pct: 40, ledger_pct: 39.39, gap_points: -0.61 },
      { session: "TOTAL", strategy: "sluice", billed_pct: 40, ledger_pct: 39.39, gap_points: -0.61 },
    ]);
    expect(ledgerCheckLines(report)[1]).toBe("  s1 [sluice]: billed 40.0%, ledger 39.4% (gap -0.61 points)");
  });

  it("prints nothing when no strategy carries a ledger", () => {
    const report = { strategies: ["none"], sessions: [{ id: "s1", strategies: { none: metrics({}) } }], total: { none: metrics({}) } } as unknown as ReplayReport;
    expect(ledgerCheckLines(report)).toEqual([]);
  });
});
