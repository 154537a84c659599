/**
 * Fast token estimator for the hot path (pure). Starting point: ~4 bytes per token for English
 * and code, (OpenAI's rule of thumb, help.openai.com "What are tokens"); refined and measured
 * against a real tokenizer in the conversation-model issue (see bench/).
 */

/** Flat token charge for one image/document part (Anthropic: ~(w×h)/750, ~1,600 for a 1.15 MP image). */
export const MEDIA_TOKENS = 1600;

/** Estimated tokens of `bytes` UTF-8 bytes of text or JSON. */
export function estimateTokensFromBytes(bytes: number): number {
  return Math.ceil(bytes / 4);
}

/** Estimated tokens of a string. */
export function estimateTokens(text: string): number {
  return estimateTokensFromBytes(new TextEncoder().encode(text).length);
}
