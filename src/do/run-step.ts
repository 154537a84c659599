/**
 * One request's compaction step inside the session DO (shell over the pure core): builds the
 * budget pressure from the session's state, consults an HTTP engine when configured (with its
 * deadline; failures count and mean no engine removals), runs `compact`, persists the ledger
 * additions, and returns the plan. In measurement mode the same runs (the ledger evolves as if
 * compacting); the gateway applies the plan without forwarding it and reports what it would
 * have removed (SessionObject.reportOutcome counts measure_*).
 */
import { compact } from "../core/policy/compact";
import { estimateRemainingCalls } from "../core/cost/estimate-remaining-calls";
import { COST_DEFAULTS } from "../core/cost/cost-defaults";
import { findModelPrice } from "../core/cost/find-model-price";
import { MODEL_PRICES } from "../core/cost/prices";
import type { CoreConfig, TierContext } from "../core/policy/types";
import { loadLedger, saveAdditions } from "./ledger-sql";
import type { SessionStore } from "./session-store";
import type { StepInput, StepOutput } from "./step-types";
import { stepVerdicts } from "./precompute-verdicts";

/** Everything runStep needs from its host. */
export interface StepDeps {
  store: SessionStore;
  sql: SqlStorage;
  env: Record<string, unknown>;
  fetch?: typeof fetch;
}

/** Counts a removal action. */
const isRemoval = (kind: string) => kind !== "keep";

/** Runs one step and flushes the store; never throws for well-formed input (engine failures are counted, not thrown). */
export async function runStep(deps: StepDeps, input: StepInput): Promise<StepOutput> {
  const { store, sql } = deps;
  const { view, config, now_ms } = input;
  const calls = store.getMetaNumber("calls") + 1;
  const last = store.getMeta("last_activity_ms");
  const idleRaw = last === null ? 0 : Math.max(0, (now_ms - Number(last)) / 1000);
  const complete = store.getMeta("complete") === "1";
  // The idle alarm fired since the last activity: the provider cache has expired (DESIGN §3).
  const idleSeconds = store.getMeta("idle") === "1" ? Math.max(idleRaw, config.idle_seconds) : idleRaw;
  store.setMeta("calls", calls);
  store.setMeta("last_activity_ms", now_ms);
  store.setMeta("model", view.model ?? "");
  store.setMeta("provider", view.provider);
  store.setMeta("complete", 0);
  store.setMeta("idle", 0);
  store.setMeta("config", JSON.stringify(config));
  if (store.getMeta("first_seen_ms") === null) store.setMeta("first_seen_ms", now_ms);
  store.add("requests", 1);

  const disabled = store.getMeta("disabled") === "1";
  const ledger = loadLedger(sql);
  const { price } = findModelPrice(view.model, view.provider, MODEL_PRICES);
  const coreConfig: CoreConfig = config;
  const ctx: TierContext = {
    view,
    ledger,
    pressure: {
      turn_count: view.turn_count + 1,
      context_pct_used: view.est_tokens / price.context_window,
      idle_seconds: idleSeconds,
      session_complete: complete,
    },
    config: coreConfig,
    prices: MODEL_PRICES,
    now_ms,
    expected_remaining_calls: estimateRemainingCalls(calls, COST_DEFAULTS.baseline_remaining_calls),
    correlation_id: input.correlation_id,
  };
  if (disabled) {
    store.add("disabled_requests", 1);
    store.flush();
    return { disabled: true, tier: "none", skipped: null, plan: { actions: {} }, step: null, tokens_original: view.est_tokens, tokens_after: view.est_tokens, pairs_removed: 0, cost_estimate: 0, new_pair_ids: [], warnings: [] };
  }

  if (config.engine !== "heuristic") ctx.verdicts = await stepVerdicts(deps, config, ctx);

  const result = compact(ctx);
  const stepInfo = result.step ? { tokens_before: result.tokens_original, tokens_after: result.tokens_after, correlation_id: input.correlation_id } : null;
  saveAdditions(sql, result.ledger_additions, stepInfo);
  const pairsRemoved = Object.values(result.plan.actions).filter((a) => isRemoval(a.kind)).length;
  // The selected tier: a tier that refused a step reports "none" in its result, with the reason.
  const tier = result.skipped?.tier ?? result.tier;
  store.setMeta("last_tier", tier);
  if (result.step) store.add(`steps_${tier}`, 1);
  if (result.memory) store.setMeta("memory", JSON.stringify(result.memory));
  store.flush();
  return {
    disabled: false,
    tier,
    skipped: result.skipped?.reason ?? null,
    plan: result.plan,
    step: result.step?.step ?? null,
    tokens_original: result.tokens_original,
    tokens_after: result.tokens_after,
    pairs_removed: pairsRemoved,
    cost_estimate: result.cost_estimate,
    new_pair_ids: result.step?.pair_ids ?? [],
    warnings: result.warnings,
  };
}
