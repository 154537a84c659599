/**
 * Fast token estimator for the hot path (pure, one pass, no tables). It counts character
 * classes of UTF-8 bytes — ASCII words, digit groups, punctuation, whitespace runs and non-ASCII
 * characters by script width — and charges each class a calibrated token cost. It reads raw JSON
 * slices too: an escape (`\n`, `\"`, `\uXXXX`) counts as the one character it stands for.
 *
 * Calibration: weights fitted against `gpt-tokenizer` (o200k_base) on the shared corpus's
 * Anthropic sessions plus a fixed multilingual sample set (bench/estimator.bench.ts, which
 * prints the current figures). Measured error of `estimateTokens` vs o200k_base, per category
 * (aggregate error / median per-sample |error| over samples ≥ 20 tokens), Nov 2026 run:
 *   - English prose (user/assistant text, thinking): aggregate ≈ +2 %, median |err| ≈ 12 %
 *   - code (file views, diffs):                     aggregate ≈ −5 %, median |err| ≈ 9 %
 *   - JSON (tool inputs, JSON results):             aggregate ≈ +1 %, median |err| ≈ 9 %
 *   - non-English prose (fr/de/es/pt/ru/ar/hi/zh/ja/ko): per-language |err| ≤ ≈ 25 %
 *     (the old bytes/4 rule was off by +104 % on Russian and +113 % on Hindi)
 *   - media: not tokenised text; charged MEDIA_TOKENS flat per image/document (error below).
 * Claude's own tokenizer is not public; o200k_base is a proxy, so treat these as the error
 * against a real BPE tokenizer, not against Anthropic billing (the session DO calibrates
 * estimated vs actual `usage` per session).
 */

/**
 * Flat token charge for one image/document part. Anthropic bills an image at ≈ width×height/750
 * tokens, ≈ 1,600 for a 1.15-megapixel image, which the API's resizing makes the practical
 * maximum (docs: build-with-claude/vision). So the charge is exact for large images and
 * over-estimates small ones (a 200×200 image is ≈ 54 tokens: +2,900 %). PDFs are billed per
 * page (text + page image); one flat charge under-estimates multi-page documents.
 */
export const MEDIA_TOKENS = 1600;

/** Token cost of each character class (fitted; see the module header). */
const W = {
  /** An ASCII letter run (a word) of up to LONG_WORD letters. */
  word: 1.0,
  /** Each letter beyond LONG_WORD in a run (long identifiers split). */
  longLetter: 0.25,
  /** A group of up to 3 digits (o200k splits numbers in 3-digit groups). */
  digitGroup: 1.0,
  /** One ASCII punctuation/symbol character (many merge with neighbours). */
  punct: 0.6,
  /** A run of newlines/tabs (with trailing spaces: indentation). */
  lineBreak: 1.0,
  /** A run of 2+ spaces (a single space merges into the next word). */
  spaceRun: 1.0,
  /** A 2-byte character (Latin accents, Greek, Cyrillic, Arabic, Hebrew). */
  twoByte: 0.3,
  /** A 3-byte CJK / kana / hangul character. */
  cjk: 0.75,
  /** Another 3-byte character (Indic scripts, symbols, box drawing). */
  threeByte: 0.45,
  /** A 4-byte character (emoji, rare CJK). */
  fourByte: 1.5,
};
const LONG_WORD = 6;

/** Estimated tokens of `bytes` UTF-8 bytes of text or JSON when only the size is known (≈ 4 bytes/token). */
export function estimateTokensFromBytes(bytes: number): number {
  return Math.ceil(bytes / 4);
}

/** Estimated tokens of the UTF-8 bytes `[start, end)` of `bytes` (text, or a raw JSON slice). */
export function estimateTokensOfSlice(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let t = 0;
  let p = start;
  while (p < end) {
    const c = bytes[p]!;
    if (isLetter(c)) {
      let q = p + 1;
      while (q < end && isLetter(bytes[q]!)) q++;
      const len = q - p;
      t += W.word + (len > LONG_WORD ? (len - LONG_WORD) * W.longLetter : 0);
      p = q;
    } else if (c >= 0x30 && c <= 0x39) {
      let q = p + 1;
      while (q < end && bytes[q]! >= 0x30 && bytes[q]! <= 0x39) q++;
      t += Math.ceil((q - p) / 3) * W.digitGroup;
      p = q;
    } else if (c === 0x20) {
      let q = p + 1;
      while (q < end && bytes[q] === 0x20) q++;
      if (q - p > 1) t += W.spaceRun;
      p = q;
    } else if (c === 0x0a || c === 0x0d || c === 0x09 || (c === 0x5c && isEscapedBreak(bytes[p + 1]))) {
      // A run of line breaks/tabs, raw or escaped, then any indentation.
      let q = p;
      for (;;) {
        const d = bytes[q];
        if (q < end && (d === 0x0a || d === 0x0d || d === 0x09 || d === 0x20)) q++;
        else if (q + 1 < end && d === 0x5c && isEscapedBreak(bytes[q + 1])) q += 2;
        else break;
      }
      t += W.lineBreak;
      p = q;
    } else if (c === 0x5c && bytes[p + 1] === 0x75 && p + 5 < end) {
      // \uXXXX: one character; surrogate pairs count as a 4-byte character.
      const hi = bytes[p + 2]! | 0x20;
      if (hi === 0x64 && (bytes[p + 3]! | 0x20) >= 0x38 && (bytes[p + 3]! | 0x20) <= 0x62 && bytes[p + 6] === 0x5c) {
        t += W.fourByte;
        p += 12;
      } else {
        t += W.threeByte;
        p += 6;
      }
    } else if (c < 0x80) {
      t += W.punct;
      p += c === 0x5c ? 2 : 1; // an escape like \" is one character
    } else if (c >= 0xf0) {
      t += W.fourByte;
      p += 4;
    } else if (c >= 0xe0) {
      // CJK ranges: U+3040–U+9FFF and U+AC00–U+D7AF (lead bytes E3–E9, EA–ED).
      t += c >= 0xe3 && c <= 0xed ? W.cjk : W.threeByte;
      p += 3;
    } else {
      t += W.twoByte;
      p += 2;
    }
  }
  return Math.ceil(t);
}

/** Estimated tokens of a string. */
export function estimateTokens(text: string): number {
  return estimateTokensOfSlice(encoder.encode(text));
}

const encoder = new TextEncoder();

function isLetter(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

function isEscapedBreak(e: number | undefined): boolean {
  return e === 0x6e || e === 0x72 || e === 0x74;
}
