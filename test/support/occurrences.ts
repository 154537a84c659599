/** Byte-search helper for tests that count inserted bytes (markers, summary blocks) in a body. */

/** Offsets in `hay` where `needle` starts (overlapping matches included). */
export function occurrences(hay: Uint8Array, needle: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i + needle.length <= hay.length; i++) {
    let k = 0;
    while (k < needle.length && hay[i + k] === needle[k]) k++;
    if (k === needle.length) out.push(i);
  }
  return out;
}
