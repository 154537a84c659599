/**
 * One request through a tier (pure): re-apply the ledger, ask the tier for candidate actions
 * on the pairs no step has decided yet, and take a new step only when it pays:
 *
 * 1. Re-apply the ledger (sticky decisions; DESIGN invariant 6). This always happens.
 * 2. Skip when the request (after step 1) is under `threshold_tokens`, or no candidates.
 *    Token gates (this one and `min_reduction`) compare counts calibrated by the session
 *    (ctx.calibration: ../tokens/calibrate.ts); the cost model reads the estimates.
 * 3. Enumerate cut points (never inside a tool exchange) and price each with the five-term
 *    net benefit; a cut must remove ≥ `min_reduction` of the request and keep ≥ the model's
 *    min keep ratio of the history.
 * 4. Take the best positive cut when the timing rule says now (./step-timing.ts: at once when the
 *    cache is cold or the context under pressure; warm, only once the cut's pairs have forgone
 *    savings worth its cache write — else skip as `gathering`), or skip. The result carries the
 *    whole plan and the ledger additions (first-seen times always; entries and a step record
 *    when a step was taken).
 * Under the native mechanism (./resolve-mechanism.ts) the candidates of step 3 are the
 * oldest-first prefix of ./native-prefix.ts, and the result carries `native` for the renderer.
 *
 * Cost-model inputs measured here: T = history tokens after step 1; V = request tokens outside
 * the history (system, tools), never below 0; avg = ctx.avg_request_tokens (the session's average
 * request size: src/core/cost/average-request-tokens.ts), else this request's estimate; c = steps
 * already in the ledger; R = ctx.expected_remaining_calls; P_cache, w and the cache TTL from the
 * request's cache regime (src/core/cost/cache-regime.ts: its markers' TTL, OpenAI's retention and
 * cache options, no caching at all); cache cold when idle_seconds ≥ that TTL; K from where the
 * cut's first edit leaves the cache readable (src/core/cost/cache-reach.ts: on Anthropic an old
 * edit rewrites from the last fixed breakpoint before it, not from the edit).
 */
import { COST_DEFAULTS, type CostParams } from "../cost/cost-defaults";
import { enumerateCutPoints, type CutCandidate } from "../cost/enumerate-cut-points";
import { cacheReach } from "../cost/cache-reach";
import { coveredIds, stepCandidates } from "./stretch-candidates";
import { findModelPrice, windowWithBetas } from "../cost/find-model-price";
import { cacheRegime, type CacheRegime } from "../cost/cache-regime";
import { netBenefit, type NetBenefit } from "../cost/net-benefit";
import type { ModelPrice } from "../cost/prices";
import type { EditPlan, PairAction } from "../plan/types";
import type { PairFacts, StepFacts } from "../facts/step-facts";
import { reapplyLedger, type LedgerAdditions, type LedgerEntry, type ReapplyGuards } from "./ledger";
import { cachedEnd, pairIsOld, protectedStart } from "./locate-boundaries";
import { messageTokensAfter, savedTokens } from "./estimate-savings";
import { SPLICE_ONLY_LOCKS, lockHolds, nativeCandidates } from "./native-prefix";
import { decideStepTiming, editableAgeCalls } from "./step-timing";
import { calibrate, calibrateRemoved } from "../tokens/calibrate";
import { nativeParamsFor, resolveMechanism } from "./resolve-mechanism";
import { TIER_COST_WEIGHT, type CoreConfig, type RemovalRule, type SkipReason, type Tier, type TierContext, type TierResult } from "./types";

/** A tier's proposal for one pair, and what decided it. */
export interface Proposal {
  pair: PairFacts;
  action: PairAction;
  rule: RemovalRule;
}

/** How a tier proposes actions: over the eligible (old, unlocked, not excluded, undecided) pairs. */
export type Propose = (ctx: TierContext, eligible: PairFacts[]) => Proposal[];

/** Options of a step. `gate: false` skips the cost model (session_memory at level rewrite). */
export interface StepOptions {
  gate: boolean;
}

/**
 * Resolved price row, the request's cache regime (../cost/cache-regime.ts: its own TTL and write
 * price, or no caching) and the cost parameters for this request: P_cache is what a later call
 * pays for a token it reads (the input price when nothing is cached), w the regime's write multiple.
 */
