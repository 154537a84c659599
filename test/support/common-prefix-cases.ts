/**
 * Cases for commonPrefixLength (src/providers/shared/common-prefix.ts), shared by its Node test
 * and its workerd test: a 5 000-byte body and a copy differing at every 7th position or not at
 * all, 0–2 bytes longer (so equal arrays, and the body as a prefix of a longer copy, come in),
 * compared whole and as views from offset `at % 5`, both ways round. Returns the function's
 * answers and a byte loop's, in the same order.
 */
export function prefixAnswers(fn: (a: Uint8Array, b: Uint8Array) => number): { got: number[]; want: number[] } {
  const loop = (a: Uint8Array, b: Uint8Array) => {
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    return i;
  };
  const base = new Uint8Array(5_000).map((_, i) => (i * 31 + 7) & 255);
  const got: number[] = [];
  const want: number[] = [];
  // Every 7th position, and the body's length itself (no difference: equal, or `a` a prefix of a longer `b`).
  const positions = Array.from({ length: Math.floor(base.length / 7) + 1 }, (_, i) => i * 7).concat(base.length);
  for (const at of positions) {
    const other = new Uint8Array(base.length + 3);
    other.set(base);
    if (at < base.length) other[at] = base[at]! ^ 0x55;
    const b = other.subarray(0, base.length + (at % 3));
    got.push(fn(base, b), fn(base.subarray(at % 5), b.subarray(at % 5)), fn(b, base));
    want.push(loop(base, b), loop(base.subarray(at % 5), b.subarray(at % 5)), loop(b, base));
  }
  // Equal arrays (a copy, and the same array).
  got.push(fn(base, base.slice()), fn(base, base));
  want.push(base.length, base.length);
  return { got, want };
}

/** The first 9 and last 8 answers prefixAnswers must give (exact values, so a test of them can fail on its own). */
export const PREFIX_ANSWER_ENDS = [[0, 0, 0, 7, 5, 7, 14, 10, 14], [4_998, 4_995, 4_998, 5_000, 5_000, 5_000, 5_000, 5_000]];

/** `got`'s first 9 and last 8 answers, to compare with PREFIX_ANSWER_ENDS. */
export const answerEnds = (got: number[]): number[][] => [got.slice(0, 9), got.slice(-8)];
