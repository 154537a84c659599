import { describe, expect, it } from "vitest";
import { byteComparer } from "../../src/core/plan/same-bytes";

const enc = (s: string) => new TextEncoder().encode(s);

describe("byteComparer", () => {
  const text = "0123456789abcdefghijklmnopqrstuvwxyz".repeat(3); // 108 bytes
  const a = enc(`__${text}`);
  const b = enc(`#####${text}!`).subarray(3); // "##" + text + "!", a view at byte offset 3 of its buffer
  const same = byteComparer(a, b);

  it("finds equal ranges, short (byte loop) and long (word loop), in a view with a byte offset", () => {
    expect([same(2, 2 + text.length, 2, 2 + text.length), same(2, 9, 2, 9), same(5, 5, 40, 40), same(2, 30, 2, 30)]).toEqual([true, true, true, true]);
  });
  it("finds a difference in a short range, in the word part, in the byte tail, and a length mismatch", () => {
    const mid = enc(`__${text.slice(0, 40)}X${text.slice(41)}`); // differs at byte 42 (word part)
    const tail = enc(`__${text.slice(0, 107)}X`); // differs in the last byte (tail after 13 words)
    expect([
      same(0, 2, 0, 2),
      byteComparer(a, mid)(2, a.length, 2, mid.length),
      byteComparer(a, tail)(2, a.length, 2, tail.length),
      same(2, 12, 2, 11),
      byteComparer(a, mid)(2, 42, 2, 42),
    ]).toEqual([false, false, false, false, true]);
  });
});