export function costParamsFor(ctx: TierContext): { price: ModelPrice; params: CostParams; regime: CacheRegime; fallback: boolean } {
  const { price, fallback } = findModelPrice(ctx.view.model, ctx.view.provider, ctx.prices);
  const regime = cacheRegime(price, ctx.view.prefix?.cache);
  const params: CostParams = {
    ...COST_DEFAULTS,
    ...ctx.cost_params,
    p_input: price.input_per_mtok,
    p_cache: regime.read_per_mtok,
    p_out: price.output_per_mtok,
    write_multiplier: regime.write_multiplier,
    context_window: windowWithBetas(price, ctx.view.betas),
  };
  return { price, params, regime, fallback };
}

/** The provider cache has lapsed (or there is none): idle at least the regime's TTL, so a step's rewrite costs no extra write. */
export function cacheCold(ctx: TierContext, regime: CacheRegime): boolean {
  return !regime.cached || ctx.pressure.idle_seconds >= regime.ttl_seconds;
}

/**
 * Pairs a new step may edit: old, unlocked, tool not excluded, no ledger decision. Under the
 * native mechanism the splice-only locks do not count (./native-prefix.ts).
 */
export function eligiblePairs(ctx: TierContext, decided: ReadonlySet<string>): PairFacts[] {
  const excluded = new Set(ctx.config.exclude_tools);
  const native = resolveMechanism(ctx.config.mechanism, ctx.view.provider, ctx.view.model) === "native";
  return ctx.view.pairs.filter(
    (p) => (native ? !lockHolds(p) : p.locked === null) && !excluded.has(p.tool_name) && !decided.has(p.id) && pairIsOld(ctx.view, p, ctx.config.preserve_recent_turns),
  );
}

/** The re-application guards of `config` for `view`: under the native mechanism the splice-only locks do not stop a re-application (./native-prefix.ts). */
export function ledgerGuards(config: CoreConfig, view: Pick<StepFacts, "provider" | "model">): ReapplyGuards {
  return nativeParamsFor(config, view) ? { ...config, ignored_locks: SPLICE_ONLY_LOCKS } : config;
}

