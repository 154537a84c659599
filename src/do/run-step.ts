/**
 * One request's compaction step inside the session DO (shell over the pure core): records the
 * call (./session-calls.ts), builds the context from the session's state
 * (../core/policy/step-context.ts), consults an HTTP engine when configured (with its deadline;
 * failures count and mean no engine removals), runs `compact`, persists the ledger additions,
 * and returns the plan — with a step lease for the caller when one can be granted
 * (../core/policy/step-lease.ts). In measurement mode the same runs (the ledger evolves as if
 * compacting); the gateway applies the plan without forwarding it and reports what it would
 * have removed (SessionObject.reportOutcome counts measure_*).
 */
import { compact } from "../core/policy/compact";
import { mergeLedger } from "../core/policy/ledger";
import { stepContext } from "../core/policy/step-context";
import { foreignLeaseHeld, grantLease, mayGrantLease } from "../core/policy/step-lease";
import { loadLedger, saveAdditions } from "./ledger-sql";
import { beginCall, recordLeasedCall } from "./session-calls";
import type { SessionStore } from "./session-store";
import { stepOutputOf, type StepInput, type StepOutput } from "./step-types";
import { stepVerdicts } from "./precompute-verdicts";

/** Everything runStep needs from its host. */
export interface StepDeps {
  store: SessionStore;
  sql: SqlStorage;
  env: Record<string, unknown>;
  fetch?: typeof fetch;
}

/** Runs one step and flushes the store; never throws for well-formed input (engine failures are counted, not thrown). */
export async function runStep(deps: StepDeps, input: StepInput): Promise<StepOutput> {
  const { store, sql } = deps;
  const { view, config, now_ms } = input;
  // The caller's leased calls not reported yet come first, as if they had been reported (at this request's time).
  for (const call of input.leased_calls ?? []) recordLeasedCall(store, sql, call, now_ms);
  const ledger = loadLedger(sql);
  const state = beginCall(store, { now_ms, model: view.model, provider: view.provider, config, ...(input.previous_activity_ms !== undefined ? { previous_activity_ms: input.previous_activity_ms } : {}) }, ledger);
  if (store.getMeta("disabled") === "1") {
    store.add("disabled_requests", 1);
    store.flush();
    return { disabled: true, tier: "none", skipped: null, plan: { actions: {} }, step: null, tokens_original: view.est_tokens, tokens_after: view.est_tokens, pairs_removed: 0, cost_estimate: 0, new_pair_ids: [], warnings: [] };
  }
  const ctx = stepContext(state, view, config, now_ms, input.correlation_id);
  const held = { holder: store.getMeta("lease_holder"), expires_ms: store.getMetaNumber("lease_expires_ms") };
  if (foreignLeaseHeld(held, input.lease_holder, now_ms)) {
    ctx.steps_held = true;
    store.add("steps_held", 1);
  }

  if (config.engine !== "heuristic") ctx.verdicts = await stepVerdicts(deps, config, ctx);

  const result = compact(ctx);
  const stepInfo = result.step ? { tokens_before: result.tokens_original, tokens_after: result.tokens_after, correlation_id: input.correlation_id } : null;
  saveAdditions(sql, result.ledger_additions, stepInfo);
  const out = stepOutputOf(result);
  store.setMeta("last_tier", out.tier);
  if (result.step) store.add(`steps_${out.tier}`, 1);
  if (result.memory) store.setMeta("memory", JSON.stringify(result.memory));
  // A lease only for the heuristic engine (an HTTP engine's verdicts come from the DO) and only when no other isolate holds one.
  if (mayGrantLease(config, input.lease_holder, ctx.steps_held === true)) {
    const lease = grantLease(input.lease_holder, now_ms, config, input.mode, { calls: state.calls, last_activity_ms: now_ms, ledger: mergeLedger(ledger, result.ledger_additions) });
    store.setMeta("lease_holder", lease.holder);
    store.setMeta("lease_expires_ms", lease.expires_ms);
    out.lease = lease;
  }
  store.flush();
  return out;
}
