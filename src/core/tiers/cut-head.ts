/**
 * Where a truncation keeps its head (pure): at most `head_chars` characters of the result
 * text, cut back to the last line break inside the head when that keeps at least half of it
 * (DESIGN §2 note: cut at a line boundary so the head is self-evidently partial). Returns the
 * head's UTF-8 byte length, or null when the text is not longer than the head.
 */

/** Byte length of the kept head of `text`, or null when nothing would be cut. */
export function headBytes(text: string, head_chars: number): number | null {
  const chars = Array.from(text);
  if (chars.length <= head_chars) return null;
  let head = chars.slice(0, head_chars).join("");
  const nl = head.lastIndexOf("\n");
  if (nl >= Math.floor(head.length / 2)) head = head.slice(0, nl + 1);
  return new TextEncoder().encode(head).length;
}
