import { describe, expect, it } from "vitest";
import { Hasher, hashBytes, hashSlices, hashText } from "../../src/core/hash";

const enc = (s: string) => new TextEncoder().encode(s);

// Exact values produced by the implementation before the digest and feedText rewrite: ledger keys
// (pair id + result_hash) persist in session state, so the function must never change.
const KNOWN: [string, string][] = [
  ["", "ab3e7c0bebb6c228"],
  ["a", "2a6818198ee839a0"],
  ["tool", "cbe3103d9d765fb5"],
  ["assistant", "0390bad94000ee93"],
  ["héllo wörld ✓", "d9053f191d10b053"],
  ["f\u0000{}", "c3c15b8459d7dbb5"],
  ["k185", "00200a9d0bbbb2cc"], // both lanes zero-padded
  ["k336", "0fec5ff90b457e18"],
];

describe("content hash", () => {
  it("keeps its exact values (hashText, hashBytes, Hasher.feedText, zero-padded lanes)", () => {
    expect(KNOWN.map(([t]) => hashText(t))).toEqual(KNOWN.map(([, h]) => h));
    expect(KNOWN.map(([t]) => hashBytes(enc(t)))).toEqual(KNOWN.map(([, h]) => h));
    expect(KNOWN.map(([t]) => new Hasher().feedText(t).digest())).toEqual(KNOWN.map(([, h]) => h));
  });
  it("hashes a sub-range like the same bytes alone, and slices with their separators", () => {
    const b = enc("xxtoolyy");
    expect(hashBytes(b, 2, 6)).toBe("cbe3103d9d765fb5");
    expect(hashSlices(b, [{ start: 2, end: 6 }])).toBe(new Hasher().feedText("tool").feedByte(0x1e).digest());
    expect(hashSlices(b, [{ start: 0, end: 2 }, { start: 2, end: 3 }])).not.toBe(hashSlices(b, [{ start: 0, end: 1 }, { start: 1, end: 3 }]));
  });
});
