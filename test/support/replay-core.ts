/**
 * TEST FIXTURE (not product code): replays a corpus session call by call through compact()
 * with a ledger carried between calls, and prices the run with a simple prefix-cache model
 * (a message is a cache hit when it and every message before it were forwarded identically
 * in the previous call and the idle gap was under the TTL; the rest is written at the cache
 * write price). Used to calibrate defaults and to check step discipline; the replay tool
 * (tools/replay) is the real measurement.
 */
import { callsSoFar, estimateRemainingCalls } from "../../src/core/cost/estimate-remaining-calls";
import { averageRequestTokens } from "../../src/core/cost/average-request-tokens";
import { DEFAULTS } from "../../src/config/defaults";
import { findModelPrice } from "../../src/core/cost/find-model-price";
import { MODEL_PRICES } from "../../src/core/cost/prices";
import { CORE_DEFAULTS, compact } from "../../src/core/policy/compact";
import { actionSavings } from "../../src/core/policy/estimate-savings";
import { EMPTY_LEDGER, mergeLedger, type Ledger } from "../../src/core/policy/ledger";
import type { CoreConfig, TierResult } from "../../src/core/policy/types";
import type { StepFacts } from "../../src/core/facts/step-facts";
import { factsOf } from "./make-view";
import { readCorpusSession } from "./read-corpus-session";

export interface ReplayCall {
  k: number;
  result: TierResult;
  /** Sorted pair ids with a non-keep action in the plan. */
  removed: string[];
  /** Per message: "tokens|actions" signature as forwarded (prefix identity). */
  signatures: string[];
  tokens: number[];
  /** Ids the view turned into orphans (duplicate ids): their ledger entries cannot apply. */
  orphans: string[];
}

export interface ReplayRun {
  id: string;
  calls: ReplayCall[];
  steps: number;
  ledger: Ledger;
  /** Estimated tokens removed, summed over all calls. */
  tokens_removed_total: number;
  tokens_original_total: number;
  /** Simulated input cost (USD) with and without compaction. */
  cost_with: number;
  cost_without: number;
}

function forwarded(view: StepFacts, result: TierResult): { signatures: string[]; tokens: number[] } {
  const tags: string[][] = view.messages.map(() => []);
  const tokens = view.messages.map((m) => m.est_tokens);
  for (const p of view.pairs) {
    const a = result.plan.actions[p.id];
    if (a === undefined || a.kind === "keep") continue;
    const s = actionSavings(p, a);
    tags[p.call.message_index]!.push(`${p.id}:${a.kind}`);
    tags[p.result.message_index]!.push(`${p.id}:${a.kind}`);
    tokens[p.call.message_index]! -= s.call;
    tokens[p.result.message_index]! -= s.result;
  }
  return { signatures: tags.map((t, i) => `${i}|${t.sort().join(",")}`), tokens };
}

/** Replays session `id` with `config` (core defaults unless given). */
export function replayCore(id: string, config: CoreConfig = CORE_DEFAULTS): ReplayRun {
  const session = readCorpusSession(id);
  const price = findModelPrice(session.model, session.provider).price;
  let ledger: Ledger = EMPTY_LEDGER;
  const calls: ReplayCall[] = [];
  let prev: string[] = [];
  let costWith = 0;
  let costWithout = 0;
  let removedTotal = 0;
  let originalTotal = 0;
  const pIn = price.input_per_mtok / 1e6;
  const pCache = price.cache_read_per_mtok / 1e6;
  const pWrite = pIn * price.cache_write_multiplier;
  let prevOriginalLen = 0;
  let estimatedSoFar = 0;
  session.calls.forEach((call, k) => {
    const full = session.viewAt(k);
    const view = factsOf(full, { head_chars: config.head_chars }, session.mentionsAt(k));
    const now = call.at_ms ?? k * 10_000;
    const result = compact({
      view,
      ledger,
      pressure: { turn_count: k + 1, context_pct_used: view.est_tokens / price.context_window, idle_seconds: call.idle_seconds, session_complete: false },
      config,
      prices: MODEL_PRICES,
      now_ms: now,
      expected_remaining_calls: estimateRemainingCalls(callsSoFar(k, view.turn_count), config.min_remaining_calls ?? DEFAULTS.min_remaining_calls),
      // As the session DO measures it before any usage report: the mean of the requests' estimates so far, this one included.
      avg_request_tokens: averageRequestTokens({ reported_tokens: 0, reports: 0, estimated_tokens: estimatedSoFar, estimated_requests: k }, view.est_tokens),
      correlation_id: `${id}#${k}`,
    });
    estimatedSoFar += view.est_tokens;
    ledger = mergeLedger(ledger, result.ledger_additions);
    const fw = forwarded(view, result);
    const cold = call.idle_seconds >= price.cache_ttl_seconds;
    // With compaction: hit while signatures match the previous forwarded request.
    let hit = 0;
    if (!cold) while (hit < prev.length && hit < fw.signatures.length && prev[hit] === fw.signatures[hit]) hit++;
    const outside = view.est_tokens - view.messages.reduce((s, m) => s + m.est_tokens, 0);
    const cachedTok = cold || k === 0 ? 0 : outside + fw.tokens.slice(0, hit).reduce((s, t) => s + t, 0);
    const allTok = outside + fw.tokens.reduce((s, t) => s + t, 0);
    costWith += cachedTok * pCache + (allTok - cachedTok) * pWrite;
    // Without: the previous request is a prefix.
    const hitOrig = cold ? 0 : (k === 0 ? 0 : outside + view.messages.slice(0, prevOriginalLen).reduce((s, m) => s + m.est_tokens, 0));
    costWithout += hitOrig * pCache + (view.est_tokens - hitOrig) * pWrite;
    prevOriginalLen = view.messages.length;
    prev = fw.signatures;
    removedTotal += view.est_tokens - allTok;
    originalTotal += view.est_tokens;
    const removed = Object.entries(result.plan.actions).filter(([, a]) => a.kind !== "keep").map(([pid]) => pid).sort();
    calls.push({ k, result, removed, signatures: fw.signatures, tokens: fw.tokens, orphans: full.orphans.map((o) => o.id) });
  });
  return { id, calls, steps: ledger.steps.length, ledger, tokens_removed_total: removedTotal, tokens_original_total: originalTotal, cost_with: costWith, cost_without: costWithout };
}
