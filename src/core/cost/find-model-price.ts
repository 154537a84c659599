/**
 * Model → price row lookup (pure). Longest matching prefix of the model id wins, so dated ids
 * ("claude-opus-4-20250514", "gpt-4o-2024-08-06") resolve to their family row.
 */
import type { Provider } from "../view/types";
import { MODEL_PRICES, fallbackPrice, type ModelPrice } from "./prices";

/** Result of a lookup: the row and whether it is the seed fallback (a warning for the caller). */
export interface PriceLookup {
  price: ModelPrice;
  /** True when the model was unknown or absent and the seed fallback was used. */
  fallback: boolean;
}

/** Finds the price row of `model` (case-insensitive), or the seed fallback for `provider`. */
export function findModelPrice(model: string | null, provider: Provider, table: readonly ModelPrice[] = MODEL_PRICES): PriceLookup {
  const id = (model ?? "").toLowerCase();
  let best: ModelPrice | null = null;
  for (const row of table) {
    if (id.startsWith(row.prefix) && (best === null || row.prefix.length > best.prefix.length)) best = row;
  }
  return best === null || id === "" ? { price: fallbackPrice(provider), fallback: true } : { price: best, fallback: false };
}
