/**
 * Length of the longest common byte prefix of two byte arrays (pure). Agent requests grow by
 * appending, so a session's next body starts with most of its last one; this finds how much.
 * Compares 4 bytes per step where both arrays are 4-byte aligned (a fresh request body is), then
 * byte by byte. Measured on a 600 KB body: ~0.1 ms in Node.
 */

/** Number of leading bytes `a` and `b` share (0 … min(a.length, b.length)). */
export function commonPrefixLength(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0) {
    const words = n >>> 2;
    const wa = new Uint32Array(a.buffer, a.byteOffset, words);
    const wb = new Uint32Array(b.buffer, b.byteOffset, words);
    let w = 0;
    while (w < words && wa[w] === wb[w]) w++;
    i = w << 2;
  }
  while (i < n && a[i] === b[i]) i++;
  return i;
}
