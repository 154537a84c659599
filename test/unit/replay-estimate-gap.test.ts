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
/** A note after the session's first answer: calibrated figures, then the estimates. */
const calibrated = (before: number, after: number, est: number, estAfter = est) =>
  `compact; tier=micro; step=none; pairs_removed=0; tokens_before=${before}; tokens_after=${after}; estimated_tokens_before=${est}; estimated_tokens_after=${estAfter}`;

describe("estimate gap (Sluice's token figures vs the billed input)", () => {
  it("compares the raw estimate and, from call 3, the calibrated tokens_before (vs none's bill) and tokens_after (vs sluice's own bill)", () => {
    const none = run("none", [1000, 1100, 1210, 2000, 3000].map((b, i) => call(i, b)));
    // Call 3 forwards a compacted body (billed 1000); the fifth note carries no figures (a skip before parsing): left out.
    const notes = [note(1000), calibrated(1100, 1100, 1000), calibrated(1200, 1200, 1100), calibrated(1800, 1000, 1000, 600), "skipped; reason=server_managed"];
    const sluice = run("sluice", [1000, 1100, 1210, 1000, 3000].map((b, i) => call(i, b, notes[i])));
    const rows = estimateGap([none, sluice]);
    // Ratios billed ÷ raw estimate: 1, 1.1, 1.1, 2; raw within ±5 %: call 0 only.
    // From call 3: tokens_before 1200 vs 1210 (−0.8 %), 1800 vs 2000 (−10 %); tokens_after 1200 vs 1210, 1000 vs 1000.
    expect(rows).toEqual([
      {
        session_id: "s1", provider: "openai-chat", model: "gpt-4o", calls: 4, ratio_min: 1, ratio_median: 1.1, ratio_max: 2, raw_within_5pct: 1,
        calibrated_calls: 2, calibrated_within_5pct: 1, calibrated_max_error_pct: 10, forwarded_within_5pct: 2, forwarded_max_error_pct: 0.8,
      },
    ]);
    expect(renderEstimateGap(rows).split("\n")[2]).toBe("| s1 | gpt-4o | 4 | 1.000 / 1.100 / 2.000 | 1 of 4 | 1 of 2 | 10.0% | 2 of 2 | 0.8% |");
    expect(estimateGap([none])).toEqual([]);
  });
});
