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

/**
 * Longest run of non-whitespace (or of whitespace) characters counted in one piece. BPE over one
 * pre-token is quadratic in its length — measured with o200k_base here: 20 000 × "x" 0.43 s,
 * 40 000 × "x" 1.5 s, so a 1 MB run held the emulator for many minutes (fresh-user pass,
 * 2026-12-02) — so a longer run is counted in pieces of this many characters. A text without
 * such a run is counted whole (exact); with one, only the tokens at each cut may differ.
 */
export const MAX_RUN_CHARS = 2048;

const LONG_RUN = new RegExp(`\\S{${MAX_RUN_CHARS + 1},}|\\s{${MAX_RUN_CHARS + 1},}`, "g");

/** bpeCount of `text`, with every run longer than MAX_RUN_CHARS counted in pieces. */
function countInPieces(text: string): number {
  let total = 0;
  let from = 0;
  for (const m of text.matchAll(LONG_RUN)) {
    if (m.index > from) total += bpeCount(text.slice(from, m.index));
    for (let i = 0; i < m[0].length; i += MAX_RUN_CHARS) total += bpeCount(m[0].slice(i, i + MAX_RUN_CHARS));
    from = m.index + m[0].length;
  }
  return from === 0 ? bpeCount(text) : total + (from < text.length ? bpeCount(text.slice(from)) : 0);
}

/** BPE token count of `text` (long runs in pieces: countInPieces); memoised because replays resend the same blocks on every call. */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  const hit = memo.get(text);
  if (hit !== undefined) return hit;
  const n = countInPieces(text);
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(text, n);
  return n;
}
