/**
 * Splicing (pure): the forwarded body is the original bytes with byte ranges deleted (and, at
 * guarantee level `placeholders` only, fixed marker bytes inserted), never a re-serialisation
 * (DESIGN §2, case B12). With no deletions and no insertions the result is the same bytes.
 */
import type { ByteRange } from "../../core/view/types";
import type { Insertion } from "../../core/plan/placeholder";

/**
 * Returns `bytes` with every range in `deletions` removed and every insertion placed before the
 * original byte at its offset (an insertion at a deletion's start goes where the deleted bytes
 * were). Ranges are half-open, must lie inside the input, and may be unsorted; overlapping or
 * touching ranges are merged. Throws RangeError when a range is out of bounds or inverted, or
 * an insertion is out of bounds or strictly inside a deleted range.
 */
export function spliceOut(bytes: Uint8Array, deletions: readonly ByteRange[], insertions: readonly Insertion[] = []): Uint8Array {
  if (deletions.length === 0 && insertions.length === 0) return bytes;
  const sorted = mergeRanges(deletions, bytes.length);
  const ins = [...insertions].sort((a, b) => a.at - b.at);
  for (const i of ins) {
    if (i.at < 0 || i.at > bytes.length) throw new RangeError(`bad insertion offset ${i.at} for ${bytes.length} bytes`);
    if (sorted.some((r) => i.at > r.start && i.at < r.end)) throw new RangeError(`insertion at ${i.at} lies inside a deleted range`);
  }
  let size = bytes.length;
  for (const r of sorted) size -= r.end - r.start;
  for (const i of ins) size += i.bytes.length;
  const out = new Uint8Array(size);
  let from = 0;
  let at = 0;
  let k = 0;
  const copyTo = (to: number) => {
    // Copies kept bytes from `from` up to `to`, placing the insertions that fall in [from, to].
    while (k < ins.length && ins[k]!.at <= to) {
      const i = ins[k++]!;
      out.set(bytes.subarray(from, i.at), at);
      at += i.at - from;
      from = i.at;
      out.set(i.bytes, at);
      at += i.bytes.length;
    }
    out.set(bytes.subarray(from, to), at);
    at += to - from;
  };
  for (const r of sorted) {
    copyTo(r.start);
    from = r.end;
  }
  copyTo(bytes.length);
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
