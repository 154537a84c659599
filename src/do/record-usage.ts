/**
 * What the session does with a call's provider-reported usage (shell over the SQL store): adds
 * the usage totals, the estimator calibration pair (our estimate of what was sent vs what the
 * provider counted), folds the answer into the session's calibration
 * (../core/tokens/calibrate.ts, stored by ./calibration-store.ts) and adds the call's USD cost at
 * the session model's prices. Counts only (DESIGN invariant 7). The caller flushes the store.
 */
import { sessionPrice } from "./record-outcome";
import type { Usage } from "../usage/extract-usage";
import type { SessionStore } from "./session-store";
import { foldAnswer } from "../core/tokens/calibrate";
import { loadCalibration, saveCalibration } from "./calibration-store";

/** The estimates of one forwarded call, tokens: its body as the client sent it, and as forwarded. */
export interface CallEstimates {
  est_original: number;
  est_sent: number;
}

/**
 * Records usage `u` (tokens) of one call with estimates `est`, at `now_ms` (epoch ms). Cost
 * (USD) = Σ tokens × the model's price per token (src/core/cost/prices.ts), cache writes at the
 * provider's write multiplier.
 */
export function recordUsage(s: SessionStore, u: Usage, est: CallEstimates, now_ms: number): void {
  const reported = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
  s.add("usage_input_tokens", u.input_tokens);
  s.add("usage_cache_read_input_tokens", u.cache_read_input_tokens);
  s.add("usage_cache_creation_input_tokens", u.cache_creation_input_tokens);
  s.add("usage_output_tokens", u.output_tokens);
  s.add("calibration_estimated", est.est_sent);
  s.add("calibration_reported", reported);
  saveCalibration(s, foldAnswer(loadCalibration(s), { ...est, reported }));
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
