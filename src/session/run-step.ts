/**
 * One request's compaction step inside the session (shell over the pure core, DESIGN §1): records
 * the call (count, times, model), builds the context from the session's state
 * (../core/policy/step-context.ts: R from the deployment's table the gateway sent, avg from the
 * session's request sizes), consults an HTTP engine when configured (./engine-verdicts.ts, with
 * its deadline; failures count and mean no engine removals; its reported cost prices the step),
 * runs `compact`, writes the trace line of a selected tier (../core/trace/record-tier-event.ts),
 * persists the ledger additions (./compaction-ledger.ts), hands the step to the observers, and
 * returns the plan. In measurement mode the same runs (the ledger evolves as if compacting); the
 * gateway applies the plan without forwarding it. With `memory_inject` it also returns the
 * session's memory block, claimed from the project's memory on the first call only, and only
 * when the block can be forwarded (compact mode, the spliced mechanism, a place for it).
 */
import type { CompactionConfig } from "../config/schema";
import { memoryInjectOn } from "../config/memory-inject-on";
import { compact } from "../core/policy/compact";
import { decodeStepFacts } from "../core/facts/wire-facts";
import type { StepFacts } from "../core/facts/step-facts";
import { stepContext } from "../core/policy/step-context";
import { nextCompactionState, viewFromCompaction } from "../core/policy/native-compaction";
import { resolveMechanism } from "../core/policy/resolve-mechanism";
import { disabledOutput, stepOutputOf } from "../core/policy/step-output";
import { renderMemoryBlock } from "../core/memory/render-memory-block";
import { estimateTokens } from "../core/tokens/estimate";
import { consoleTrace, recordTierEvent, type TraceSink } from "../core/trace/record-tier-event";
import { loadLedger, saveAdditions } from "./compaction-ledger";
import type { StepInput, StepOutput } from "./contract";
import { stepVerdicts } from "./engine-verdicts";
import { DISABLED, LAST_PREFIX, MEMORY, RECORD, SERVER_MANAGED, SERVER_MANAGED_TYPE, type LastPrefix, type SessionRecord } from "./session-record";
import type { ProjectMemoryPort, SessionObserver, StateTx } from "./state";

/** What a step needs from its host. */
export interface StepDeps {
  env: Record<string, unknown>;
  fetch?: typeof fetch;
  /** Where the step's trace line goes; default the Worker log. */
  trace?: TraceSink;
  /** The project's memory (`memory_inject` claims from it); absent: no injection. */
  memory?: ProjectMemoryPort;
  observers: readonly SessionObserver[];
}

/** Estimated tokens of the session's stepped requests (the distortion term's avg before any usage report). */
const ESTIMATED_TOKENS = "request_tokens_estimated";

/** Records the call in the session's record (the state it is decided under is the one before). */
function beginCall(tx: StateTx, facts: StepFacts, input: StepInput, config_hash: string, compaction: SessionRecord["native_compaction"]): SessionRecord {
  const before = tx.get(RECORD);
  tx.set(RECORD, {
    ...before,
    session_id: before.session_id ?? input.session_id,
    calls: before.calls + 1,
    first_seen_ms: before.first_seen_ms ?? input.now_ms,
    last_activity_ms: input.now_ms,
    idle: false,
    complete: false,
    model: facts.model,
    provider: facts.provider,
    config_hash,
    native_compaction: compaction,
  });
  if (compaction === "dropped" && before.native_compaction !== "dropped") tx.add("native_compaction_dropped", 1);
  // Operators' view of the step calls (the metrics' request counts read it).
  tx.add("requests", 1);
  return before;
}

/**
 * The facts the step decides on once the provider manages the session's history (SERVER_MANAGED):
 * a compaction the session did not cause is recorded on its first request (counted
 * `server_managed_recorded`), and every later request carries its `server_managed`, so the core
 * stands aside on it (../core/policy/take-step.ts) even without the block.
 */
function serverManagedFacts(tx: StateTx, facts: StepFacts, call: number): StepFacts {
  const recorded = tx.get(SERVER_MANAGED);
  if (recorded !== null) return facts.server_managed === null ? { ...facts, server_managed: recorded.type } : facts;
  if (facts.server_managed === SERVER_MANAGED_TYPE) {
    tx.set(SERVER_MANAGED, { type: SERVER_MANAGED_TYPE, since_call: call });
    tx.add("server_managed_recorded", 1);
  }
  return facts;
}

/** Stores this request's prefix and returns the previous one. */
function swapLastPrefix(tx: StateTx, facts: StepFacts, now_ms: number): LastPrefix | null {
  const previous = tx.get(LAST_PREFIX);
  if (facts.prefix !== null) tx.set(LAST_PREFIX, { at_ms: now_ms, prefix: facts.prefix, message_tokens: facts.messages.map((m) => m.est_tokens), est_tokens: facts.est_tokens });
  return previous;
}

/**
 * Runs one step of `input` under `config` (hash `config_hash`). Never throws for well-formed
 * input (engine failures are counted, not thrown). Returns the plan and the facts it decided on
 * (kept by the session, in memory only, for the idle alarm's precomputation).
 */
