/**
 * What the session does with a call's provider-reported usage (shell over the SQL store): adds
 * the usage totals, the estimator calibration pair (our estimate of what was sent vs what the
 * provider counted) and the call's USD cost at the session model's prices. Counts only
 * (DESIGN invariant 7). The caller flushes the store.
 */
import { sessionPrice } from "./record-outcome";
import type { Usage } from "../usage/extract-usage";
import type { SessionStore } from "./session-store";

/**
 * Records usage `u` (tokens) of one call whose forwarded body we estimated at
 * `estimated_input_tokens`, at `now_ms` (epoch ms). Cost (USD) = Σ tokens × the model's price
 * per token (src/core/cost/prices.ts), cache writes at the provider's write multiplier.
 */
export function recordUsage(s: SessionStore, u: Usage, estimated_input_tokens: number, now_ms: number): void {
  s.add("usage_input_tokens", u.input_tokens);
  s.add("usage_cache_read_input_tokens", u.cache_read_input_tokens);
  s.add("usage_cache_creation_input_tokens", u.cache_creation_input_tokens);
  s.add("usage_output_tokens", u.output_tokens);
  s.add("calibration_estimated", estimated_input_tokens);
  s.add("calibration_reported", u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens);
  s.add("usage_reports", 1);
  const price = sessionPrice(s);
  s.add(
    "usage_cost_usd",
    (u.input_tokens * price.input_per_mtok +
      u.cache_read_input_tokens * price.cache_read_per_mtok +
      u.cache_creation_input_tokens * price.input_per_mtok * price.cache_write_multiplier +
      u.output_tokens * price.output_per_mtok) / 1e6,
  );
  s.setMeta("last_activity_ms", Math.max(now_ms, s.getMetaNumber("last_activity_ms")));
}
