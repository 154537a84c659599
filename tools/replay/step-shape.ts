/**
 * The shape of one sent call for the hindsight step timing (pure; ./hindsight-steps.ts), in
 * tokens ≈ characters / 4 of the JSON text (the bound's unit):
 * - `original_tokens`, `sent_tokens`: the request as the agent sent it and as the strategy sent it;
 * - `first_edit_tokens` (calls that removed new pairs only): tokens of the original request before
 *   the first history item the new removals touch — the item holding a removed pair's tool call
 *   when the sent body no longer holds that call, else the item holding its result. Everything
 *   outside the history (system, tools) is counted as lying before it;
 * - `reach_tokens` (Anthropic): tokens before the 20th history item from the end — an edit before
 *   it leaves nothing readable, since the replay's requests carry one breakpoint, on the last
 *   message, and a read looks back at most 20 blocks from it (src/core/cost/cache-reach.ts; items
 *   counted for blocks, so the reach is never under-stated); null for OpenAI (every prefix is cached).
 */
import { historyOf, parseResultKey, toolCallsIn, toolResultsIn } from "./tool-pairs";
import { LOOKBACK_MESSAGES } from "../../src/core/cost/cache-reach";
import type { JsonObject, Provider } from "./types";

/** What the hindsight programme needs of one call. */
export interface CallShape {
  original_tokens: number;
  sent_tokens: number;
  /** Null when the call removed no pair that earlier calls kept. */
  first_edit_tokens: number | null;
  /** Anthropic: tokens before the first item a read can reach from the last message's breakpoint; null: no limit. Absent in shapes recorded before it was. */
  reach_tokens?: number | null;
}

const tokensOf = (chars: number): number => Math.round(chars / 4);

/** The shape of a call whose original body is `original` (JSON text `originalText`) and sent text `sentText`; `fresh` = result keys first removed here. */
export function callShape(provider: Provider, original: JsonObject, originalText: string, sent: JsonObject | null, sentText: string, fresh: readonly string[]): CallShape {
  const items = historyOf(provider, original);
  const lengths = items.map((item) => JSON.stringify(item).length);
  const outside = originalText.length - lengths.reduce((s, n) => s + n, 0);
  const reachFrom = Math.max(0, items.length - LOOKBACK_MESSAGES);
  const reach_tokens = provider === "anthropic" ? tokensOf(Math.max(0, outside + lengths.slice(0, reachFrom).reduce((s, n) => s + n, 0))) : null;
  const shape = { original_tokens: tokensOf(originalText.length), sent_tokens: tokensOf(sentText.length), reach_tokens };
  if (fresh.length === 0) return { ...shape, first_edit_tokens: null };
  const ids = new Set(fresh.map((k) => parseResultKey(k).id));
  const keptCalls = new Set(sent === null ? [] : toolCallsIn(provider, historyOf(provider, sent)).map((c) => c.id));
  let before = outside;
  for (let i = 0; i < items.length; i++) {
    const touched =
      toolCallsIn(provider, [items[i]!]).some((c) => ids.has(c.id) && !keptCalls.has(c.id)) || toolResultsIn(provider, [items[i]!]).some((r) => ids.has(r.id));
    if (touched) return { ...shape, first_edit_tokens: tokensOf(Math.max(0, before)) };
    before += lengths[i]!;
  }
  return { ...shape, first_edit_tokens: tokensOf(Math.max(0, before)) };
}
