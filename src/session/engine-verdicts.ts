/**
 * HTTP engine verdicts for a step, and their idle-time precomputation (shell; DESIGN §6: the idle
 * alarm is "a good moment to precompute the next step, off the request path"). At the idle alarm
 * the DO asks the configured engine about every unlocked, not-excluded, undecided pair of the
 * last facts it got (held in memory only: no conversation text is stored) and keeps the verdicts
 * (ids, kinds, confidences — no text) in the slot `precomputed_verdicts`. The next request uses them
 * instead of calling the engine when they cover every pair it would have asked about, so it does
 * not wait on the engine; otherwise it calls the engine as usual. Used verdicts are cleared.
 */
import type { CompactionConfig } from "../config/schema";
import type { Verdicts } from "../core/engine/verdict";
import { reapplyLedger } from "../core/policy/ledger";
import { eligiblePairs, ledgerGuards } from "../core/policy/take-step";
import type { TierContext } from "../core/policy/types";
import type { PairFacts, StepFacts } from "../core/facts/step-facts";
import { buildEngineRequest } from "../engines/build-engine-request";
import { createEngine } from "../engines/create-engine";
import { engineFailureCounter } from "../engines/http-engine";
import { z } from "zod";
import type { Ledger } from "../core/policy/ledger";
import { defineSlot, type StateTx } from "./state";

/** The verdicts the idle alarm got, and the pair ids it asked about; null: none waiting. */
const PRECOMPUTED = defineSlot<{ ids: string[]; verdicts: Verdicts } | null>(
  "precomputed_verdicts",
  z.object({ ids: z.array(z.string()), verdicts: z.record(z.string(), z.object({ kind: z.enum(["drop_pair", "drop_result", "keep"]), confidence: z.number(), rule: z.string() })) }).nullable() as unknown as z.ZodType<{ ids: string[]; verdicts: Verdicts } | null>,
  () => null,
);

/** Host pieces the engine call needs: the unit of work, the env (engine keys by name), and a fetch (tests). */
export interface EngineDeps {
  tx: StateTx;
  env: Record<string, unknown>;
  fetch?: typeof fetch;
}

/** An HTTP engine's verdicts and what they cost, USD (the answer's `cost_usd`: ../engines/protocol.ts). */
export interface EngineVerdicts {
  verdicts: Verdicts;
  cost_usd: number;
}

/**
 * Asks the engine about `pairs`; undefined on any failure (counted as fail_open_engine_<reason>).
 * The reported cost is added to the session's `engine_cost_usd` counter.
 */
export async function askEngine(deps: EngineDeps, config: CompactionConfig, view: StepFacts, pairs: readonly PairFacts[]): Promise<EngineVerdicts | undefined> {
  const engine = createEngine(config, { env: deps.env, fetch: deps.fetch });
  if (engine.kind === "heuristic") return undefined;
  if (pairs.length === 0) return { verdicts: {}, cost_usd: 0 };
  const outcome = await engine.decide(buildEngineRequest(pairs, { model: config.model, head_chars: config.head_chars, turn_count: view.turn_count }));
  if (!outcome.ok) {
    deps.tx.add(`fail_open_${engineFailureCounter(outcome.reason)}`, 1);
    return undefined;
  }
  deps.tx.add("engine_calls", 1);
  if (outcome.cost_usd > 0) deps.tx.add("engine_cost_usd", outcome.cost_usd);
  const verdicts: Verdicts = {};
  for (const v of outcome.verdicts) verdicts[v.id] = { kind: v.verdict, confidence: v.confidence, rule: "none" };
  return { verdicts, cost_usd: outcome.cost_usd };
}

/** Pairs of `ctx.view` a step could edit, ignoring age when `anyAge` (precomputation covers pairs that age into eligibility). */
function candidates(ctx: Pick<TierContext, "view" | "ledger" | "config">, anyAge: boolean): PairFacts[] {
  const decided = new Set(Object.keys(reapplyLedger(ctx.view, ctx.ledger, ledgerGuards(ctx.config, ctx.view)).actions));
  const config = anyAge ? { ...ctx.config, preserve_recent_turns: 0 } : ctx.config;
  return eligiblePairs({ ...(ctx as TierContext), config }, decided);
}

/** At the idle alarm: asks the engine about every candidate of `view` and stores the verdicts. */
export async function precomputeVerdicts(deps: EngineDeps, config: CompactionConfig, view: StepFacts, ledger: Ledger): Promise<void> {
  if (config.engine === "heuristic") return;
  const pairs = candidates({ view, ledger, config }, true);
  const answer = await askEngine(deps, config, view, pairs);
  if (answer === undefined) return;
  deps.tx.set(PRECOMPUTED, { ids: pairs.map((p) => p.id), verdicts: answer.verdicts });
  deps.tx.add("engine_precomputed", 1);
}

/**
 * The verdicts for this request's step: the precomputed ones when they cover every pair the step
 * would ask about (no engine call on the request path; their cost was paid at the idle alarm, so
 * the step's decision prices them at 0: a sunk cost changes no decision), else a live engine call
 * with the cost its answer reported.
 */
export async function stepVerdicts(deps: EngineDeps, config: CompactionConfig, ctx: TierContext): Promise<EngineVerdicts | undefined> {
  const pairs = candidates(ctx, false);
  const pre = deps.tx.get(PRECOMPUTED);
  if (pre !== null) {
    deps.tx.set(PRECOMPUTED, null);
    const known = new Set(pre.ids);
    if (pairs.every((p) => known.has(p.id))) {
      deps.tx.add("engine_precomputed_used", 1);
      return { verdicts: pre.verdicts, cost_usd: 0 };
    }
  }
  return askEngine(deps, config, ctx.view, pairs);
}
