/**
 * The native mechanism's summarising step (pure; DESIGN §2 "Two mechanisms, one decision", §3
 * auto at level `rewrite`). On a model that binds thinking to its prefix a summary written into
 * the history would invalidate every later thinking block, so at `rewrite` the summarising step
 * is the provider's own server-side compaction: Sluice inserts one `compact_20260112` edit whose
 * `trigger` fires on the request where its policy decided the step, and on no other request (so
 * the provider never compacts on its own schedule).
 *
 * Provider facts (platform.claude.com build-with-claude/compaction; @anthropic-ai/sdk
 * BetaCompact20260112Edit, BetaCompactionBlock, BetaCompactionIterationUsage): beta
 * `compact-2026-01-12`; `trigger` {type "input_tokens", value ≥ 50,000, default 150,000}; when the
 * request's input exceeds it, the provider summarises the conversation in an extra sampling
 * iteration (billed as a `compaction` entry of `usage.iterations`), the answer starts with a
 * `compaction` block the client sends back, and on later requests the provider drops every
 * message block before that block.
 *
 * The session's compaction state (meta, src/session/run-step.ts):
 * - `none`: Sluice never compacted in this session;
 * - `answered`: the provider reported a compaction iteration for Sluice's edit;
 * - `returned`: a later request carried the compaction block back;
 * - `dropped`: the request after `answered` carried no compaction block (the client does not send
 *   it back, so every further summary would be paid for nothing): no compaction again.
 */
import { netBenefit, type NetBenefit, type StepSituation } from "../cost/net-benefit";
import type { CostParams } from "../cost/cost-defaults";
import type { StepFacts } from "../facts/step-facts";

/** The provider's minimum `trigger` value, input tokens (platform.claude.com build-with-claude/compaction). */
export const COMPACTION_MIN_TRIGGER = 50_000;

/**
 * S of a server-side compaction: the expected tokens of the provider's summary. The provider
 * documents no size; its summaries of agent sessions run to a few pages of prose, so the seed is
 * 3,000 tokens (six times the seed of a Sluice-written summary, `summary_tokens` 500). The saving
 * per later request is the history minus S.
 */
export const COMPACTION_SUMMARY_TOKENS = 3_000;

/** The session's compaction state (see the module doc). */
export type CompactionState = "none" | "answered" | "returned" | "dropped";

/**
 * The `trigger` value for a compaction step on a request the session's calibration puts at
 * `calibrated_tokens` input tokens, or null when no compaction step is possible (under the
 * provider's 50,000 minimum: the usual clear_tool_uses step applies). The value is the minimum
 * itself: the edit goes only with the request Sluice chose, so the lowest trigger is the one most
 * certain to fire there (an estimate that runs a little high cannot make it miss).
 */
export function compactionTrigger(calibrated_tokens: number): number | null {
  return calibrated_tokens >= COMPACTION_MIN_TRIGGER ? COMPACTION_MIN_TRIGGER : null;
}

/** What a compaction step is priced from, tokens. */
export interface CompactionShape {
  /** T: history tokens (messages) the compaction summarises. */
  history_tokens: number;
  /** The request's input tokens, all of which the compaction iteration reads. */
  request_tokens: number;
  /** Of those, the leading part the provider's cache holds (0 when the cache is cold). */
  cached_tokens: number;
}

/**
 * USD of the compaction iteration (term ③): it reads the request, its cached prefix at P_cache
 * and the rest at P_input (the iteration reports cache reads of its own:
 * BetaCompactionIterationUsage.cache_read_input_tokens), and writes S summary tokens at P_out.
 */
export function compactionRequestCost(shape: CompactionShape, params: CostParams): number {
  const cached = Math.min(shape.cached_tokens, shape.request_tokens);
  return (cached * params.p_cache + (shape.request_tokens - cached) * params.p_input + COMPACTION_SUMMARY_TOKENS * params.p_out) / 1_000_000;
}

/**
 * The five terms of a compaction step (../cost/net-benefit.ts): H = T − S (the history goes, the
 * summary stays); K = 0 (nothing of the old history is written again: it is gone; the summary's
 * own write is the S of the cache-miss term); term ③ = compactionRequestCost.
 */
export function compactionBenefit(shape: CompactionShape, situation: StepSituation, params: CostParams): NetBenefit {
  const p = { ...params, summary_tokens: COMPACTION_SUMMARY_TOKENS };
  const removed = Math.max(0, shape.history_tokens - COMPACTION_SUMMARY_TOKENS);
  return netBenefit(
    { history_tokens: shape.history_tokens, removed_tokens: removed, rewritten_tokens: 0, request_cost_usd: compactionRequestCost(shape, p) },
    situation,
    p,
  );
}

/**
 * The session's view of a request whose history holds a compaction block (`facts.compaction_message`):
 * when the block is Sluice's own (state `answered` or `returned`), the provider ignores every
 * message before the block's message, so the view starts there: earlier messages count 0 tokens,
 * pairs whose call precedes it are left out, and the stand-aside for the block is lifted. A block
 * the session did not cause (any other state), or a client edit's stand-aside, keeps the facts as
 * they are (Sluice stands aside).
 */
export function viewFromCompaction(facts: StepFacts, state: CompactionState): StepFacts {
  const at = facts.compaction_message;
  if (at === undefined || facts.server_managed !== "compaction" || (state !== "answered" && state !== "returned")) return facts;
  let dropped = 0;
  const messages = facts.messages.map((m) => {
    if (m.index >= at) return m;
    dropped += m.est_tokens;
    return { ...m, est_tokens: 0 };
  });
  return {
    ...facts,
    server_managed: null,
    est_tokens: Math.max(0, facts.est_tokens - dropped),
    messages,
    pairs: facts.pairs.filter((p) => p.call.message_index >= at),
    orphan_call_messages: facts.orphan_call_messages.filter((i) => i >= at),
  };
}

/**
 * The state after a request with `facts` arrived in state `state`: `answered` becomes `returned`
 * when the history carries a compaction block, `dropped` when it does not; other states stay.
 */
export function nextCompactionState(state: CompactionState, facts: Pick<StepFacts, "compaction_message">): CompactionState {
  if (state !== "answered") return state;
  return facts.compaction_message === undefined ? "dropped" : "returned";
}
