/**
 * Fast, stable, non-cryptographic 64-bit content hash (pure, synchronous): two 32-bit
 * FNV-1a-style lanes with different seeds and a final avalanche (murmur3 fmix32). Used for
 * ledger keys (pair id + result hash) and prose identity; not for security (the audit trail
 * uses SHA-256/HMAC from Web Crypto).
 */

/** Incremental hasher: feed byte ranges (no copy), then `digest()` → 16 hex chars. */
export class Hasher {
  private h1 = 0x811c9dc5 | 0;
  private h2 = 0x9747b28c | 0;
  private len = 0;

  /** Feeds `bytes[start, end)`. */
  feed(bytes: Uint8Array, start = 0, end = bytes.length): this {
    let h1 = this.h1;
    let h2 = this.h2;
    for (let i = start; i < end; i++) {
      const b = bytes[i]!;
      h1 = Math.imul(h1 ^ b, 0x01000193);
      h2 = Math.imul(h2 ^ b, 0x5bd1e995);
    }
    this.h1 = h1;
    this.h2 = h2;
    this.len += end - start;
    return this;
  }

  /** Feeds one byte (a separator). */
  feedByte(b: number): this {
    this.h1 = Math.imul(this.h1 ^ b, 0x01000193);
    this.h2 = Math.imul(this.h2 ^ b, 0x5bd1e995);
    this.len += 1;
    return this;
  }

  /**
   * Feeds the UTF-8 bytes of `text` (ASCII text char by char, without encoding it first; any
   * other text through TextEncoder), exactly as `feed(new TextEncoder().encode(text))`.
   */
  feedText(text: string): this {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x80) return this.feed(encoder.encode(text));
    let h1 = this.h1;
    let h2 = this.h2;
    for (let i = 0; i < text.length; i++) {
      const b = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ b, 0x01000193);
      h2 = Math.imul(h2 ^ b, 0x5bd1e995);
    }
    this.h1 = h1;
    this.h2 = h2;
    this.len += text.length;
    return this;
  }

  /** The hash of everything fed, as 16 lowercase hex chars (each lane zero-padded to 8). */
  digest(): string {
    // One String.fromCharCode of 16 digits: ~8× faster than Number#toString(16) + padStart on
    // lanes ≥ 2^31, which are heap numbers (measured in Node 22).
    const a = fmix(this.h1 ^ this.len);
    const b = fmix(this.h2 ^ this.len);
    return String.fromCharCode(
      HEX[a >>> 28]!, HEX[(a >>> 24) & 15]!, HEX[(a >>> 20) & 15]!, HEX[(a >>> 16) & 15]!,
      HEX[(a >>> 12) & 15]!, HEX[(a >>> 8) & 15]!, HEX[(a >>> 4) & 15]!, HEX[a & 15]!,
      HEX[b >>> 28]!, HEX[(b >>> 24) & 15]!, HEX[(b >>> 20) & 15]!, HEX[(b >>> 16) & 15]!,
      HEX[(b >>> 12) & 15]!, HEX[(b >>> 8) & 15]!, HEX[(b >>> 4) & 15]!, HEX[b & 15]!,
    );
  }
}

/** Char codes of the hex digits 0-9a-f. */
const HEX = Array.from("0123456789abcdef", (c) => c.charCodeAt(0));
const encoder = new TextEncoder();

/** Hex hash (16 chars) of `bytes[start, end)` (the whole array by default; no copy). */
export function hashBytes(bytes: Uint8Array, start = 0, end = bytes.length): string {
  return new Hasher().feed(bytes, start, end).digest();
}

/**
 * Hex hash of a sequence of byte slices `[start, end)` of `bytes`, as if the slices were
 * concatenated with a 0x1e separator after each one (so ["ab","c"] ≠ ["a","bc"]); no copy.
 */
export function hashSlices(bytes: Uint8Array, slices: readonly { start: number; end: number }[]): string {
  const h = new Hasher();
  for (const s of slices) h.feed(bytes, s.start, s.end).feedByte(0x1e);
  return h.digest();
}

/** Hex hash of a string's UTF-8 bytes. */
export function hashText(text: string): string {
  return new Hasher().feedText(text).digest();
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Hex digits kept of the prefix hashes the step facts carry per message, member and marker-free
 * message (src/core/facts/prefix-facts.ts, cache-facts.ts, src/core/cache/system-diff.ts): 32
 * bits, ample to tell two versions of one message apart between consecutive requests (a false
 * "equal" has probability 2^-32 and only shifts a savings or cache-break figure, never an edit),
 * and 4–8 bytes less per message on the step RPC.
 */
export const PREFIX_HASH_CHARS = 8;
