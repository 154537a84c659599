/**
 * The emulator's token counter (tools/emulator/shared/count-tokens.ts) on long runs: a run of one
 * character longer than MAX_RUN_CHARS is counted in pieces (whole, BPE is quadratic in a
 * pre-token's length: 1 MB of "x" held the emulator for many minutes), and a text without such a
 * run is counted exactly as the BPE counts it whole.
 */
import { describe, expect, it } from "vitest";
import { countTokens as bpeCount } from "gpt-tokenizer/encoding/o200k_base";
import { countTokens, MAX_RUN_CHARS } from "../../tools/emulator/shared/count-tokens";

describe("emulator countTokens", () => {
  it("1 MB of one character: counted in pieces, 125 000 tokens (8 'x' per o200k token, as whole)", () => {
    expect(MAX_RUN_CHARS).toBe(2048);
    expect(bpeCount("x".repeat(MAX_RUN_CHARS))).toBe(256);
    expect(countTokens("x".repeat(1_000_000))).toBe(125_000);
    // A long run of spaces between words: the words and the run's pieces.
    const spaced = `alpha${" ".repeat(5_000)}omega`;
    expect(countTokens(spaced)).toBe(bpeCount("alpha") + bpeCount(" ".repeat(2048)) * 2 + bpeCount(" ".repeat(904)) + bpeCount("omega"));
  });

  it("a text without a run over MAX_RUN_CHARS is counted whole, exactly", () => {
    const text = `{"path":"src/a.ts","lines":[${Array.from({ length: 400 }, (_, i) => `"line ${i}: const v${i} = f(${i});"`).join(",")}]}\n${"y".repeat(MAX_RUN_CHARS)} end`;
    expect(countTokens(text)).toBe(bpeCount(text));
  });
});
