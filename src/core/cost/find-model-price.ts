/**
 * Model → price row lookup and context window (pure). The longest row prefix that ends at a
 * separator of the model id wins, so dated ids ("claude-opus-4-20250514", "gpt-4o-2024-08-06")
 * resolve to their family row and a dated Fable 5 id ("claude-fable-5-20260609") never lands on
 * the Fable 5.2 row ("claude-fable-5-2").
 */
import type { Provider } from "../view/types";
import { MODEL_PRICES, fallbackPrice, type ModelPrice } from "./prices";

/** Result of a lookup: the row and whether it is the seed fallback (a warning for the caller). */
export interface PriceLookup {
  price: ModelPrice;
  /** True when the model was unknown or absent and the seed fallback was used. */
  fallback: boolean;
}

/** Characters that may follow a row prefix in a model id: end, "-", ".", "@", ":", "[", "_". */
const SEPARATOR = /^(?:$|[-.@:[_])/;

/** The row whose prefix is the longest one matching `model` at a separator (case-insensitive), or null. */
export function matchPriceRow(model: string, table: readonly ModelPrice[] = MODEL_PRICES): ModelPrice | null {
  const id = model.toLowerCase();
  let best: ModelPrice | null = null;
  for (const row of table) {
    if (!id.startsWith(row.prefix) || !SEPARATOR.test(id.slice(row.prefix.length))) continue;
    if (best === null || row.prefix.length > best.prefix.length) best = row;
  }
  return best;
}

/** Finds the price row of `model` (case-insensitive), or the seed fallback for `provider`. */
export function findModelPrice(model: string | null, provider: Provider, table: readonly ModelPrice[] = MODEL_PRICES): PriceLookup {
  const best = model ? matchPriceRow(model, table) : null;
  return best === null ? { price: fallbackPrice(provider), fallback: true } : { price: best, fallback: false };
}

/**
 * Context window of `model` in tokens, given the request's `anthropic-beta` values (each header
 * value may hold several, comma-separated): the row's window, or the larger window of a beta the
 * row lists (e.g. Sonnet 4.5 with "context-1m-2025-08-07" → 1,000,000). Unknown model: the seed
 * fallback's 200,000.
 */
export function contextWindow(model: string | null, provider: Provider, betas: readonly string[] = []): number {
  return windowWithBetas(findModelPrice(model, provider).price, betas);
}

/** The context window of `price`'s model, tokens, extended by any beta in `betas` (values or comma-separated lists) that extends it. */
export function windowWithBetas(price: Pick<ModelPrice, "context_window" | "beta_windows">, betas: readonly string[]): number {
  const sent = new Set(betas.flatMap((b) => b.split(",")).map((b) => b.trim()));
  return price.beta_windows.reduce((w, b) => (sent.has(b.beta) ? Math.max(w, b.context_window) : w), price.context_window);
}
