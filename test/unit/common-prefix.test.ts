/** commonPrefixLength (src/providers/shared/common-prefix.ts): exact lengths, aligned or not. */
import { describe, expect, it } from "vitest";
import { commonPrefixLength } from "../../src/providers/shared/common-prefix";

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
