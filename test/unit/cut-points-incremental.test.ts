/**
 * enumerateCutPoints keeps its taken candidates incrementally (src/core/cost/enumerate-cut-points.ts):
 * the cuts must equal, field for field and in order, those of the formulation it replaced, which
 * re-summed, re-mapped and stably re-sorted the whole taken list at every cut (kept below as
 * the oracle).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { enumerateCutPoints, type CutCandidate, type CutInput, type CutPoint } from "../../src/core/cost/enumerate-cut-points";

/** The previous formulation (until 2026-12-01), step 3 verbatim. */
function reference(input: CutInput): CutPoint[] {
  const n = input.message_tokens.length;
  const maxB = Math.min(input.max_boundary, n);
  const delta = new Array<number>(n + 2).fill(0);
  for (const s of input.spans) {
    if (s.result_message <= s.call_message) continue;
    delta[s.call_message + 1]! += 1;
    delta[s.result_message + 1]! -= 1;
  }
  const prefix = new Array<number>(n + 1).fill(0);
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i]! + input.message_tokens[i]!;
  const sorted = [...input.candidates].sort((a, b) => Math.max(a.call_message, a.result_message) - Math.max(b.call_message, b.result_message));
  const cuts: CutPoint[] = [];
  let inside = 0;
  let next = 0;
  let taken: CutCandidate[] = [];
  let lastCount = 0;
  for (let b = 1; b <= maxB; b++) {
    inside += delta[b]!;
    while (next < sorted.length && Math.max(sorted[next]!.call_message, sorted[next]!.result_message) < b) taken = [...taken, sorted[next++]!];
    if (inside > 0 || taken.length === lastCount) continue;
    lastCount = taken.length;
    const removed = taken.reduce((s, c) => s + c.saved_tokens, 0);
    const firstEdit = Math.min(...taken.map((c) => c.first_edit_message));
    const end = Math.max(firstEdit, Math.min(input.cached_end, n));
    const rewritten = Math.max(0, prefix[end]! - prefix[firstEdit]! - removed);
    const ids = [...taken].sort((a, b) => a.first_edit_message - b.first_edit_message || a.pair_id.localeCompare(b.pair_id)).map((c) => c.pair_id);
    cuts.push({ boundary: b, pair_ids: ids, removed_tokens: removed, rewritten_tokens: rewritten });
  }
  return cuts;
}

/** Histories of up to 40 messages with exchanges (call before result) and candidates among them; fractional token counts too. */
const cutInput: fc.Arbitrary<CutInput> = fc
  .integer({ min: 1, max: 40 })
  .chain((n) =>
    fc.record({
      message_tokens: fc.array(fc.oneof(fc.integer({ min: 0, max: 5_000 }), fc.double({ min: 0, max: 5_000, noNaN: true })), { minLength: n, maxLength: n }),
      exchanges: fc.array(fc.tuple(fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 0, max: n - 1 }), fc.boolean(), fc.boolean(), fc.double({ min: 0, max: 3_000, noNaN: true })), { maxLength: 30 }),
      max_boundary: fc.integer({ min: 0, max: n + 2 }),
      cached_end: fc.integer({ min: 0, max: n + 2 }),
      // Ids from a small alphabet with case variants ("a", "A", "a1"), so idOrder ties on first edit are common.
      names: fc.array(fc.constantFrom("a", "A", "b", "a1", "B2", "é", "e", "z"), { minLength: 30, maxLength: 30 }),
    }),
  )
  .map(({ message_tokens, exchanges, max_boundary, cached_end, names }) => {
    const spans = exchanges.map(([x, y]) => ({ call_message: Math.min(x, y), result_message: Math.max(x, y) }));
    const candidates: CutCandidate[] = [];
    exchanges.forEach(([x, y, isCandidate, dropPair, saved], i) => {
      if (!isCandidate) return;
      const call = Math.min(x, y), result = Math.max(x, y);
      candidates.push({ pair_id: `${names[i]}${i}`, call_message: call, result_message: result, first_edit_message: dropPair ? call : result, saved_tokens: saved });
    });
    return { message_tokens, candidates, spans, max_boundary, cached_end };
  });

describe("enumerateCutPoints, incremental", () => {
  it("ids that collate equal (NFC é and NFD e + U+0301) keep the order taken, as the stable sort did", () => {
    expect("\u00e9".localeCompare("e\u0301")).toBe(0);
    const spans = [{ call_message: 1, result_message: 2 }, { call_message: 3, result_message: 4 }];
    // Taken by last message: "e\u0301" (ends at 2) first, then "\u00e9" (ends at 4); both edit message 1 first.
    const candidates: CutCandidate[] = [
      { pair_id: "\u00e9", call_message: 1, result_message: 4, first_edit_message: 1, saved_tokens: 10 },
      { pair_id: "e\u0301", call_message: 1, result_message: 2, first_edit_message: 1, saved_tokens: 20 },
    ];
    const input: CutInput = { message_tokens: [1, 2, 30, 4, 50, 6], candidates, spans: [...spans, { call_message: 1, result_message: 4 }], max_boundary: 6, cached_end: 6 };
    const cuts = enumerateCutPoints(input);
    expect(cuts).toEqual([{ boundary: 5, pair_ids: ["e\u0301", "\u00e9"], removed_tokens: 30, rewritten_tokens: 62 }]);
    expect(cuts).toEqual(reference(input));
  });

  it("equals the previous formulation on 2 000 generated histories (seeded)", () => {
    fc.assert(fc.property(cutInput, (input) => { expect(enumerateCutPoints(input)).toEqual(reference(input)); }), { numRuns: 2_000, seed: 20261201 });
  });

  it("orders pair_ids by first edit, then id, whatever order the candidates are taken in", () => {
    // Messages 0..7, exchanges 1→2, 3→4, 5→6; the candidate taken last (c, ends at 2) edits first.
    const input: CutInput = {
      message_tokens: [5, 10, 100, 10, 200, 10, 300, 5],
      candidates: [
        { pair_id: "z", call_message: 5, result_message: 6, first_edit_message: 5, saved_tokens: 290 },
        { pair_id: "b", call_message: 3, result_message: 4, first_edit_message: 4, saved_tokens: 190 },
        { pair_id: "a", call_message: 3, result_message: 4, first_edit_message: 4, saved_tokens: 0.5 },
        { pair_id: "c", call_message: 1, result_message: 2, first_edit_message: 1, saved_tokens: 95 },
      ],
      spans: [{ call_message: 1, result_message: 2 }, { call_message: 3, result_message: 4 }, { call_message: 5, result_message: 6 }],
      max_boundary: 8,
      cached_end: 8,
    };
    expect(enumerateCutPoints(input)).toEqual([
      // K = tokens of messages [1, 8) (640 − 5) less H.
      { boundary: 3, pair_ids: ["c"], removed_tokens: 95, rewritten_tokens: 540 },
      { boundary: 5, pair_ids: ["c", "a", "b"], removed_tokens: 285.5, rewritten_tokens: 349.5 },
      { boundary: 7, pair_ids: ["c", "a", "b", "z"], removed_tokens: 575.5, rewritten_tokens: 59.5 },
    ]);
  });
});
