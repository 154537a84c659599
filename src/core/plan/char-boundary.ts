/**
 * Character boundaries inside a raw JSON string literal (pure), for the guarantee checker
 * (./check-guarantee.ts): a cut must fall between whole characters and escapes.
 */

/**
 * Whether offset `t` in [s, e] starts a whole character of the raw JSON string literal [s, e): not
 * a UTF-8 continuation byte, not inside an escape, not between the halves of an escaped
 * surrogate pair. Walks from `s` (escapes can only be told apart from the start).
 * (Independent of src/providers/shared/cut-string.ts on purpose.)
 */
export function isCharBoundary(a: Uint8Array, s: number, e: number, t: number): boolean {
  if (t === s || t === e) return true;
  let p = s;
  while (p < t) {
    const c = a[p]!;
    if (c === 0x5c) {
      if (a[p + 1] === 0x75) {
        const cp = parseInt(String.fromCharCode(a[p + 2]!, a[p + 3]!, a[p + 4]!, a[p + 5]!), 16);
        const isHigh = cp >= 0xd800 && cp <= 0xdbff;
        p += isHigh && a[p + 6] === 0x5c && a[p + 7] === 0x75 ? 12 : 6;
      } else p += 2;
    } else if (c < 0x80) p += 1;
    else if (c < 0xe0) p += 2;
    else if (c < 0xf0) p += 3;
    else p += 4;
  }
  return p === t;
}
