/**
 * The unit both cache models work on (pure): a prompt flattened, in the provider's prefix order,
 * into blocks carrying a token count, a hash of the whole prefix up to the block, and an optional
 * cache breakpoint. Segmenters (one per API) build these; cache models never see JSON.
 */
import { hashText } from "../../../src/core/hash";

export interface PromptBlock {
  /** Hash of the model id and every block up to and including this one (content identity, cache markers excluded). */
  prefixHash: string;
  /** Tokens of this block (count or documented estimate). */
  tokens: number;
  /** Cache entry lifetime in ms when this block is a cache breakpoint, else null. */
  breakpointTtlMs: number | null;
}

/** One block before chaining: its content identity and size. */
export interface RawBlock {
  /** Canonical content (stable JSON plus boundary markers); equal strings mean equal prompt content. */
  canon: string;
  tokens: number;
  breakpointTtlMs: number | null;
}

/** Chains raw blocks into prefix hashes, seeded with the model id so models never share a cache. */
export function chainBlocks(model: string, raw: readonly RawBlock[]): PromptBlock[] {
  let h = hashText(`model:${model}`);
  return raw.map((b) => {
    h = hashText(h + "|" + hashText(b.canon));
    return { prefixHash: h, tokens: b.tokens, breakpointTtlMs: b.breakpointTtlMs };
  });
}

/** Sum of block tokens. */
export function totalTokens(blocks: readonly PromptBlock[]): number {
  let t = 0;
  for (const b of blocks) t += b.tokens;
  return t;
}

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
