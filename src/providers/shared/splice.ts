/**
 * Splicing (pure): the forwarded body is the original bytes with byte ranges deleted, never a
 * re-serialisation (DESIGN §2, case B12). With no deletions the result is the same bytes.
 */
import type { ByteRange } from "../../core/view/types";

/**
 * Returns `bytes` with every range in `deletions` removed. Ranges are half-open, must lie inside
 * the input, and may be unsorted; overlapping or touching ranges are merged.
 * Throws RangeError when a range is out of bounds or inverted.
 */
export function spliceOut(bytes: Uint8Array, deletions: readonly ByteRange[]): Uint8Array {
  if (deletions.length === 0) return bytes;
  const sorted = mergeRanges(deletions, bytes.length);
  let removed = 0;
  for (const r of sorted) removed += r.end - r.start;
  const out = new Uint8Array(bytes.length - removed);
  let from = 0;
  let at = 0;
  for (const r of sorted) {
    out.set(bytes.subarray(from, r.start), at);
    at += r.start - from;
    from = r.end;
  }
  out.set(bytes.subarray(from), at);
  return out;
}

/** Sorts and merges ranges; throws RangeError on a range outside `[0, length]` or with end < start. */
export function mergeRanges(ranges: readonly ByteRange[], length: number): ByteRange[] {
  for (const r of ranges) {
    if (r.start < 0 || r.end > length || r.end < r.start) throw new RangeError(`bad deletion range [${r.start}, ${r.end}) for ${length} bytes`);
  }
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const out: ByteRange[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else if (r.end > r.start) out.push({ start: r.start, end: r.end });
  }
  return out;
}
