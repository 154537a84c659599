/** The load run's figures (tools/load/summarize-latency.ts): nearest-rank percentiles, paired added latency, ratios. */
import { describe, expect, it } from "vitest";
import { percentile, ratio, summarizePath } from "../../tools/load/summarize-latency";

describe("load summary", () => {
  it("nearest-rank percentiles", () => {
    const xs = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    expect([percentile(xs, 50), percentile(xs, 99), percentile(xs, 10), percentile([], 50)]).toEqual([5, 10, 1, Number.NaN]);
  });
  it("added latency is paired per call against the direct path", () => {
    expect(summarizePath([12, 30, 14, 16], 1, 2_000, [10, 10, 10, 10])).toEqual({
      requests: 4, errors: 1, wall_ms: 2_000, throughput_rps: 2, p50_ms: 14, p99_ms: 30, added_p50_ms: 4, added_p99_ms: 20,
    });
    expect(summarizePath([12], 0, 1_000, null).added_p50_ms).toBe(null);
  });
  it("ratios", () => {
    expect([ratio(3, 2), ratio(1, 0), ratio(null, 2), ratio(1, 3)]).toEqual([1.5, null, null, 0.333]);
  });
});
