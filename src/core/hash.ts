/**
 * Fast, stable, non-cryptographic 64-bit content hash (pure, synchronous): two 32-bit
 * FNV-1a-style lanes with different seeds and a final avalanche (murmur3 fmix32). Used for
 * ledger keys (pair id + result hash) and prose identity; not for security (the audit trail
 * uses SHA-256/HMAC from Web Crypto).
 */

/** Hex hash (16 chars) of `bytes`. */
export function hashBytes(bytes: Uint8Array): string {
  let h1 = 0x811c9dc5 | 0;
  let h2 = 0x9747b28c | 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    h1 = Math.imul(h1 ^ b, 0x01000193);
    h2 = Math.imul(h2 ^ b, 0x5bd1e995);
  }
  return fmix(h1 ^ bytes.length).toString(16).padStart(8, "0") + fmix(h2 ^ bytes.length).toString(16).padStart(8, "0");
}

/**
 * Hex hash of a sequence of byte slices `[start, end)` of `bytes`, as if the slices were
 * concatenated with a 0x1e separator after each one (so ["ab","c"] ≠ ["a","bc"]); no copy.
 */
export function hashSlices(bytes: Uint8Array, slices: readonly { start: number; end: number }[]): string {
  let h1 = 0x811c9dc5 | 0;
  let h2 = 0x9747b28c | 0;
  let len = 0;
  for (const s of slices) {
    for (let i = s.start; i < s.end; i++) {
      const b = bytes[i]!;
      h1 = Math.imul(h1 ^ b, 0x01000193);
      h2 = Math.imul(h2 ^ b, 0x5bd1e995);
    }
    h1 = Math.imul(h1 ^ 0x1e, 0x01000193);
    h2 = Math.imul(h2 ^ 0x1e, 0x5bd1e995);
    len += s.end - s.start + 1;
  }
  return fmix(h1 ^ len).toString(16).padStart(8, "0") + fmix(h2 ^ len).toString(16).padStart(8, "0");
}

/** Hex hash of a string's UTF-8 bytes. */
export function hashText(text: string): string {
  return hashBytes(new TextEncoder().encode(text));
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
