/**
 * The auto tier's summarising step under the native mechanism (pure; DESIGN §2 "Two mechanisms,
 * one decision", §3). At `guarantee_level: "rewrite"` on a model that binds thinking to its
 * prefix, the summary is the provider's server-side compaction (../policy/native-compaction.ts):
 * the step carries `native.compact` and no pair action, and the renderer sends one
 * `compact_20260112` edit whose trigger fires on this request only.
 *
 * Taken instead of the tier's removal step when all hold: level `rewrite`; the native mechanism;
 * the provider does not manage the history itself; the session has not learnt that its client
 * drops compaction blocks (state `dropped`); the request is over `threshold_tokens` and at least
 * the provider's 50,000-token minimum trigger (calibrated counts); and the compaction's net
 * benefit is positive and above the removal step's (0 when the tier took none). Otherwise the
 * removal result stands unchanged. T of the cost model is the history as the ledger's clearing
 * leaves it (what later requests would carry without the summary); term ③ reads the whole request
 * as sent (the compaction request carries no clearing edit).
 */
import { calibrate } from "../tokens/calibrate";
import { reapplyLedger } from "../policy/ledger";
import { compactionBenefit, compactionTrigger, COMPACTION_SUMMARY_TOKENS } from "../policy/native-compaction";
import { nativeParamsFor } from "../policy/resolve-mechanism";
import { cacheCold, costParamsFor, ledgerGuards, tierCostEstimate } from "../policy/take-step";
import { messageTokensAfter } from "../policy/estimate-savings";
import { cachedEnd } from "../policy/locate-boundaries";
import type { TierContext, TierResult } from "../policy/types";

/** `removal` (the tier's own result for `ctx`), or the native compaction step when it applies and pays more. */
export function withNativeCompaction(ctx: TierContext, removal: TierResult): TierResult {
  const { view, config, ledger } = ctx;
  const native = nativeParamsFor(config, view);
  if (config.guarantee_level !== "rewrite" || native === null || view.server_managed !== null || ctx.native_compaction === "dropped") return removal;
  const calibrated = calibrate(ctx.calibration, view.est_tokens);
  const trigger = compactionTrigger(calibrated);
  if (trigger === null || calibrated < config.threshold_tokens) return removal;

  const { price, params, regime } = costParamsFor(ctx);
  // Without a compaction, later requests carry the history as the ledger's clearing leaves it: that is what the summary replaces.
  const re = reapplyLedger(view, ledger, ledgerGuards(config, view));
  const historyTokens = messageTokensAfter(view, { actions: re.actions }).reduce((s, t) => s + t, 0);
  const outsideHistory = Math.max(0, view.est_tokens - view.messages.reduce((s, m) => s + m.est_tokens, 0));
  const situation = {
    remaining_calls: ctx.expected_remaining_calls,
    prior_steps: ledger.steps.length,
    avg_call_tokens: ctx.avg_request_tokens ?? view.est_tokens,
    cache_cold: cacheCold(ctx, regime),
  };
  // The compaction iteration reads the request as the client sent it (the compaction edit goes without the clearing one); warm, its prefix up to the new messages is cached.
  // The cache holds the prompt as the provider saw it, cleared: unchanged only up to the first message the ledger's clearing edits.
  const firstCleared = view.pairs.reduce((m, p) => (re.actions[p.id] !== undefined && re.actions[p.id]!.kind !== "keep" ? Math.min(m, p.result.message_index) : m), view.messages.length);
  const cached = situation.cache_cold ? 0 : outsideHistory + view.messages.slice(0, Math.min(cachedEnd(view), firstCleared)).reduce((s, m) => s + m.est_tokens, 0);
  const shape = { history_tokens: historyTokens, request_tokens: view.est_tokens, cached_tokens: cached };
  const benefit = compactionBenefit(shape, situation, { ...params, prefix_tokens: outsideHistory });
  if (benefit.net <= 0 || benefit.net <= (removal.step?.benefit.net ?? 0)) return removal;

  // The ledger's earlier removals stay in the plan (the session keeps them); this request's edit is the compaction alone.
  const stepNo = ledger.steps.reduce((m, s) => Math.max(m, s.step), 0) + 1;
  const removed = Math.max(0, historyTokens - COMPACTION_SUMMARY_TOKENS);
  const tokensAfter = outsideHistory + Math.min(historyTokens, COMPACTION_SUMMARY_TOKENS);
  return {
    tier: "auto",
    tokens_before: outsideHistory + historyTokens,
    tokens_after: tokensAfter,
    cost_estimate: tierCostEstimate(removed, price.input_per_mtok / 1000, "auto"),
    plan: { actions: { ...re.actions } },
    correlation_id: ctx.correlation_id,
    tokens_original: view.est_tokens,
    ledger_additions: {
      entries: [],
      first_seen: removal.ledger_additions.first_seen,
      step: { step: stepNo, tier: "auto", at_ms: ctx.now_ms, pair_count: 0, tokens_removed: removed, net_benefit_usd: benefit.net },
    },
    step: {
      step: stepNo, pair_ids: [], rules: {}, boundary: view.messages.length, tokens_removed: removed, benefit,
      terms: {
        ...benefit, remaining_calls: situation.remaining_calls, remaining_calls_source: ctx.remaining_calls_source ?? "seed",
        avg_request_tokens: situation.avg_call_tokens, removed_tokens: removed, rewritten_tokens: 0,
      },
    },
    skipped: null,
    memory: null,
    warnings: removal.warnings,
    native: { ...native, compact: { trigger_tokens: trigger } },
  };
}
