/**
 * Which gate held a saving back (tools/replay/held-back.ts): the cuts Sluice priced and declined,
 * each priced in hindsight as one step at its call, the best named with the call's skip reason.
 */
import { describe, expect, it } from "vitest";
import { bestDeclinedStep } from "../../tools/replay/held-back";
import { heldBackText } from "../../tools/replay/report-explain";
import { assumedPrices } from "../../tools/replay/session-prices";
import { decisionOf } from "../../tools/replay/summarize-report";
import type { CallRecord } from "../../tools/replay/types";

/** 30 calls, 10 s apart (always warm), of 10,000 + 1,000·i tokens. */
const base: CallRecord[] = Array.from({ length: 30 }, (_, i) => ({
  index: i, time_ms: i * 10_000, status: 200, usage: { input: 0, cache_read: 0, cache_write: 0, output: 0 }, cost_usd: 0, input_cost_usd: 0,
  latency_ms: 0, transform_ms: 0, engine_cost_usd: 0, rejected: null, removed_ids: [], shape: { original_tokens: 10_000 + 1_000 * i, sent_tokens: 10_000 + 1_000 * i, first_edit_tokens: null },
}));
/** A Sluice run that declined a cut at call 3 (H 4,000 after 2,000 tokens) and at call 25 (too late to pay). */
const sluice: CallRecord[] = base.map((c) => ({ ...c, note: "compact; tier=micro; step=none; skipped=no_candidates; pairs_removed=0" }));
sluice[3] = { ...sluice[3]!, note: "compact; tier=micro; step=none; skipped=not_positive; pairs_removed=0", declined: { removed_tokens: 4_000, rewritten_tokens: 7_000, first_edit_tokens: 2_000, request_tokens: 13_000, net_usd: -0.01 } };
// Sluice's own estimate of call 25 was half the shape's size: its figures are scaled ×2.
sluice[25] = { ...sluice[25]!, note: "compact; tier=micro; step=none; skipped=gathering; pairs_removed=0", declined: { removed_tokens: 2_000, rewritten_tokens: 10_000, first_edit_tokens: 1_000, request_tokens: 17_500, net_usd: 0.02 } };

describe("bestDeclinedStep", () => {
  const SONNET = assumedPrices("anthropic", "claude-sonnet-4-5");

  it("prices each declined cut as one step in hindsight and names the best with its gate", () => {
    // Hindsight model (input-price tokens; writes 1.25, reads 0.1). No removal: call 0 writes 10,000 (12,500); call i reads
    // t(i−1) and writes 1,000: Σ over 29 calls = 0.1 × 696,000 + 29 × 1,250 = 105,850; total 118,350.
    // Step at call 3: 2,000 read, 7,000 written = 8,950 instead of 2,450 (+6,500); each of the 26 later calls reads 4,000
    // fewer: −26 × 400 = −10,400. Saved 3,900 = 3.2953…% of 118,350; $3 × 3,900 / 10^6 = $0.0117.
    const h = bestDeclinedStep(sluice, base, SONNET, decisionOf)!;
    expect({ ...h, saved_pct: Math.round(h.saved_pct * 1e4) / 1e4 }).toEqual({ gate: "not_positive", call: 3, saved_pct: 3.2953, saved_usd: 0.0117 });
    expect(heldBackText({ held_back: { ...h, saved_pct: 3.3 }, held_back_by: { not_positive: 1 } })).toBe("cost model says no gain: 3.3% at call 4");
    expect(heldBackText({ held_back: null, held_back_by: { not_positive: 2, gathering: 1 } })).toBe("cost model says no gain ×2, paying step waits to gather removals ×1");
  });

  it("null when nothing was declined, or when no declined step saves anything", () => {
    expect(bestDeclinedStep(base, base, SONNET, decisionOf)).toBeNull();
    expect(bestDeclinedStep([sluice[25]!], base, SONNET, decisionOf)).toBeNull();
    expect(bestDeclinedStep(sluice, base.map(({ shape: _s, ...c }) => c), SONNET, decisionOf)).toBeNull();
  });
});
