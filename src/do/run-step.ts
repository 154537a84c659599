/**
 * One request's compaction step inside the session DO (shell over the pure core): records the
 * call (./session-calls.ts), builds the context from the session's state
 * (../core/policy/step-context.ts: R from the deployment's table the gateway sent, avg from the
 * session's request sizes), consults an HTTP engine when configured (with its deadline;
 * failures count and mean no engine removals; its reported cost prices the step), runs `compact`,
 * keeps a step's cost-model terms (./step-terms-sql.ts), writes the trace line of a
 * selected tier (one JSON line: ../core/trace/record-tier-event.ts), persists the ledger
 * additions, and returns the plan. In measurement mode the same runs (the ledger evolves as if
 * compacting); the gateway applies the plan without forwarding it and reports what it would
 * have removed (SessionObject.report counts measure_*). With `memory_inject` it also returns the
 * session's memory block (./memory-inject.ts), claimed on the first call only, and only when the
 * block can be forwarded (compact mode, not native, a place for it in the request).
 */
import { compact } from "../core/policy/compact";
import { decodeStepFacts } from "../core/facts/wire-facts";
import { noteMemoryDraft } from "./project-memory";
import { stepContext } from "../core/policy/step-context";
import { loadLedger, saveAdditions } from "./ledger-sql";
import { saveStepTerms } from "./step-terms-sql";
import type { RequestSizes } from "../core/cost/average-request-tokens";
import { loadCalibration } from "./calibration-store";
import { beginCall } from "./session-calls";
import { swapLastPrefix } from "./last-prefix";
import { noteCachePair, sluiceEditOf } from "./cache-breaks";
import { noteRestores } from "./restores";
import type { SessionStore } from "./session-store";
import type { StepInput, StepOutput } from "../session/step-types";
import { disabledOutput, stepOutputOf } from "../core/policy/step-output";
import type { ProviderCleared } from "../usage/settle-native";
import { stepVerdicts } from "./precompute-verdicts";
import { consoleTrace, recordTierEvent, type TraceSink } from "../core/trace/record-tier-event";
import { noteLedgerStep } from "./savings-ledger";
import { sessionMemoryBlock, type ProjectMemorySource } from "./memory-inject";
import { viewFromCompaction } from "../core/policy/native-compaction";
import { resolveMechanism } from "../core/policy/resolve-mechanism";
import { advanceCompactionState } from "./native-compaction-state";

/** Everything runStep needs from its host. */
export interface StepDeps {
  store: SessionStore;
  sql: SqlStorage;
  env: Record<string, unknown>;
  fetch?: typeof fetch;
  /** Where the step's trace line goes (../core/trace/record-tier-event.ts); default the Worker log. */
  trace?: TraceSink;
  /** Where `memory_inject` claims its project's tier map (./memory-inject.ts); absent: no injection. */
  memory?: ProjectMemorySource;
}

/** Meta key of what the provider did with the session's last native edit (../usage/settle-native.ts ProviderCleared, JSON). */
export const PROVIDER_CLEARED_META = "native_provider_cleared";

/** Counters of the session's estimated request sizes (the distortion term's avg before any usage report). */
const ESTIMATED_TOKENS = "request_tokens_estimated";
const ESTIMATED_REQUESTS = "requests_estimated";

/** What the session measured of its request sizes so far (../core/cost/average-request-tokens.ts), from its counters. */
function requestSizes(store: SessionStore): RequestSizes {
  const c = store.counterValues(["usage_input_tokens", "usage_cache_read_input_tokens", "usage_cache_creation_input_tokens", "usage_reports", ESTIMATED_TOKENS, ESTIMATED_REQUESTS]);
  return {
    reported_tokens: c.usage_input_tokens! + c.usage_cache_read_input_tokens! + c.usage_cache_creation_input_tokens!,
    reports: c.usage_reports!,
    estimated_tokens: c[ESTIMATED_TOKENS]!,
    estimated_requests: c[ESTIMATED_REQUESTS]!,
  };
}

