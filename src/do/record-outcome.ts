/**
 * What the session does with the gateway's outcome report after a forward (shell over the SQL
 * store, shared by the session DO and the replay's in-process host): rolls back a step that was
 * not forwarded (and forgets its held-back pairs, ./restores.ts, unless its edit was forwarded),
 * keeps the summaries the gateway wrote (level rewrite: ./summary-ledger.ts),
 * counts the outcome, adds the token figures and their estimated USD value, and appends a
 * `calls` row. `tokens_original` / `tokens_sent` are the estimator's counts;
 * `tokens_saved` (and measurement mode's `measure_tokens`) are calibrated to the provider's
 * counts once the session has an answer (../core/tokens/calibrate.ts calibrateRemoved). Counts
 * and sizes only (DESIGN invariant 7), but for the summaries' text at level rewrite. The caller flushes the store (one flush for a whole batch
 * of reports).
 */
import { findModelPrice } from "../core/cost/find-model-price";
import type { ModelPrice } from "../core/cost/prices";
import type { Provider } from "../core/view/types";
import { rollbackStep } from "./ledger-sql";
import { forgetRestores } from "./restores";
import { recordSummaries } from "./summary-ledger";
import { loadCalibration } from "./calibration-store";
import { calibrateRemoved } from "../core/tokens/calibrate";
import type { SessionStore } from "./session-store";
import type { Outcome, OutcomeRecorded, OutcomeReport } from "../session/step-types";

/** Outcomes counted under their own name; any other outcome is a fail-open reason. `native_not_applied`: ../usage/settle-native.ts. */
const OUTCOMES: ReadonlySet<Outcome> = new Set<Outcome>(["compacted", "unchanged", "measured", "native_not_applied"]);

/**
 * Records `r` at `now_ms` (epoch ms: the DO's clock, or the replay's virtual clock). Returns what
 * was recorded (calls so far, tokens and USD saved by this request) for the global index.
 */
export function recordOutcome(store: SessionStore, sql: SqlStorage, r: OutcomeReport, now_ms: number): OutcomeRecorded {
  const s = store;
  if (r.rollback_step !== null) rollbackStep(sql, r.rollback_step);
  // After the rollback: a rolled-back step's host entry is gone, its summary is only counted.
  if (r.summaries !== undefined) recordSummaries(s, sql, r.summaries);
  if (r.outcome !== "compacted") forgetRestores(s);
  s.add(OUTCOMES.has(r.outcome) ? r.outcome : `fail_open_${r.outcome}`, 1);
  // Saved tokens as the provider would count them (../core/tokens/calibrate.ts); the estimates before the first answer.
  const calibration = loadCalibration(s);
  const saved = calibrateRemoved(calibration, Math.max(0, r.tokens_original - r.tokens_sent));
  s.add("tokens_original", r.tokens_original);
  s.add("tokens_sent", r.tokens_sent);
  s.add("tokens_saved", saved);
  const price = sessionPrice(s);
  const usdPerToken = effectiveInputPrice(s, price) / 1e6;
  s.add("usd_saved", saved * usdPerToken);
  if (r.would_send !== null) {
    // Measurement mode (DESIGN §8): what the edit would have removed; counts only, no text.
    const would = calibrateRemoved(calibration, Math.max(0, r.tokens_original - r.would_send));
    s.add("measure_requests", 1);
    s.add("measure_pairs", r.pairs_removed);
    s.add("measure_tokens", would);
    s.add("measure_usd", would * usdPerToken);
  }
  if (r.pairs_removed > 0 && r.outcome === "compacted") s.add("pairs_removed", r.pairs_removed);
  const seq = s.getMetaNumber("call_seq") + 1;
  s.setMeta("call_seq", seq);
  sql.exec(
    "INSERT INTO calls (seq, at_ms, tokens_original, tokens_sent, tier, outcome) VALUES (?, ?, ?, ?, ?, ?)",
    seq, now_ms, r.tokens_original, r.tokens_sent, r.tier, r.outcome,
  );
  return { calls: s.getMetaNumber("calls"), tokens_saved: saved, usd_saved: saved * usdPerToken };
}

/** Prices of the session's model (meta `model` / `provider`, as the last step saw them): src/core/cost/prices.ts. */
export function sessionPrice(s: SessionStore): ModelPrice {
  return findModelPrice(s.getMeta("model") || null, (s.getMeta("provider") || "anthropic") as Provider).price;
}

/** USD per input token actually paid in this session (reported usage), else the cache-read price (conservative). */
function effectiveInputPrice(s: SessionStore, price: { input_per_mtok: number; cache_read_per_mtok: number; cache_write_multiplier: number }): number {
  const c = s.counterValues(["usage_input_tokens", "usage_cache_read_input_tokens", "usage_cache_creation_input_tokens"]);
  const inp = c.usage_input_tokens!, rd = c.usage_cache_read_input_tokens!, wr = c.usage_cache_creation_input_tokens!;
  const total = inp + rd + wr;
  if (total === 0) return price.cache_read_per_mtok;
  return (inp * price.input_per_mtok + rd * price.cache_read_per_mtok + wr * price.input_per_mtok * price.cache_write_multiplier) / total;
}