export async function runStep(tx: StateTx, deps: StepDeps, input: StepInput, config: CompactionConfig, config_hash: string): Promise<{ out: StepOutput; facts: StepFacts }> {
  const now_ms = input.now_ms;
  // A history starting at Sluice's own server-side compaction block is read from that block on.
  const received = decodeStepFacts(input.facts);
  const compaction = nextCompactionState(tx.get(RECORD).native_compaction, received);
  const ledger = loadLedger(tx);
  const before = beginCall(tx, received, input, config_hash, compaction);
  const call = before.calls + 1;
  const facts = serverManagedFacts(tx, viewFromCompaction(received, compaction), call);
  const previous = swapLastPrefix(tx, facts, now_ms);
  const event = { facts, previous, call, now_ms, mode: input.mode, correlation_id: input.correlation_id, config, project_key: input.project_key, before: ledger, engine_wait_ms: null, engine_cost_usd: 0 };
  if (tx.get(DISABLED)) {
    for (const o of deps.observers) o.afterStep?.(tx, { ...event, result: null });
    tx.add("disabled_requests", 1);
    return { out: disabledOutput(facts.est_tokens), facts };
  }
  const sizes = tx.counterValues(["usage_input_tokens", "usage_cache_read_input_tokens", "usage_cache_creation_input_tokens", "usage_reports", ESTIMATED_TOKENS]);
  const request_sizes = {
    reported_tokens: sizes.usage_input_tokens + sizes.usage_cache_read_input_tokens + sizes.usage_cache_creation_input_tokens,
    reports: sizes.usage_reports,
    estimated_tokens: sizes[ESTIMATED_TOKENS],
    estimated_requests: before.calls,
  };
  const calibration = before.calibration;
  const state = { calls: call, last_activity_ms: before.last_activity_ms, idle: before.idle, complete: before.complete, ledger, request_sizes, calibration };
  const ctx = stepContext(state, facts, config, now_ms, input.correlation_id, input.remaining_calls_table);
  ctx.native_compaction = compaction;
  tx.add(ESTIMATED_TOKENS, facts.est_tokens);

  let engine_wait_ms: number | null = null;
  if (config.engine !== "heuristic") {
    const t0 = Date.now();
    const answer = await stepVerdicts({ tx, env: deps.env, fetch: deps.fetch }, config, ctx);
    engine_wait_ms = Date.now() - t0;
    if (answer !== undefined) {
      ctx.verdicts = answer.verdicts;
      ctx.engine_cost_usd = answer.cost_usd;
    }
  }

  const result = compact(ctx);
  if (result.step !== null || result.skipped !== null) recordTierEvent(deps.trace ?? consoleTrace, result, input.session_id);
  const out = stepOutputOf(result);
  saveAdditions(tx, result.ledger_additions, result.step ? { tokens_before: result.tokens_original, tokens_after: result.tokens_after, correlation_id: input.correlation_id, terms: out.terms } : null);
  for (const o of deps.observers) o.afterStep?.(tx, { ...event, result, engine_wait_ms, engine_cost_usd: ctx.engine_cost_usd ?? 0 });
  const record = tx.get(RECORD);
  if (out.native !== undefined && record.provider_cleared !== null) out.provider_cleared = record.provider_cleared;
  if (calibration.answers > 0) out.calibration = calibration;
  tx.update(RECORD, { last_tier: out.tier });
  if (result.step) tx.add(`steps_${out.tier}`, 1);
  if (result.memory) tx.set(MEMORY, result.memory);
  const block = await memoryBlock(tx, deps.memory, input, config, facts, call);
  if (block !== null) {
    out.memory_block = block.text;
    if (block.claimed) out.memory_block_claimed = true;
  }
  return { out, facts };
}

/**
 * `memory_inject` (DESIGN §7, level `rewrite`): the block this call carries — the kept one while
 * the config asks for it, or on the session's first call, when the block can go (compact mode,
 * the spliced mechanism — the session's, by its model — and a place in the request), the
 * rendering of its project's newest map, claimed once (one DO-to-DO call on that call only) and
 * kept in the record so every later call carries the identical bytes at the identical place.
 * Null: none. Counters: `memory_injections`, `memory_block_tokens`, `memory_inject_errors` (the
 * claim failed: no block, the call goes on).
 */
async function memoryBlock(tx: StateTx, source: ProjectMemoryPort | undefined, input: StepInput, config: CompactionConfig, facts: StepFacts, call: number): Promise<{ text: string; claimed: boolean } | null> {
  if (!memoryInjectOn(config)) return null;
  const kept = tx.get(RECORD).memory_block;
  if (kept !== null) return { text: kept, claimed: false };
  const can_claim = input.memory_placeable === true && input.mode === "compact" && resolveMechanism(config.mechanism, facts.provider, facts.model) === "splice";
  if (call !== 1 || !can_claim || input.project_key === undefined || source === undefined) return null;
  let entry;
  try {
    entry = await source(input.project_key).claim(input.session_id, input.now_ms);
  } catch {
    tx.add("memory_inject_errors", 1);
    return null;
  }
  if (entry === null) return null;
  const text = renderMemoryBlock(entry.tier_map);
  tx.update(RECORD, { memory_block: text });
  tx.add("memory_injections", 1);
  tx.add("memory_block_tokens", estimateTokens(text));
  return { text, claimed: true };
}
