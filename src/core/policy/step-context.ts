/**
 * The TierContext of one request from the session's state (pure), for the session DO's step
 * (src/do/run-step.ts, state read from SQL) and the replay's in-process host:
 *
 * - turn_count = the view's turn count + 1 (this request's model call);
 * - context_pct_used = view.est_tokens, calibrated (../tokens/calibrate.ts), / the model's
 *   context window (src/core/cost/prices.ts);
 * - idle_seconds = seconds since the previous activity, at least `config.idle_seconds` when the
 *   idle alarm fired since (the provider cache has expired: DESIGN §3);
 * - expected_remaining_calls from the session's calls (src/core/cost/estimate-remaining-calls.ts).
 */
import { COST_DEFAULTS } from "../cost/cost-defaults";
import { estimateRemainingCalls } from "../cost/estimate-remaining-calls";
import { findModelPrice, windowWithBetas } from "../cost/find-model-price";
import { MODEL_PRICES } from "../cost/prices";
import type { StepFacts } from "../facts/step-facts";
import { calibrate, type Calibration } from "../tokens/calibrate";
import type { Ledger } from "./ledger";
import type { CoreConfig, TierContext } from "./types";

/** What a step reads of the session besides the request. */
export interface SessionStepState {
  /** Model calls of the session including this one (≥ 1). */
  calls: number;
  /** Epoch ms of the previous activity; null for the session's first request. */
  last_activity_ms: number | null;
  /** The idle alarm fired since the previous activity. */
  idle: boolean;
  /** The complete alarm fired (the session_memory tier fires). */
  complete: boolean;
  /** The session's ledger before this request. */
  ledger: Ledger;
  /** The session's estimator calibration (../tokens/calibrate.ts); absent or no answers: estimates as they are. */
  calibration?: Calibration;
}

/** The context `compact` gets for `view` at `now_ms` (epoch ms) under `state` and `config`. */
export function stepContext(state: SessionStepState, view: StepFacts, config: CoreConfig, now_ms: number, correlation_id: string): TierContext {
  const idleRaw = state.last_activity_ms === null ? 0 : Math.max(0, (now_ms - state.last_activity_ms) / 1000);
  const { price } = findModelPrice(view.model, view.provider, MODEL_PRICES);
  return {
    view,
    ledger: state.ledger,
    pressure: {
      turn_count: view.turn_count + 1,
      context_pct_used: calibrate(state.calibration, view.est_tokens) / windowWithBetas(price, view.betas),
      idle_seconds: state.idle ? Math.max(idleRaw, config.idle_seconds) : idleRaw,
      session_complete: state.complete,
    },
    config,
    prices: MODEL_PRICES,
    now_ms,
    expected_remaining_calls: estimateRemainingCalls(state.calls, COST_DEFAULTS.baseline_remaining_calls),
    correlation_id,
    ...(state.calibration ? { calibration: state.calibration } : {}),
  };
}
