/**
 * headBytes (src/core/tiers/cut-head.ts): exact values on hand-made texts, and the same answer
 * as the reference form it replaced (Array.from code points, join, TextEncoder) on arbitrary
 * UTF-16 strings — astral characters, lone surrogates, dense line breaks.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { headBytes } from "../../src/core/tiers/cut-head";

/** The earlier implementation, kept as the specification. */
function reference(text: string, head_chars: number): number | null {
  const chars = Array.from(text);
  if (chars.length <= head_chars) return null;
  let head = chars.slice(0, head_chars).join("");
  const nl = head.lastIndexOf("\n");
  if (nl >= Math.floor(head.length / 2)) head = head.slice(0, nl + 1);
  return new TextEncoder().encode(head).length;
}

describe("headBytes", () => {
  it("exact values", () => {
    expect(headBytes("abc", 3)).toBe(null);
    expect(headBytes("abcd", 3)).toBe(3);
    expect(headBytes("", 0)).toBe(null);
    expect(headBytes("\nabc", 0)).toBe(0);
    // The last line break inside the head keeps ≥ half of it: cut after it.
    expect(headBytes("ab\ncdefgh", 4)).toBe(3);
    // A line break in the first half is not used.
    expect(headBytes("a\nbcdefgh", 6)).toBe(6);
    // Code points, not UTF-16 units: "😀" is one character of 4 bytes; "é" 2 bytes; "€" 3.
    expect(headBytes("😀😀😀", 2)).toBe(8);
    expect(headBytes("éé€x", 3)).toBe(7);
    expect(headBytes("😀😀", 2)).toBe(null);
    // A lone surrogate is one character, written as U+FFFD (3 bytes).
    expect(headBytes("\ud800ab", 2)).toBe(4);
    // Width boundaries: U+007F 1 byte, U+0080 2, U+07FF 2, U+0800 3, U+FFFF 3.
    expect(headBytes("\u007f\u0080\u07ff\u0800\uffffx", 5)).toBe(11);
  });

  const unit = fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
    { weight: 2, arbitrary: fc.constant(0x0a) },
    { weight: 1, arbitrary: fc.integer({ min: 0x80, max: 0xffff }) },
    { weight: 2, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }) },
    // UTF-8 width boundaries: 1|2 bytes at 0x80, 2|3 at 0x800, the last BMP units.
    { weight: 2, arbitrary: fc.constantFrom(0x7f, 0x80, 0x7ff, 0x800, 0xd7ff, 0xe000, 0xfffe, 0xffff) },
  );
  const text = fc.oneof(
    fc.array(unit, { maxLength: 80 }).map((us) => String.fromCharCode(...us)),
    fc.string({ unit: "binary", maxLength: 60 }),
  );

  it("equals the reference form on arbitrary UTF-16 text", () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 90 }), (t, n) => {
        expect(headBytes(t, n)).toBe(reference(t, n));
      }),
      { numRuns: 5000, seed: 20261201 },
    );
  });
});