/** Runs `propose` for `tier` and decides whether to take a step. */
export function takeStep(ctx: TierContext, tier: Tier, propose: Propose, options: StepOptions = { gate: true }): TierResult {
  const { view, ledger, config } = ctx;
  const { price, params, regime, fallback } = costParamsFor(ctx);
  const native = nativeParamsFor(config, view);
  const warnings: string[] = fallback ? [`price: unknown model ${JSON.stringify(view.model)}, seed prices used`] : [];
  const firstSeen: Record<string, number> = {};
  for (const p of view.pairs) if (ledger.first_seen[p.id] === undefined) firstSeen[p.id] = ctx.now_ms;
  const noStep = (base: EditPlan, tokens: number, reason: SkipReason | null): TierResult => ({
    tier: "none",
    tokens_before: tokens,
    tokens_after: tokens,
    cost_estimate: 0,
    plan: base,
    correlation_id: ctx.correlation_id,
    tokens_original: view.est_tokens,
    ledger_additions: { entries: [], first_seen: firstSeen, step: null },
    step: null,
    skipped: reason === null ? null : { tier, reason },
    memory: null,
    warnings,
    ...(native ? { native } : {}),
  });
  if (view.server_managed !== null) return noStep({ actions: {} }, view.est_tokens, "server_managed");

  // 1. Re-apply the ledger.
  const re = reapplyLedger(view, ledger, ledgerGuards(config, view));
  for (const [id, why] of Object.entries(re.skipped)) warnings.push(`ledger: ${id} not re-applied (${why})`);
  const base: EditPlan = { actions: { ...re.actions } };
  const msgTokens = messageTokensAfter(view, base);
  const historyTokens = msgTokens.reduce((s, t) => s + t, 0);
  const outsideHistory = Math.max(0, view.est_tokens - view.messages.reduce((s, m) => s + m.est_tokens, 0));
  const tokensBefore = outsideHistory + historyTokens;

  // 2. Gates and candidates.
  // The gates compare the provider's count as the session's calibration predicts it (../tokens/calibrate.ts).
  const calibratedBefore = calibrate(ctx.calibration, view.est_tokens, tokensBefore);
  if (options.gate && calibratedBefore < config.threshold_tokens) return noStep(base, tokensBefore, "under_threshold");
  const decided = new Set([...Object.keys(re.actions), ...Object.keys(re.skipped)]);
  const raw = propose(ctx, eligiblePairs(ctx, decided));
  // A stretch's pairs stay together whatever each saves alone (./stretch-candidates.ts).
  const covered = coveredIds(raw);
  const proposed = raw.filter((p) => p.action.kind !== "keep" && (p.action.kind === "summarize" || covered.has(p.pair.id) || savedTokens(p.pair, p.action) > 0));
  // Native: the provider clears oldest first, so the candidates are the prefix up to the first pair that must stay.
  const nativeShape = native ? nativeCandidates(ctx, re, new Set(proposed.map((p) => p.pair.id))) : null;
  // Every pair of the native prefix stays a candidate, even one too small to save anything: the provider clears oldest first, so skipping it would break the prefix.
  // A prefix pair the tier proposed keeps the tier's rule.
  const ruleOf = new Map(proposed.map((p) => [p.pair.id, p.rule]));
  const proposals = nativeShape ? nativeShape.proposals.map((p) => ({ ...p, rule: ruleOf.get(p.pair.id) ?? p.rule })) : proposed;
  if (proposed.length === 0 || proposals.length === 0) return noStep(base, tokensBefore, "no_candidates");

  // 3. Cut points, priced.
  const candidates = stepCandidates(proposals, config.summarizer ?? null);
  const byCandidate = new Map(candidates.map((c) => [c.pair_id, c]));
  const cutInput = {
    message_tokens: msgTokens,
    candidates,
    spans: view.pairs.map((p) => ({ call_message: p.call.message_index, result_message: p.result.message_index })),
    max_boundary: protectedStart(view, config.preserve_recent_turns),
    cached_end: cachedEnd(view),
    reach: cacheReach(price.prompt_cache, view.prefix?.cache, view.messages.length, outsideHistory),
  };
  const cuts = enumerateCutPoints(cutInput).map((cut) => ({ ...cut, pair_ids: cut.pair_ids.flatMap((id) => byCandidate.get(id)?.members ?? [id]) }));
  const situation = {
    remaining_calls: ctx.expected_remaining_calls,
    prior_steps: ledger.steps.length,
    avg_call_tokens: ctx.avg_request_tokens ?? view.est_tokens,
    cache_cold: cacheCold(ctx, regime),
  };
  let best: { cut: (typeof cuts)[number]; benefit: NetBenefit } | null = null;
  // The best-priced cut whatever its size, for the declined figures of a skip (TierResult.declined).
  let bestAny: { cut: (typeof cuts)[number]; benefit: NetBenefit } | null = null;
  let sawReduction = false;
  for (const cut of cuts) {
    if (historyTokens - cut.removed_tokens < params.min_keep_ratio * historyTokens) continue;
    if (nativeShape && !nativeShape.accept(cut.pair_ids)) continue;
    // Term ③: the engine's answer, plus the summaries the cut's stretches need written.
    const summaryCost = cut.pair_ids.reduce((s, id) => s + (byCandidate.get(id)?.summary_cost_usd ?? 0), 0);
    const benefit = netBenefit(
      { history_tokens: historyTokens, removed_tokens: cut.removed_tokens, rewritten_tokens: cut.rewritten_tokens, request_cost_usd: (ctx.engine_cost_usd ?? 0) + summaryCost },
      situation,
      { ...params, prefix_tokens: outsideHistory, summary_tokens: 0 },
    );
    if (bestAny === null || benefit.net > bestAny.benefit.net) bestAny = { cut, benefit };
    if (options.gate && calibrateRemoved(ctx.calibration, cut.removed_tokens) < config.min_reduction * calibratedBefore) continue;
    sawReduction = true;
    if ((!options.gate || benefit.net > 0) && (best === null || benefit.net > best.benefit.net)) best = { cut, benefit };
  }
  const declined = (c: { cut: (typeof cuts)[number]; benefit: NetBenefit } | null): Pick<TierResult, "declined"> =>
    c === null ? {} : {
      declined: {
        removed_tokens: c.cut.removed_tokens, rewritten_tokens: c.cut.rewritten_tokens, request_tokens: tokensBefore, net_usd: c.benefit.net,
        first_edit_tokens: outsideHistory + msgTokens.slice(0, c.cut.first_edit).reduce((s, t) => s + t, 0),
      },
    };
  if (best === null) {
    const reason = sawReduction ? "not_positive" : cuts.length === 0 ? "no_candidates" : "under_min_reduction";
    return { ...noStep(base, tokensBefore, reason), ...(reason === "no_candidates" ? {} : declined(bestAny)) };
  }
  if (options.gate && !stepNow(ctx, best.cut.pair_ids, candidates, { p_cache: params.p_cache, cache_miss_usd: best.benefit.cache_miss, cache_cold: situation.cache_cold })) return { ...noStep(base, tokensBefore, "gathering"), ...declined(best) };

  // 4. Take the step.
  // After the highest step, not after the count: a rolled-back step leaves a gap, and reusing a
  // number would overwrite a kept step's record (and a later rollback would delete its entries).
  const stepNo = ledger.steps.reduce((m, s) => Math.max(m, s.step), 0) + 1;
  const chosen = new Set(best.cut.pair_ids);
  const plan: EditPlan = { actions: { ...base.actions } };
  const entries: LedgerEntry[] = [];
  const rules: Record<string, RemovalRule> = {};
  for (const p of proposals) {
    if (!chosen.has(p.pair.id)) continue;
    plan.actions[p.pair.id] = p.action;
    rules[p.pair.id] = p.rule;
    entries.push({ pair_id: p.pair.id, result_hash: p.pair.result_hash, action: p.action, step: stepNo, first_seen_ms: ledger.first_seen[p.pair.id] ?? ctx.now_ms });
  }
  const tokensAfter = tokensBefore - best.cut.removed_tokens;
  const additions: LedgerAdditions = {
    entries,
    first_seen: firstSeen,
    step: { step: stepNo, tier, at_ms: ctx.now_ms, pair_count: entries.length, tokens_removed: best.cut.removed_tokens, net_benefit_usd: best.benefit.net },
  };
  return {
    tier,
    tokens_before: tokensBefore,
    tokens_after: tokensAfter,
    cost_estimate: tierCostEstimate(tokensBefore - tokensAfter, price.input_per_mtok / 1000, tier),
    plan,
    correlation_id: ctx.correlation_id,
    tokens_original: view.est_tokens,
    ledger_additions: additions,
    step: {
      step: stepNo, pair_ids: best.cut.pair_ids, rules, boundary: best.cut.boundary, tokens_removed: best.cut.removed_tokens, benefit: best.benefit,
      terms: {
        ...best.benefit, remaining_calls: situation.remaining_calls, remaining_calls_source: ctx.remaining_calls_source ?? "seed",
        avg_request_tokens: situation.avg_call_tokens, removed_tokens: best.cut.removed_tokens, rewritten_tokens: best.cut.rewritten_tokens,
      },
    },
    skipped: null,
    memory: null,
    warnings,
    ...(native ? { native } : {}),
  };
}