/** Runs one step and flushes the store; never throws for well-formed input (engine failures are counted, not thrown). */
export async function runStep(deps: StepDeps, input: StepInput): Promise<StepOutput> {
  const { store, sql } = deps;
  const { config, now_ms } = input;
  // A history starting at Sluice's own server-side compaction block is read from that block on.
  const received = decodeStepFacts(input.facts);
  const compaction = advanceCompactionState(store, received);
  const facts = viewFromCompaction(received, compaction);
  const ledger = loadLedger(sql);
  const state = beginCall(store, { now_ms, model: facts.model, provider: facts.provider, config }, ledger);
  // The previous request's prefix, for the savings ledger (./savings-ledger.ts) and the cache diagnostics (./last-prefix.ts).
  const previous = swapLastPrefix(store, facts, now_ms);
  if (store.getMeta("disabled") === "1") {
    noteCachePair(store, sql, previous, facts, state.calls, now_ms, null);
    store.add("disabled_requests", 1);
    store.flush();
    return disabledOutput(facts.est_tokens);
  }
  const calibration = loadCalibration(store);
  const ctx = stepContext({ ...state, request_sizes: requestSizes(store), calibration }, facts, config, now_ms, input.correlation_id, input.remaining_calls_table);
  ctx.native_compaction = compaction;
  store.add(ESTIMATED_TOKENS, facts.est_tokens);
  store.add(ESTIMATED_REQUESTS, 1);

  let engineWaitMs: number | null = null;
  if (config.engine !== "heuristic") {
    const t0 = Date.now();
    const answer = await stepVerdicts(deps, config, ctx);
    engineWaitMs = Date.now() - t0;
    if (answer !== undefined) {
      ctx.verdicts = answer.verdicts;
      ctx.engine_cost_usd = answer.cost_usd;
    }
  }

  const result = compact(ctx);
  const restore = noteRestores(store, ledger, result, facts, state.calls, input.mode);
  noteCachePair(store, sql, previous, facts, state.calls, now_ms, sluiceEditOf(result, facts, input.mode), restore);
  if (result.step !== null || result.skipped !== null) recordTierEvent(deps.trace ?? consoleTrace, result, input.session_id);
  const stepInfo = result.step ? { tokens_before: result.tokens_original, tokens_after: result.tokens_after, correlation_id: input.correlation_id } : null;
  saveAdditions(sql, result.ledger_additions, stepInfo);
  if (result.step) saveStepTerms(sql, result.step.step, result.step.terms);
  noteLedgerStep(store, sql, { facts, previous, now_ms, mode: input.mode, correlation_id: input.correlation_id, before: ledger, result, engine_wait_ms: engineWaitMs, engine_cost_usd: ctx.engine_cost_usd ?? 0 });
  const out = stepOutputOf(result);
  const cleared = out.native !== undefined ? store.getMeta(PROVIDER_CLEARED_META) : null;
  if (cleared !== null) out.provider_cleared = JSON.parse(cleared) as ProviderCleared;
  if (calibration.answers > 0) out.calibration = calibration;
  store.setMeta("last_tier", out.tier);
  if (result.step) store.add(`steps_${out.tier}`, 1);
  if (result.memory) store.setMeta("memory", JSON.stringify(result.memory));
  noteMemoryDraft(store, facts, config, input.project_key);
  // First call only: one RPC to the project's MemoryObject, and only when the block can go
  // (compact mode, spliced not native, a place in the request); later calls read the kept block.
  // Native is the session's mechanism (its model), not only this step's: a none tier carries no `native`.
  const can_claim = input.memory_placeable === true && input.mode === "compact" && resolveMechanism(config.mechanism, facts.provider, facts.model) === "splice";
  const block = await sessionMemoryBlock(store, deps.memory, { config, project_key: input.project_key, session_id: input.session_id, now_ms, calls: state.calls, can_claim });
  if (block !== null) {
    out.memory_block = block.text;
    if (block.claimed) out.memory_block_claimed = true;
  }
  store.flush();
  return out;
}
