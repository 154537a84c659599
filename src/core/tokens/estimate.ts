/**
 * Fast token estimator for the hot path (pure, one pass, no tables). It counts character
 * classes of UTF-8 bytes — ASCII words, digit groups, punctuation, whitespace runs and non-ASCII
 * characters by script width — and charges each class a calibrated token cost. It reads raw JSON
 * slices too: an escape (`\n`, `\"`, `\uXXXX`) counts as the one character it stands for.
 *
 * Calibration: weights fitted against `gpt-tokenizer` (o200k_base) on the seed corpus's
 * Anthropic sessions plus a fixed multilingual sample set (bench/estimator.bench.ts prints the
 * current figures). Error vs o200k_base as aggregate (Σest−Σreal)/Σreal and median per-sample
 * |error| (samples ≥ 20 tokens), last run (bytes/4 rule in brackets):
 *   - English prose (716 text/thinking blocks): +0.5 % / 5.2 %   [−1.0 % / 32.1 %]
 *   - JSON (615 tool inputs and JSON results):  +3.4 % / 8.7 %   [−0.1 % / 10.9 %]
 *   - code (59 file views, diffs):             −11.5 % / 10.5 %  [−8.6 % / 10.6 %]
 *   - non-English prose, one paragraph each: fr +10, de +2, es +23, pt +13, ru +20, ar −21,
 *     hi +22, zh −4, ja +1, ko 0 % [bytes/4: ru +104 %, hi +113 %, ar +40 %, es +39 %]
 *   - emoji and box-drawing symbols: −39 % (each emoji is often 2–3 tokens)
 *   - media: not text; MEDIA_TOKENS flat per image/document (error below).
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

/**
 * Slices longer than this many bytes are estimated from SAMPLE_WINDOWS evenly spaced windows of
 * SAMPLE_WINDOW bytes, scaled to the slice's length: the hot path then reads 1 KiB of a 100 KB
 * tool result instead of all of it. Measured cost of sampling on the corpus (bench/estimator):
 * < 1 percentage point of extra aggregate error (window edges cut a word or an escape).
 */
export const SAMPLE_ABOVE = 2_048;
const SAMPLE_WINDOWS = 16;
const SAMPLE_WINDOW = 64;

/** Estimated tokens of the UTF-8 bytes `[start, end)` of `bytes` (text, or a raw JSON slice). */
export function estimateTokensOfSlice(bytes: Uint8Array, start = 0, end = bytes.length): number {
  const len = end - start;
  if (len <= SAMPLE_ABOVE) return Math.ceil(countWeighted(bytes, start, end));
  const stride = Math.floor(len / SAMPLE_WINDOWS);
  let t = 0;
  for (let w = 0; w < SAMPLE_WINDOWS; w++) {
    const s = start + w * stride;
    t += countWeighted(bytes, s, s + SAMPLE_WINDOW);
  }
  return Math.ceil((t * len) / (SAMPLE_WINDOWS * SAMPLE_WINDOW));
}

/** Exact class count of `[start, end)`, weighted (fractional tokens). */
function countWeighted(bytes: Uint8Array, start: number, end: number): number {
  // Counts per class, weighted once at the end; the loop reads each byte once via a class table.
  let words = 0;
  let longLetters = 0;
  let digitGroups = 0;
  let punct = 0;
  let breaks = 0;
  let spaceRuns = 0;
  let two = 0;
  let cjk = 0;
  let three = 0;
  let four = 0;
  let p = start;
  while (p < end) {
    const c = bytes[p]!;
    const k = CLASS[c]!;
    if (k === LETTER) {
      const s = p;
      p++;
      while (p < end && CLASS[bytes[p]!] === LETTER) p++;
      words++;
      if (p - s > LONG_WORD) longLetters += p - s - LONG_WORD;
    } else if (k === DIGIT) {
      const s = p;
      p++;
      while (p < end && CLASS[bytes[p]!] === DIGIT) p++;
      digitGroups += ((p - s + 2) / 3) | 0;
    } else if (k === SPACE) {
      const s = p;
      p++;
      while (p < end && bytes[p] === 0x20) p++;
      if (p - s > 1) spaceRuns++;
    } else if (k === BREAK || (c === 0x5c && p + 1 < end && ESCAPED_BREAK[bytes[p + 1]!] === 1)) {
      // A run of line breaks/tabs, raw or escaped, then any indentation.
      for (;;) {
        if (p >= end) break;
        const d = bytes[p]!;
        const dk = CLASS[d]!;
        if (dk === BREAK || dk === SPACE) p++;
        else if (d === 0x5c && p + 1 < end && ESCAPED_BREAK[bytes[p + 1]!] === 1) p += 2;
        else break;
      }
      breaks++;
    } else if (k === PUNCT) {
      if (c === 0x5c && p + 1 < end && bytes[p + 1] === 0x75) {
        // \uXXXX: one character; an escaped surrogate pair (\uD8xx–\uDBxx) is a 4-byte character.
        const h1 = bytes[p + 2]! | 0x20;
        const h2 = bytes[p + 3]! | 0x20;
        if (h1 === 0x64 && h2 >= 0x38 && h2 <= 0x62) { four++; p += 12; }
        else { three++; p += 6; }
      } else {
        punct++;
        p += c === 0x5c ? 2 : 1; // an escape like \" is one character
      }
    } else if (k === LEAD4) { four++; p += 4; }
    else if (k === LEAD3) {
      // CJK ranges: U+3040–U+9FFF and U+AC00–U+D7AF (lead bytes E3–E9, EA–ED).
      if (c >= 0xe3 && c <= 0xed) cjk++;
      else three++;
      p += 3;
    } else if (k === LEAD2) { two++; p += 2; }
    else p++; // stray continuation byte (not produced by valid UTF-8)
  }
  return (
    words * W.word + longLetters * W.longLetter + digitGroups * W.digitGroup + punct * W.punct + breaks * W.lineBreak +
    spaceRuns * W.spaceRun + two * W.twoByte + cjk * W.cjk + three * W.threeByte + four * W.fourByte
  );
}

const LETTER = 1;
const DIGIT = 2;
const SPACE = 3;
const BREAK = 4;
const PUNCT = 5;
const LEAD2 = 6;
const LEAD3 = 7;
const LEAD4 = 8;
const CONT = 9;
/** Byte → class. */
const CLASS = new Uint8Array(256);
for (let b = 0; b < 256; b++) {
  CLASS[b] =
    (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a) ? LETTER
    : b >= 0x30 && b <= 0x39 ? DIGIT
    : b === 0x20 ? SPACE
    : b === 0x0a || b === 0x0d || b === 0x09 ? BREAK
    : b < 0x80 ? PUNCT
    : b < 0xc0 ? CONT
    : b < 0xe0 ? LEAD2
    : b < 0xf0 ? LEAD3
    : LEAD4;
}
/** Escape letters that stand for a line break or tab: n r t. */
const ESCAPED_BREAK = new Uint8Array(256);
ESCAPED_BREAK[0x6e] = 1;
ESCAPED_BREAK[0x72] = 1;
ESCAPED_BREAK[0x74] = 1;

/** Estimated tokens of a string. */
export function estimateTokens(text: string): number {
  return estimateTokensOfSlice(encoder.encode(text));
}

const encoder = new TextEncoder();