/** The timing rule (./step-timing.ts) for a paying cut: step now, or wait and gather more removals. */
function stepNow(ctx: TierContext, pairIds: readonly string[], candidates: readonly CutCandidate[], cost: { p_cache: number; cache_miss_usd: number; cache_cold: boolean }): boolean {
  const { view, config, pressure } = ctx;
  const inCut = new Set(pairIds);
  const turnOf = (i: number) => view.messages[i]?.turn_index ?? 0;
  const pending = candidates
    .filter((c) => inCut.has(c.pair_id))
    .map((c) => ({ saved_tokens: c.saved_tokens, age_calls: editableAgeCalls(view.turn_count, config.preserve_recent_turns, Math.max(turnOf(c.call_message), turnOf(c.result_message))) }));
  return decideStepTiming({ ...cost, context_pct_used: pressure.context_pct_used, pressure_limit: config.auto_context_pct, pending }).step;
}

/** cost_estimate = tokens_saved / 1000 × cost_per_1k_tokens × weight (DESIGN §3); 0 when nothing is saved. */
export function tierCostEstimate(tokens_saved: number, cost_per_1k_tokens: number, tier: Tier): number {
  return tokens_saved <= 0 ? 0 : (tokens_saved / 1000) * cost_per_1k_tokens * TIER_COST_WEIGHT[tier];
}
