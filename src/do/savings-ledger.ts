/**
 * The session's savings ledger (shell over the session's SQL store; the pricing is pure:
 * ../core/cost/counterfactual-input.ts). Two halves per request:
 * - at the step (`noteLedgerStep`, from ./run-step.ts): what the provider's cache would see of
 *   the client's body (its estimated tokens, the prefix it shares with the session's previous
 *   client body: ./last-prefix.ts, and the time since it) and of Sluice's body (the same prefix,
 *   cut at the first message this step edits, less the tokens earlier steps removed), the
 *   removals the step made and the earlier ones it fetched or named again (./removal-log.ts),
 *   and how long it waited on an engine — kept as meta `ledger_pending` until the report;
 * - at the report (`settleLedger`, from the DO's `report`): the outcome says which body went,
 *   the provider's usage prices it (`with` in compact mode, `without` in measure mode), the
 *   other side is priced by the model, estimates scaled to provider tokens by the session's
 *   calibration (one call: toProviderTokens). Every figure is added to counters `ledger_*`
 *   and returned as the report's LedgerDelta (the gateway sends it to the session index).
 * A report whose outcome does not match the pending step (a lost report, a failed step) prices
 * the call as the client's body: without = with. Counts and dollars only (DESIGN invariant 7).
 */
import { inputCostUsd, ledgerCosts, toProviderTokens, type Forwarded } from "../core/cost/counterfactual-input";
import { sharedPrefix } from "../core/facts/prefix-facts";
import type { StepFacts } from "../core/facts/step-facts";
import type { Ledger } from "../core/policy/ledger";
import type { TierResult } from "../core/policy/types";
import { emptyLedgerDelta, LEDGER_FIELDS, type LedgerDelta, type LedgerMode } from "../session/ledger-types";
import type { CallReport } from "../session/step-types";
import type { LastPrefix } from "./last-prefix";
import { sessionPrice } from "./record-outcome";
import { noteRemovals, type RemovalCounts } from "./removal-log";
import type { SessionStore } from "./session-store";

/** Meta keys: the pending call (JSON of Pending), the last mode, the tokens the last request's plan removed. */
const PENDING = "ledger_pending", MODE = "ledger_mode", REMOVED = "ledger_removed_est";

/** What the step leaves for the report. */
interface Pending {
  correlation_id: string;
  mode: LedgerMode;
  /** Seconds since the session's previous request, null for its first. */
  gap_s: number | null;
  /** Estimated tokens of the client's body, and of its prefix shared with the previous client body. */
  original_est: number;
  original_shared_est: number;
  /** Estimated tokens of the prefix Sluice's body shares with Sluice's previous body. */
  sent_shared_est: number;
  /** What the step did (null once a report carried the outcome). */
  counts: (RemovalCounts & { engine_wait_ms: number | null }) | null;
  /** Set by the outcome: which body went, and the estimate of Sluice's body (sent or would-send). */
  forwarded: Forwarded | null;
  sent_est: number | null;
}

/** What runStep knows when it calls noteLedgerStep. */
export interface LedgerStepInput {
  facts: StepFacts;
  previous: LastPrefix | null;
  now_ms: number;
  mode: LedgerMode;
  correlation_id: string;
  /** The ledger as loaded before the step. */
  before: Ledger;
  result: Pick<TierResult, "tokens_original" | "tokens_after" | "ledger_additions" | "step">;
  /** Time the step waited on an HTTP engine, ms; null when none was consulted. */
  engine_wait_ms: number | null;
}

/** The step half (module header). The caller flushes the store. */
export function noteLedgerStep(store: SessionStore, sql: SqlStorage, s: LedgerStepInput): void {
  const { facts, previous } = s;
  const msgs = facts.messages.map((m) => m.est_tokens);
  const members = Math.max(0, facts.est_tokens - msgs.reduce((a, b) => a + b, 0));
  const before = (k: number) => members + msgs.slice(0, Math.max(0, k)).reduce((a, b) => a + b, 0);
  let shared = 0;
  if (previous !== null && facts.prefix !== null) {
    const sp = sharedPrefix(previous.prefix, facts.prefix);
    if (sp.members_equal) shared = before(sp.shared_messages);
  }
  // Sluice's body shares the same prefix up to the first message this step edits; the removals of earlier steps are out of both.
  const stepped = new Set(s.result.step?.pair_ids ?? []);
  const firstEdit = Math.min(...facts.pairs.filter((p) => stepped.has(p.id)).map((p) => Math.min(p.call.message_index, p.result.message_index)));
  const prevRemoved = store.getMetaNumber(REMOVED);
  const sentShared = Math.max(0, Math.min(shared, Number.isFinite(firstEdit) ? before(firstEdit) : shared) - prevRemoved);
  store.setMeta(REMOVED, Math.max(0, s.result.tokens_original - s.result.tokens_after));
  store.setMeta(MODE, s.mode);
  const pending: Pending = {
    correlation_id: s.correlation_id,
    mode: s.mode,
    gap_s: previous === null ? null : Math.max(0, s.now_ms - previous.at_ms) / 1000,
    original_est: facts.est_tokens,
    original_shared_est: shared,
    sent_shared_est: sentShared,
    counts: { ...noteRemovals(sql, facts, s.before, s.result.ledger_additions), engine_wait_ms: s.engine_wait_ms },
    forwarded: null,
    sent_est: null,
  };
  store.setMeta(PENDING, JSON.stringify(pending));
}

