/** The sharded index's pure parts (src/admin/index-shards.ts): shard choice, split, and the exact merge of list rows and series. */
import { describe, expect, it } from "vitest";
import { INDEX_SHARDS, indexShardName, indexShardOf, mergeSeries, mergeSummaries, splitByShard } from "../../src/admin/index-shards";
import type { IndexUpdate } from "../../src/admin/index-update";
import type { SessionSummary } from "../../src/admin/summarize-index";

const row = (id: string, last_activity_ms: number | null, requests = 1): SessionSummary => ({
  id, label: id, provider: "anthropic", model: null, turns: 0, calls: 0, requests, compacted: 0, fail_open: 0, tokens_original: 0, tokens_sent: 0,
  tokens_saved: 0, usd_saved: 0, net_usd_saved: 0, cache_hit_ratio: null, last_tier: null, last_outcome: null, last_activity_ms, disabled: false,
});
const usage = (session_id: string): IndexUpdate => ({ kind: "usage", session_id, provider: "anthropic", at_ms: 1, input_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 0 });

describe("index shards", () => {
  it("10,000 session ids spread over the 16 shards within ±20 % of 625 each; a session's shard never changes", () => {
    const counts = new Array<number>(INDEX_SHARDS).fill(0);
    for (let i = 0; i < 10_000; i++) counts[indexShardOf(`cc:session-${i}`)]! += 1;
    expect(counts.reduce((a, b) => a + b, 0)).toBe(10_000);
    for (const c of counts) expect(c >= 500 && c <= 750).toBe(true);
    expect(indexShardOf("cc:abc")).toBe(indexShardOf("cc:abc"));
  });

  it("shard 0 keeps the single index's name", () => {
    expect([indexShardName(0), indexShardName(1), indexShardName(15)]).toEqual(["index", "index-1", "index-15"]);
  });

  it("splits a batch by shard, keeping each session's updates in order", () => {
    const ids = ["a", "b", "c", "d", "e", "f"];
    const batch = ids.flatMap((id) => [usage(id), { ...usage(id), at_ms: 2 }]);
    const split = splitByShard(batch);
    expect([...split.values()].flat().length).toBe(12);
    for (const [shard, updates] of split) {
      for (const u of updates) expect(indexShardOf(u.session_id)).toBe(shard);
      for (const id of ids) expect(updates.filter((u) => u.session_id === id).map((u) => u.at_ms)).toEqual(indexShardOf(id) === shard ? [1, 2] : []);
    }
  });

  it("merges lists: most recent first, never-active last, ties by id, one row per id (the newest), at most limit", () => {
    const merged = mergeSummaries([[row("b", 30), row("x", null)], [row("a", 30), row("c", 50), row("b", 10, 9)], [row("d", 20)]], 4);
    expect(merged.map((r) => [r.id, r.last_activity_ms, r.requests])).toEqual([["c", 50, 1], ["a", 30, 1], ["b", 30, 1], ["d", 20, 1]]);
    expect(mergeSummaries([[row("x", null)], [row("c", 5)]], 10).map((r) => r.id)).toEqual(["c", "x"]);
  });

  it("merges series by summing equal (family, suffix, labels), sorted like one index's read", () => {
    const s = (family: string, suffix: string, labels: Record<string, string>, value: number) => ({ family, suffix: suffix as never, labels, value });
    expect(mergeSeries([
      [s("sluice_requests_total", "", { outcome: "compacted", provider: "anthropic" }, 3), s("sluice_step_seconds", "_bucket", { le: "0.5" }, 2)],
      [s("sluice_requests_total", "", { outcome: "compacted", provider: "anthropic" }, 4), s("sluice_fail_open_total", "", { reason: "parse" }, 1)],
    ])).toEqual([
      s("sluice_fail_open_total", "", { reason: "parse" }, 1),
      s("sluice_requests_total", "", { outcome: "compacted", provider: "anthropic" }, 7),
      s("sluice_step_seconds", "_bucket", { le: "0.5" }, 2),
    ]);
  });
});
