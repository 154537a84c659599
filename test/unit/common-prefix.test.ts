/** commonPrefixLength (src/providers/shared/common-prefix.ts): exact lengths, views at any offset, and a byte loop's answers (test/support/common-prefix-cases.ts; test/workers/common-prefix-workerd.test.ts runs the same cases in workerd). */
import { describe, expect, it } from "vitest";
import { commonPrefixLength } from "../../src/providers/shared/common-prefix";
import { PREFIX_ANSWER_ENDS, answerEnds, prefixAnswers } from "../support/common-prefix-cases";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("commonPrefixLength", () => {
  it("exact lengths for equal, diverging, empty and prefix inputs", () => {
    expect([
      commonPrefixLength(bytes("abcdefgh"), bytes("abcdefgh")),
      commonPrefixLength(bytes("abcdefgh"), bytes("abcdeXgh")),
      commonPrefixLength(bytes("abcdefghij"), bytes("abcdefg")),
      commonPrefixLength(bytes(""), bytes("abc")),
      commonPrefixLength(bytes("xbc"), bytes("abc")),
      commonPrefixLength(bytes("abcdefghijkl"), bytes("abcdefghijkX")),
    ]).toEqual([8, 5, 7, 0, 0, 11]);
  });

  it("unaligned views (byte by byte) give the same answers as aligned ones", () => {
    const a = bytes("_abcdefghijklmnop");
    const b = bytes("__abcdefghijklmnoQ");
    expect(commonPrefixLength(a.subarray(1), b.subarray(2))).toBe(15);
    const big = new Uint8Array(100_003).fill(7);
    const other = big.slice();
    other[99_998] = 8;
    expect([commonPrefixLength(big, other), commonPrefixLength(big, big.slice(0, 5))]).toEqual([99_998, 5]);
  });
});

describe("commonPrefixLength against a byte loop", () => {
  it("every 7th first-difference position in a 5 000-byte body, none, views at any offset, both ways round", () => {
    const { got, want } = prefixAnswers(commonPrefixLength);
    expect([got, answerEnds(got)]).toEqual([want, PREFIX_ANSWER_ENDS]);
  });
});
