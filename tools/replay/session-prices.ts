/**
 * The prices the emulator bills a session's model at (pure), for the report: USD per million
 * tokens of uncached input, cache read, cache write (5-minute TTL; OpenAI: every write) and
 * output. Source: src/core/cost/prices.ts through the emulator's own adapters
 * (tools/emulator/shared/prices.ts), so the figures shown are the ones billed. `known: false`
 * when the model is not in the table and the provider's default row was assumed.
 */
import { anthropicPrice, openaiPrice } from "../emulator/shared/prices";
import type { Provider } from "./types";

/** Assumed prices of one session's model, USD per 10^6 tokens. */
export interface AssumedPrices {
  model: string;
  input_per_mtok: number;
  cache_read_per_mtok: number;
  cache_write_per_mtok: number;
  output_per_mtok: number;
  /** False when the model is unknown and the default row was used. */
  known: boolean;
}

/** Prices the emulator bills `model` at under `provider`. */
export function assumedPrices(provider: Provider, model: string): AssumedPrices {
  if (provider === "anthropic") {
    const p = anthropicPrice(model);
    return { model, input_per_mtok: p.input, cache_read_per_mtok: p.cacheRead, cache_write_per_mtok: p.input * p.write5mRatio, output_per_mtok: p.output, known: p.known };
  }
  const p = openaiPrice(model);
  return { model, input_per_mtok: p.input, cache_read_per_mtok: p.cache === "none" ? p.input : p.cachedInput, cache_write_per_mtok: p.cacheWrite, output_per_mtok: p.output, known: p.known };
}

/** "claude-sonnet-4-5 — input 3.00, cache read 0.30, cache write 3.75, output 15.00" (+ a note when assumed). */
export function describePrices(p: AssumedPrices): string {
  const f = (x: number) => x.toFixed(2);
  return `${p.model} — input ${f(p.input_per_mtok)}, cache read ${f(p.cache_read_per_mtok)}, cache write ${f(p.cache_write_per_mtok)}, output ${f(p.output_per_mtok)}${p.known ? "" : " (model not in the price table: provider default assumed)"}`;
}
