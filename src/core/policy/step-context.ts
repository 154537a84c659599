/**
 * The TierContext of one request from the session's state (pure), for the session DO's step
 * (src/session/run-step.ts, state read from SQL) and the replay's in-process host:
 *
 * - turn_count = the view's turn count + 1 (this request's model call);
 * - context_pct_used = view.est_tokens, calibrated (../tokens/calibrate.ts), / the model's
 *   context window (src/core/cost/prices.ts);
 * - idle_seconds = seconds since the previous activity, at least `config.idle_seconds` when the
 *   idle alarm fired since (the provider cache has expired: DESIGN §3);
 * - expected_remaining_calls from the session's calls and the deployment's session lengths when
 *   the gateway sent their table, at the calls so far (`callsSoFar`:
 *   src/core/cost/estimate-remaining-calls.ts);
 * - avg_request_tokens from the session's own request sizes (src/core/cost/average-request-tokens.ts).
 */
import { averageRequestTokens, type RequestSizes } from "../cost/average-request-tokens";
import { DEFAULTS } from "../../config/defaults";
import { callsSoFar, expectedRemainingCalls } from "../cost/estimate-remaining-calls";
import type { RemainingCallsTable } from "../cost/session-lengths";
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
  /** What the session measured of its request sizes before this request; absent: nothing yet. */
  request_sizes?: RequestSizes;
  /** The session's estimator calibration (../tokens/calibrate.ts); absent or no answers: estimates as they are. */
  calibration?: Calibration;
}

/** Request sizes of a session that has measured none. */
const NO_SIZES: RequestSizes = { reported_tokens: 0, reports: 0, estimated_tokens: 0, estimated_requests: 0 };

/**
 * The context `compact` gets for `view` at `now_ms` (epoch ms) under `state` and `config`;
 * `lengths` is the deployment's remaining-calls table (src/core/cost/session-lengths.ts), absent
 * when the gateway has none.
 */
export function stepContext(state: SessionStepState, view: StepFacts, config: CoreConfig, now_ms: number, correlation_id: string, lengths?: RemainingCallsTable | null): TierContext {
  const idleRaw = state.last_activity_ms === null ? 0 : Math.max(0, (now_ms - state.last_activity_ms) / 1000);
  const { price } = findModelPrice(view.model, view.provider, MODEL_PRICES);
  const remaining = expectedRemainingCalls(callsSoFar(state.calls, view.turn_count), lengths, config.min_remaining_calls ?? DEFAULTS.min_remaining_calls);
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
    expected_remaining_calls: remaining.remaining_calls,
    remaining_calls_source: remaining.source,
    avg_request_tokens: averageRequestTokens(state.request_sizes ?? NO_SIZES, view.est_tokens),
    correlation_id,
    ...(state.calibration ? { calibration: state.calibration } : {}),
  };
}
