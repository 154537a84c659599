/**
 * Where a truncation keeps its head (pure): at most `head_chars` characters (Unicode code points;
 * a lone surrogate counts as one) of the result text, cut back to the last line break inside the
 * head when that keeps at least half of it (DESIGN §2 note: cut at a line boundary so the head is
 * self-evidently partial). Returns the head's UTF-8 byte length (a lone surrogate is 3 bytes, as
 * TextEncoder writes U+FFFD for it), or null when the text is not longer than the head.
 *
 * One pass over the head's UTF-16 units, no copies: the micro tier calls this for every eligible
 * result on every request, and the earlier `Array.from(text)` form (one string per code point of
 * the whole text) was the largest part of a proposal step in a Node profile of the load run's
 * calls. test/unit/cut-head.test.ts checks it against that form.
 */

const isHigh = (u: number) => u >= 0xd800 && u <= 0xdbff;
const isLow = (u: number) => u >= 0xdc00 && u <= 0xdfff;

/**
 * Byte length of the kept head of `text`, or null when nothing would be cut. `head_chars` is a
 * non-negative integer (config `head_chars`, 0–100 000: src/config/schema.ts).
 */
export function headBytes(text: string, head_chars: number): number | null {
  // 1. The UTF-16 end of the first head_chars code points.
  let end = 0;
  for (let n = 0; n < head_chars && end < text.length; n++) {
    end += isHigh(text.charCodeAt(end)) && end + 1 < text.length && isLow(text.charCodeAt(end + 1)) ? 2 : 1;
  }
  if (end >= text.length) return null;
  // 2. Back to the last line break when it keeps at least half of the head (in UTF-16 units).
  const nl = end > 0 ? text.lastIndexOf("\n", end - 1) : -1;
  const cut = nl >= Math.floor(end / 2) ? nl + 1 : end;
  // 3. UTF-8 length of text[0, cut) (the cut never splits a surrogate pair).
  let bytes = 0;
  for (let i = 0; i < cut; i++) {
    const u = text.charCodeAt(i);
    if (u < 0x80) bytes += 1;
    else if (u < 0x800) bytes += 2;
    else if (isHigh(u) && isLow(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
