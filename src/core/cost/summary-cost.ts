/**
 * The measured USD cost of one summariser call (pure): the tokens it read at the input price and
 * the tokens it wrote at the output price, prices per 10^6 tokens. This is the real counterpart
 * of `summaryRequestCost` (./net-benefit.ts, an estimate made before the call) and enters the
 * cost model as the step's `request_cost_usd` (term ③).
 */
import { matchPriceRow } from "./find-model-price";

/** USD per 10^6 tokens, read and written. */
export interface TokenPrice {
  input_per_mtok: number;
  output_per_mtok: number;
}

/** Where a summary's price came from: the config, the price table row of the model, or nowhere. */
export type PriceSource = "configured" | "price_table" | "unpriced";

/** USD of `input_tokens` read and `output_tokens` written at `price`. */
export function tokenCostUsd(input_tokens: number, output_tokens: number, price: TokenPrice): number {
  return (input_tokens * price.input_per_mtok + output_tokens * price.output_per_mtok) / 1_000_000;
}

/**
 * The price of a summariser model: the configured one when both prices are set, else the price
 * table row of `model` (src/core/cost/prices.ts, longest matching prefix), else unpriced
 * (a local model server: cost 0, reported as `unpriced` so the operator can set a price).
 */
export function summarizerPrice(model: string | null, configured: { input_per_mtok: number | null; output_per_mtok: number | null }): { price: TokenPrice; source: PriceSource } {
  if (configured.input_per_mtok !== null && configured.output_per_mtok !== null) {
    return { price: { input_per_mtok: configured.input_per_mtok, output_per_mtok: configured.output_per_mtok }, source: "configured" };
  }
  const row = model === null ? null : matchPriceRow(model);
  if (row !== null) return { price: { input_per_mtok: row.input_per_mtok, output_per_mtok: row.output_per_mtok }, source: "price_table" };
  return { price: { input_per_mtok: 0, output_per_mtok: 0 }, source: "unpriced" };
}