function readPending(store: SessionStore): Pending | null {
  const raw = store.getMeta(PENDING);
  if (raw === null || raw === "") return null;
  try {
    return JSON.parse(raw) as Pending;
  } catch {
    return null;
  }
}

/** The session's calibration: provider-reported ÷ estimated input tokens over its reports, null before any. */
export function sessionCalibration(store: SessionStore): number | null {
  const c = store.counterValues(["calibration_estimated", "calibration_reported"]);
  return c.calibration_estimated! > 0 ? c.calibration_reported! / c.calibration_estimated! : null;
}

/** Which body went, from an outcome. */
function forwardedOf(outcome: NonNullable<CallReport["outcome"]>): Forwarded {
  if (outcome.outcome === "compacted") return "edited";
  if (outcome.outcome === "measured" && outcome.would_send !== null && outcome.would_send < outcome.tokens_original) return "measured";
  return "original";
}

/**
 * The report half (module header), after the usage was recorded (./record-usage.ts: the
 * calibration counters include this call). `r.outcome` is the outcome as settled (a native edit
 * the provider did not apply is no longer `compacted`). The caller flushes the store.
 */
export function settleLedger(store: SessionStore, r: CallReport): LedgerDelta {
  let pending = readPending(store);
  const delta = emptyLedgerDelta(pending?.mode ?? ((store.getMeta(MODE) as LedgerMode | null) ?? "compact"));
  const price = sessionPrice(store);
  const cal = sessionCalibration(store);
  if (r.outcome !== null) {
    delta.requests = 1;
    if (pending === null || pending.correlation_id !== r.outcome.correlation_id) pending = null;
    else {
      const c = pending.counts;
      if (c !== null) {
        if (r.outcome.rollback_step === null) {
          delta.removals = c.removals;
          delta.removals_deterministic = c.removals_deterministic;
          delta.removals_refetched = c.removals_refetched;
          delta.removals_mentioned = c.removals_mentioned;
          delta.loss_usd = (toProviderTokens(c.removed_tokens, cal) * price.input_per_mtok) / 1e6;
        }
        if (c.engine_wait_ms !== null) {
          delta.engine_waits = 1;
          delta.engine_wait_ms = c.engine_wait_ms;
        }
      }
      pending = { ...pending, counts: null, forwarded: forwardedOf(r.outcome), sent_est: r.outcome.would_send ?? r.outcome.tokens_sent };
    }
    if (pending === null) store.setMeta(PENDING, "");
  }
  if (r.usage !== null) {
    const u = r.usage;
    const actual = inputCostUsd({ input: u.input_tokens, cache_read: u.cache_read_input_tokens, cache_write: u.cache_creation_input_tokens }, price);
    const caching = usesCache(store, price.provider_family);
    const p = pending;
    const costs = p === null || p.forwarded === null || p.sent_est === null
      ? { without_usd: actual, with_usd: actual }
      : ledgerCosts({
        actual_usd: actual,
        forwarded: p.forwarded,
        original: { total_tokens: toProviderTokens(p.original_est, cal), shared_tokens: toProviderTokens(p.original_shared_est, cal), gap_seconds: p.gap_s, caching },
        sent: { total_tokens: toProviderTokens(p.sent_est, cal), shared_tokens: toProviderTokens(p.sent_shared_est, cal), gap_seconds: p.gap_s, caching },
      }, price);
    delta.priced_calls = 1;
    delta.without_usd = costs.without_usd;
    delta.with_usd = costs.with_usd;
    store.setMeta(PENDING, "");
  } else if (pending !== null && r.outcome !== null) store.setMeta(PENDING, JSON.stringify(pending));
  for (const f of LEDGER_FIELDS) store.add(`ledger_${f}`, delta[f]);
  return delta;
}

/**
 * Whether the session uses the prompt cache: OpenAI caches every long prompt by itself; an
 * Anthropic session only where the client marks breakpoints, seen as any cache read or write in
 * its reported usage.
 */
function usesCache(store: SessionStore, family: "anthropic" | "openai"): boolean {
  if (family === "openai") return true;
  const c = store.counterValues(["usage_cache_read_input_tokens", "usage_cache_creation_input_tokens"]);
  return c.usage_cache_read_input_tokens! + c.usage_cache_creation_input_tokens! > 0;
}
