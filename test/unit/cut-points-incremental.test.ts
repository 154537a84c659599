/**
 * enumerateCutPoints keeps its taken candidates incrementally (src/core/cost/enumerate-cut-points.ts):
 * the cuts must equal, field for field and in order, those of a brute-force reading of its
 * definition that re-derives everything at every boundary, as the formulation it replaced did.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { enumerateCutPoints, type CutCandidate, type CutInput, type CutPoint } from "../../src/core/cost/enumerate-cut-points";

/**
 * The definition, by brute force: at each boundary b, valid when no exchange has call < b ≤
 * result; the candidates taken are those ending before b, in the order the previous formulation
 * took them (a stable sort by last message); H summed in that order, K from prefix sums built
 * from 0, and pair_ids stably sorted by first edit, then id — as the code before 2026-12-01 did
 * at every cut.
 */
function reference(input: CutInput): CutPoint[] {
  const tokens = input.message_tokens;
  const upTo = (k: number) => tokens.slice(0, k).reduce((a, t) => a + t, 0);
  const last = (c: CutCandidate) => Math.max(c.call_message, c.result_message);
  const inOrder = [...input.candidates].sort((a, b) => last(a) - last(b));
  const cuts: CutPoint[] = [];
  let seen = 0;
  for (let b = 1; b <= Math.min(input.max_boundary, tokens.length); b++) {
    const crossed = input.spans.some((s) => s.result_message > s.call_message && s.call_message < b && b <= s.result_message);
    const taken = inOrder.filter((c) => last(c) < b);
    if (crossed || taken.length === seen) continue;
    seen = taken.length;
    const removed = taken.reduce((a, c) => a + c.saved_tokens, 0);
    const first = taken.reduce((m, c) => Math.min(m, c.first_edit_message), Number.POSITIVE_INFINITY);
    const end = Math.max(first, Math.min(input.cached_end, tokens.length));
    const ids = [...taken].sort((x, y) => x.first_edit_message - y.first_edit_message || x.pair_id.localeCompare(y.pair_id)).map((c) => c.pair_id);
    cuts.push({ boundary: b, pair_ids: ids, removed_tokens: removed, rewritten_tokens: Math.max(0, upTo(end) - upTo(first) - removed), first_edit: first });
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
  it("ids that collate equal (NFC é and NFD e + U+0301) keep the order taken, as a stable sort does", () => {
    expect("\u00e9".localeCompare("e\u0301")).toBe(0);
    const spans = [{ call_message: 1, result_message: 2 }, { call_message: 3, result_message: 4 }];
    // Taken by last message: "e\u0301" (ends at 2) first, then "\u00e9" (ends at 4); both edit message 1 first.
    const candidates: CutCandidate[] = [
      { pair_id: "\u00e9", call_message: 1, result_message: 4, first_edit_message: 1, saved_tokens: 10 },
      { pair_id: "e\u0301", call_message: 1, result_message: 2, first_edit_message: 1, saved_tokens: 20 },
    ];
    const input: CutInput = { message_tokens: [1, 2, 30, 4, 50, 6], candidates, spans: [...spans, { call_message: 1, result_message: 4 }], max_boundary: 6, cached_end: 6 };
    const cuts = enumerateCutPoints(input);
    expect(cuts).toEqual([{ boundary: 5, pair_ids: ["e\u0301", "\u00e9"], removed_tokens: 30, rewritten_tokens: 62, first_edit: 1 }]);
    expect(cuts).toEqual(reference(input));
  });

  it("equals the brute-force definition on 2 000 generated histories (seeded)", () => {
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
      { boundary: 3, pair_ids: ["c"], removed_tokens: 95, rewritten_tokens: 540, first_edit: 1 },
      { boundary: 5, pair_ids: ["c", "a", "b"], removed_tokens: 285.5, rewritten_tokens: 349.5, first_edit: 1 },
      { boundary: 7, pair_ids: ["c", "a", "b", "z"], removed_tokens: 575.5, rewritten_tokens: 59.5, first_edit: 1 },
    ]);
  });
});
