import { describe, expect, it } from "vitest";
import { MEDIA_TOKENS, SAMPLE_ABOVE, estimateTokens, estimateTokensFromBytes, estimateTokensOfSlice } from "../../src/core/tokens/estimate";

const enc = new TextEncoder();

describe("token estimator", () => {
  it("charges each character class its documented weight", () => {
    expect(estimateTokens("hello world")).toBe(2); // two words
    expect(estimateTokens("internationalization")).toBe(5); // 1 word + 14 letters beyond 6 × 0.25 = 4.5 → 5
    expect(estimateTokens("1234567")).toBe(3); // three digit groups
    expect(estimateTokens("a, b.")).toBe(4); // 2 words + 2 punctuation × 0.6 = 3.2 → 4
    expect(estimateTokens("中文字")).toBe(3); // 3 CJK × 0.75 = 2.25 → 3
    expect(estimateTokens("жжжж")).toBe(2); // 4 two-byte × 0.3 = 1.2 → 2
    expect(estimateTokens("😀")).toBe(2); // one 4-byte × 1.5
    expect(estimateTokens("")).toBe(0);
  });

  it("reads raw JSON escapes as the characters they stand for", () => {
    const raw = (s: string) => estimateTokensOfSlice(enc.encode(s));
    expect(raw("a\\nb")).toBe(raw("a\nb")); // escaped newline = newline
    expect(raw("\\ud83d\\ude00")).toBe(estimateTokens("😀")); // escaped surrogate pair = one emoji
    expect(raw('\\"')).toBe(1); // one punctuation character (0.6 → 1)
  });

  it("samples slices longer than SAMPLE_ABOVE and scales to their length", () => {
    const text = "word ".repeat(20_000); // 100,000 bytes, one token per word
    expect(text.length).toBeGreaterThan(SAMPLE_ABOVE);
    const est = estimateTokens(text);
    expect(Math.abs(est - 20_000) / 20_000).toBeLessThan(0.05);
  });

  it("keeps the size-only rule and the media charge", () => {
    expect(estimateTokensFromBytes(4001)).toBe(1001);
    expect(MEDIA_TOKENS).toBe(1600);
  });
});
