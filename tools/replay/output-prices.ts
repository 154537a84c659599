/**
 * Output-token list prices, USD per million tokens (data). The emulator bills a call's whole
 * cost (input side + output) in `x-emulator-cost-usd`; the report's *input* cost is that minus
 * output tokens × this price. Output is the recorded reply, identical under every strategy, so
 * an approximate price here shifts no dollar saving, only the percentage base.
 * Sources: platform.claude.com models pages (Opus 4/4.1 $75, Opus 4.5 $25, Sonnet 4/4.5 $15,
 * Haiku 4.5 $5); developers.openai.com model pages (gpt-5, gpt-5-codex, gpt-5.1-codex(-max)
 * $10, gpt-4o $10); gpt-4-1106-preview $30 (MANIFEST.md: SWE-agent's recorded cost matches it).
 * To be replaced by the core price table (src/core/cost) at merge.
 */

const OUTPUT_USD_PER_MTOK: Record<string, number> = {
  "claude-opus-4-20250514": 75,
  "claude-opus-4-1-20250805": 75,
  "claude-opus-4-5-20251101": 25,
  "claude-sonnet-4-20250514": 15,
  "claude-sonnet-4-5-20250929": 15,
  "claude-haiku-4-5-20251001": 5,
  "gpt-4o": 10,
  "gpt-4-1106-preview": 30,
  "gpt-5": 10,
  "gpt-5-codex": 10,
  "gpt-5.1-codex": 10,
  "gpt-5.1-codex-max": 10,
};

/** Output price of a model in USD per token, or null when unknown. */
export function outputUsdPerToken(model: string): number | null {
  const p = OUTPUT_USD_PER_MTOK[model];
  return p === undefined ? null : p / 1_000_000;
}
