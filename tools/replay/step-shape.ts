/**
 * The shape of one sent call for the hindsight step timing (pure; ./hindsight-steps.ts), in
 * tokens ≈ characters / 4 of the JSON text (the bound's unit):
 * - `original_tokens`, `sent_tokens`: the request as the agent sent it and as the strategy sent it;
 * - `first_edit_tokens` (calls that removed new pairs only): tokens of the original request before
 *   the first history item the new removals touch — the item holding a removed pair's tool call
 *   when the sent body no longer holds that call, else the item holding its result. Everything
 *   outside the history (system, tools) is counted as lying before it.
 */
import { historyOf, parseResultKey, toolCallsIn, toolResultsIn } from "./tool-pairs";
import type { JsonObject, Provider } from "./types";

/** What the hindsight programme needs of one call. */
export interface CallShape {
  original_tokens: number;
  sent_tokens: number;
  /** Null when the call removed no pair that earlier calls kept. */
  first_edit_tokens: number | null;
}

const tokensOf = (chars: number): number => Math.round(chars / 4);

/** The shape of a call whose original body is `original` (JSON text `originalText`) and sent text `sentText`; `fresh` = result keys first removed here. */
export function callShape(provider: Provider, original: JsonObject, originalText: string, sent: JsonObject | null, sentText: string, fresh: readonly string[]): CallShape {
  const shape = { original_tokens: tokensOf(originalText.length), sent_tokens: tokensOf(sentText.length) };
  if (fresh.length === 0) return { ...shape, first_edit_tokens: null };
  const ids = new Set(fresh.map((k) => parseResultKey(k).id));
  const keptCalls = new Set(sent === null ? [] : toolCallsIn(provider, historyOf(provider, sent)).map((c) => c.id));
  const items = historyOf(provider, original);
  const lengths = items.map((item) => JSON.stringify(item).length);
  let before = originalText.length - lengths.reduce((s, n) => s + n, 0);
  for (let i = 0; i < items.length; i++) {
    const touched =
      toolCallsIn(provider, [items[i]!]).some((c) => ids.has(c.id) && !keptCalls.has(c.id)) || toolResultsIn(provider, [items[i]!]).some((r) => ids.has(r.id));
    if (touched) return { ...shape, first_edit_tokens: tokensOf(Math.max(0, before)) };
    before += lengths[i]!;
  }
  return { ...shape, first_edit_tokens: tokensOf(Math.max(0, before)) };
}
