import { describe, expect, it } from "vitest";
import { estimateGap, renderEstimateGap } from "../../tools/replay/estimate-gap";
import type { CallRecord, SessionRun } from "../../tools/replay/types";

const call = (index: number, billed: number, note?: string): CallRecord => ({
  index,
  time_ms: 0,
  status: 200,
  usage: { input: billed / 10, cache_read: billed - billed / 10, cache_write: 0, output: 1 },
  cost_usd: 0,
  input_cost_usd: 0,
  latency_ms: 1,
  transform_ms: 0,
  engine_cost_usd: 0,
  rejected: null,
  removed_ids: [],
  ...(note !== undefined ? { note } : {}),
});
const run = (strategy: string, calls: CallRecord[]): SessionRun => ({ session_id: "s1", provider: "openai-chat", model: "gpt-4o", strategy, route: "direct", calls, pairs_removed: 0, refetches: 0, rementions: 0, removed_result_tokens: 0 });
const note = (est: number) => `compact; tier=micro; step=none; skipped=under_threshold; pairs_removed=0; tokens_before=${est}; tokens_after=${est}`;

describe("estimate gap (Sluice's token estimate vs the billed input)", () => {
  it("compares each call's tokens_before with none's billed tokens, raw and calibrated on the previous answer", () => {
    const billed = [1000, 1100, 1210, 2000, 3000];
    const none = run("none", billed.map((b, i) => call(i, b)));
    // The fifth note carries no estimate (a skip before parsing): left out.
    const sluice = run("sluice", [note(1000), note(1000), note(1100), note(1000), "skipped; reason=server_managed"].map((n, i) => call(i, billed[i]!, n)));
    const rows = estimateGap([none, sluice]);
    // Ratios billed ÷ estimate: 1, 1.1, 1.1, 2. Calibrated: call 3 = 1100 × 1.1 = 1210 (exact);
    // call 4 = 1000 × 1.1 = 1100 against 2000 (−45 %).
    expect(rows).toEqual([
      { session_id: "s1", provider: "openai-chat", model: "gpt-4o", calls: 4, ratio_min: 1, ratio_median: 1.1, ratio_max: 2, raw_within_5pct: 1, calibrated_calls: 2, calibrated_within_5pct: 1, calibrated_max_error_pct: 45 },
    ]);
    expect(renderEstimateGap(rows).split("\n")[2]).toBe("| s1 | gpt-4o | 4 | 1.000 / 1.100 / 2.000 | 1 of 4 | 1 of 2 | 45.0% |");
    expect(estimateGap([none])).toEqual([]);
  });
});
