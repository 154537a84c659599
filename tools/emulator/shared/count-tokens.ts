/**
 * Deterministic token counting for the emulator (pure, memoised): the o200k_base BPE from
 * `gpt-tokenizer` (the tokenizer of gpt-4o and the GPT-5 family). OpenAI counts are exact for
 * text; Anthropic's tokenizer is not public, so Anthropic counts use the same BPE as a
 * consistent per-block estimate (docs/emulator.md, "Tokens").
 */
import { countTokens as bpeCount } from "gpt-tokenizer/encoding/o200k_base";

/** Flat charge for one image or document part (Anthropic: ~(w×h)/750 ≈ 1,600 for a 1.15 MP image). */
export const MEDIA_TOKENS = 1600;

const MEMO_LIMIT = 200_000;
const memo = new Map<string, number>();

/** BPE token count of `text`; memoised because replays resend the same blocks on every call. */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  const hit = memo.get(text);
  if (hit !== undefined) return hit;
  const n = bpeCount(text);
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(text, n);
  return n;
}
