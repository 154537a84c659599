/**
 * How much cached prefix a step's edit leaves readable (src/core/cost/cache-reach.ts) and the K it
 * gives a cut (src/core/cost/enumerate-cut-points.ts): Anthropic caches only at breakpoints and
 * reads back 20 blocks from them, so an old edit rewrites from the last fixed breakpoint before it.
 */
import { describe, expect, it } from "vitest";
import { cacheReach, rewriteFrom } from "../../src/core/cost/cache-reach";
import { enumerateCutPoints } from "../../src/core/cost/enumerate-cut-points";
import type { CacheFacts } from "../../src/core/facts/cache-facts";

const facts = (markers: CacheFacts["markers"]): CacheFacts => ({ tools: [], system: null, markers, unmarked: [], ttl_ms: null });

describe("cacheReach", () => {
  it("Claude Code's shape (system marked, the newest message marked): edits in the last 20 messages keep what precedes them; older ones keep tools and system only", () => {
    const r = cacheReach("anthropic-breakpoints", facts(["system", "auto"]), 41, 5_000)!;
    expect(r).toEqual({ lookback_from: 21, anchors: [], outside_rewritten: 0 });
    expect([rewriteFrom(r, 25), rewriteFrom(r, 21), rewriteFrom(r, 20), rewriteFrom(r, 3)]).toEqual([25, 21, 0, 0]);
  });

  it("a fixed breakpoint on an old message keeps the prefix through it; no tools or system marker: they are written again", () => {
    const r = cacheReach("anthropic-breakpoints", facts([4, 40]), 41, 5_000)!;
    expect(r).toEqual({ lookback_from: 21, anchors: [4], outside_rewritten: 5_000 });
    expect([rewriteFrom(r, 10), rewriteFrom(r, 4), rewriteFrom(r, 30)]).toEqual([5, 0, 30]);
  });

  it("no reach limit: OpenAI (every prefix cached), no cache facts, no message breakpoint", () => {
    expect(cacheReach("openai-prefix-128", facts([]), 41, 5_000)).toBeNull();
    expect(cacheReach("openai-breakpoints", facts([]), 41, 5_000)).toBeNull();
    expect(cacheReach("anthropic-breakpoints", null, 41, 5_000)).toBeNull();
    expect(cacheReach("anthropic-breakpoints", facts(["system"]), 41, 5_000)).toBeNull();
    expect(rewriteFrom(null, 3)).toBe(3);
  });
});

describe("K with the reach", () => {
  it("an edit before the reach rewrites from the start (and tools and system when unmarked); within it, from the edit", () => {
    // 30 messages of 100 tokens; the previous request ended before message 28; breakpoint on message 29 (auto).
    const message_tokens = Array.from({ length: 30 }, () => 100);
    const candidates = [
      { pair_id: "old", call_message: 2, result_message: 3, first_edit_message: 3, saved_tokens: 80 },
      { pair_id: "new", call_message: 20, result_message: 21, first_edit_message: 21, saved_tokens: 90 },
    ];
    const spans = candidates.map((c) => ({ call_message: c.call_message, result_message: c.result_message }));
    const input = { message_tokens, candidates, spans, max_boundary: 26, cached_end: 28 };
    const reach = cacheReach("anthropic-breakpoints", facts(["auto"]), 30, 1_000)!; // lookback_from 10, tools/system unmarked
    expect(enumerateCutPoints({ ...input, reach })).toEqual([
      // The old edit lies before message 10: all 28 cached messages and the 1,000 outside tokens are written again, less H.
      { boundary: 4, pair_ids: ["old"], removed_tokens: 80, rewritten_tokens: 2_800 - 80 + 1_000, first_edit: 3 },
      { boundary: 22, pair_ids: ["old", "new"], removed_tokens: 170, rewritten_tokens: 2_800 - 170 + 1_000, first_edit: 3 },
    ]);
    // Without the reach (OpenAI), K counts from the first edit only.
    expect(enumerateCutPoints(input).map((c) => c.rewritten_tokens)).toEqual([2_500 - 80, 2_500 - 170]);
  });
});
