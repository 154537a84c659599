/**
 * The session's savings ledger (an observer of the session, ../session/state.ts SessionObserver,
 * owning the slot `savings` and the table `removals`; the model is pure:
 * ../core/cost/ledger-tokens.ts for the tokens, ../core/cost/counterfactual-input.ts for the
 * dollars). Two halves per request:
 * - at the step (`noteLedgerStep`, from ./run-step.ts): how the client's body relates to the
 *   session's previous client body (./last-prefix.ts: estimated shared prefix, whether the
 *   previous one is a whole prefix, the time since it), Sluice's body's shared prefix (cut at the
 *   first message this step edits), the removals the step made and the earlier ones it fetched
 *   or named again (./removal-log.ts), and how long it waited on an engine — kept as meta
 *   `ledger_pending` until the report;
 * - at the report (`settleLedger`, from the DO's `report`): the outcome says which body went,
 *   the provider's usage prices it (`with` in compact mode, `without` in measure mode) and
 *   counts it; the other body's provider tokens follow from the token model, and it is priced
 *   with the session's cache behaviour. Every figure is added to counters `ledger_*` and
 *   returned as the report's LedgerDelta (the gateway sends it to the session index).
 * A report whose outcome does not match the pending step (a lost report, a failed step) prices
 * the call as the client's body: without = with. Counts and dollars only (DESIGN invariant 7).
 */
import { inputCostUsd, ledgerCosts, toProviderTokens, type Forwarded } from "../core/cost/counterfactual-input";
import { EMPTY_TOKEN_STATE, ledgerTokens, type TokenState } from "../core/cost/ledger-tokens";
import { sharedPrefix } from "../core/facts/prefix-facts";
import type { StepFacts } from "../core/facts/step-facts";
import type { Ledger } from "../core/policy/ledger";
import type { TierResult } from "../core/policy/types";
import { z } from "zod";
import { emptyLedgerDelta, LEDGER_FIELDS, type LedgerDelta, type LedgerMode } from "../session/contract";
import type { CallReport } from "../session/contract";
import { sessionPrice } from "../session/record-report";
import { RECORD } from "../session/session-record";
import { summariesCostUsd } from "../session/compaction-ledger";
import { defineSlot, type SessionObserver, type StateTx, type StepEvent } from "../session/state";
import { forgetRemovals, noteRemovals, type RemovalCounts } from "./removal-log";

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
  /** The previous client body is a whole prefix of this one. */
  whole_prefix: boolean;
  /** This request's step removed more. */
  stepped: boolean;
  /** What the step did (null once a report carried the outcome). */
  counts: (RemovalCounts & { engine_wait_ms: number | null; engine_cost_usd: number }) | null;
  /** Set by the outcome: which body went, and the estimate of Sluice's body (sent or would-send). */
  forwarded: Forwarded | null;
  sent_est: number | null;
}

const num = z.number().finite();
const pendingSchema = z.object({
  correlation_id: z.string(), mode: z.enum(["compact", "measure"]), gap_s: num.nullable(), original_est: num, original_shared_est: num, sent_shared_est: num,
  whole_prefix: z.boolean(), stepped: z.boolean(),
  counts: z.object({ removals: num, removals_deterministic: num, removed_tokens: num, removals_refetched: num, removals_mentioned: num, engine_wait_ms: num.nullable(), engine_cost_usd: num }).nullable(),
  forwarded: z.enum(["original", "edited", "measured"]).nullable(), sent_est: num.nullable(),
}) satisfies z.ZodType<Pending>;

/** The ledger's state: the call awaiting its report, the mode it last ran in, the token model's state (../core/cost/ledger-tokens.ts). */
interface SavingsState {
  pending: Pending | null;
  mode: LedgerMode;
  tokens: TokenState;
  /** Estimated and provider-reported input tokens of the calls whose client body went (the client calibration). */
  cal_estimated: number;
  cal_reported: number;
}

const SAVINGS = defineSlot<SavingsState>(
  "savings",
  z.object({ pending: pendingSchema.nullable(), mode: z.enum(["compact", "measure"]), tokens: z.object({ original: num.nullable(), original_est: num, sent: num.nullable(), removed: num, removed_est: num, sent_est: num, appended: num, appended_est: num }) satisfies z.ZodType<TokenState>, cal_estimated: num, cal_reported: num }),
  () => ({ pending: null, mode: "compact", tokens: { ...EMPTY_TOKEN_STATE }, cal_estimated: 0, cal_reported: 0 }),
);

/** The step half (module header). */
function noteLedgerStep(tx: StateTx, s: StepEvent & { result: TierResult }): void {
  const { facts, previous } = s;
  const msgs = facts.messages.map((m) => m.est_tokens);
  const members = Math.max(0, facts.est_tokens - msgs.reduce((a, b) => a + b, 0));
  const before = (k: number) => members + msgs.slice(0, Math.max(0, k)).reduce((a, b) => a + b, 0);
  let shared = 0, whole = false;
  if (previous !== null && facts.prefix !== null) {
    const sp = sharedPrefix(previous.prefix, facts.prefix);
    const prevLen = previous.prefix.message_hashes.length;
    // The previous request's last message is where clients put the breakpoint, and some write it
    // again in another form next time (string content ↔ one text block carrying the marker), which
    // the provider's cache does not tell apart: it still counts as shared.
    const lastRewritten = sp.shared_messages === prevLen - 1 && facts.prefix.message_hashes.length > prevLen;
    whole = sp.members_equal && (sp.shared_messages === prevLen || lastRewritten);
    if (sp.members_equal) shared = before(whole ? prevLen : sp.shared_messages);
  }
  // Sluice's body shares the same prefix up to the first message this step edits; the removals of earlier steps are out of both.
  const stepped = new Set(s.result.step?.pair_ids ?? []);
  const firstEdit = Math.min(...facts.pairs.filter((p) => stepped.has(p.id)).map((p) => Math.min(p.call.message_index, p.result.message_index)));
  const state = tx.get(SAVINGS);
  const prevRemoved = state.tokens.removed_est;
  const sentShared = Math.max(0, Math.min(shared, Number.isFinite(firstEdit) ? before(firstEdit) : shared) - prevRemoved);
  const pending: Pending = {
    correlation_id: s.correlation_id,
    mode: s.mode,
    gap_s: previous === null ? null : Math.max(0, s.now_ms - previous.at_ms) / 1000,
    original_est: facts.est_tokens,
    original_shared_est: shared,
    sent_shared_est: sentShared,
    whole_prefix: whole,
    stepped: stepped.size > 0,
    counts: { ...noteRemovals(tx.sql, facts, s.before, s.result.ledger_additions), engine_wait_ms: s.engine_wait_ms, engine_cost_usd: s.engine_cost_usd },
    forwarded: null,
    sent_est: null,
  };
  tx.set(SAVINGS, { ...state, mode: s.mode, pending });
}

/**
 * The calibration the ledger scales a body it did not see billed by: provider-reported ÷
 * estimated input tokens over the session's calls whose client body went, else over all its
 * answers (the session's calibration record: ../session/record-report.ts), null before any. Client bodies only where there are some: the results a step removes do not tokenise like
 * the rest, so a session's edited bodies calibrate its client bodies badly.
 */
function clientCalibration(tx: StateTx): number | null {
  const s = tx.get(SAVINGS);
  if (s.cal_estimated > 0) return s.cal_reported / s.cal_estimated;
  const c = tx.get(RECORD).calibration;
  return c.estimated_sum > 0 ? c.reported_sum / c.estimated_sum : null;
}

/** Which body went, from an outcome. */
function forwardedOf(outcome: NonNullable<CallReport["outcome"]>): Forwarded {
  if (outcome.outcome === "compacted") return "edited";
  if (outcome.outcome === "measured" && outcome.would_send !== null && outcome.would_send < outcome.tokens_original) return "measured";
  return "original";
}

/**
 * The report half (module header), after the usage was recorded (../session/record-report.ts:
 * the calibration includes this call). `r.outcome` is the outcome as settled (a native edit the
 * provider did not apply is no longer `compacted`).
 */
function settleLedger(tx: StateTx, r: CallReport): LedgerDelta {
  const state = tx.get(SAVINGS);
  let pending = state.pending;
  const delta = emptyLedgerDelta(pending?.mode ?? state.mode);
  const price = sessionPrice(tx);
  let { cal_estimated, cal_reported, tokens } = state;
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
          delta.loss_usd = (toProviderTokens(c.removed_tokens, clientCalibration(tx)) * price.input_per_mtok) / 1e6;
        }
        if (c.engine_wait_ms !== null) {
          delta.engine_waits = 1;
          delta.engine_wait_ms = c.engine_wait_ms;
        }
        // Paid whether or not the step stood: the engine answered.
        delta.engine_cost_usd = c.engine_cost_usd;
      }
      pending = { ...pending, counts: null, forwarded: forwardedOf(r.outcome), sent_est: r.outcome.would_send ?? r.outcome.tokens_sent };
    }
    // The summariser's answers are paid like the engine's, whether or not the step stood.
    delta.engine_cost_usd += summariesCostUsd(r.outcome.summaries);
  }
  if (r.usage !== null) {
    const u = r.usage;
    const billed = { input: u.input_tokens, cache_read: u.cache_read_input_tokens, cache_write: u.cache_creation_input_tokens };
    const actual = inputCostUsd(billed, price);
    const reported = billed.input + billed.cache_read + billed.cache_write;
    const p = pending;
    const forwarded = p?.forwarded ?? "original";
    if (forwarded !== "edited" && r.estimated_input_tokens > 0) {
      // The client's body went: it calibrates the ledger's estimates of client bodies.
      cal_estimated += r.estimated_input_tokens;
      cal_reported += reported;
      tx.set(SAVINGS, { ...tx.get(SAVINGS), cal_estimated, cal_reported });
    }
    let costs = { without_usd: actual, with_usd: actual };
    if (p !== null && p.sent_est !== null) {
      const t = ledgerTokens(tokens, {
        went: forwarded, reported, original_est: p.original_est, sent_est: forwarded === "original" ? p.original_est : p.sent_est,
        original_shared_est: p.original_shared_est, sent_shared_est: p.sent_shared_est, whole_prefix: p.whole_prefix, stepped: p.stepped,
        calibration: clientCalibration(tx),
      });
      tokens = t.next;
      const caching = usesCache(tx, price.provider_family);
      costs = ledgerCosts({
        actual_usd: actual, forwarded,
        original: { total_tokens: t.original, shared_tokens: t.original_shared, gap_seconds: p.gap_s, caching },
        sent: { total_tokens: t.sent, shared_tokens: t.sent_shared, gap_seconds: p.gap_s, caching },
      }, price);
    } else tokens = { ...EMPTY_TOKEN_STATE, original: reported, sent: reported, original_est: r.estimated_input_tokens, sent_est: r.estimated_input_tokens };
    delta.priced_calls = 1;
    delta.without_usd = costs.without_usd;
    delta.with_usd = costs.with_usd;
    pending = null;
  }
  tx.set(SAVINGS, { mode: state.mode, pending, tokens, cal_estimated, cal_reported });
  for (const f of LEDGER_FIELDS) tx.add(`ledger_${f}`, delta[f]);
  return delta;
}

/**
 * Whether the session uses the prompt cache: OpenAI caches every long prompt by itself; an
 * Anthropic session only where the client marks breakpoints, seen as any cache read or write in
 * its reported usage.
 */
function usesCache(tx: StateTx, family: "anthropic" | "openai"): boolean {
  if (family === "openai") return true;
  const c = tx.counterValues(["usage_cache_read_input_tokens", "usage_cache_creation_input_tokens"]);
  return c.usage_cache_read_input_tokens + c.usage_cache_creation_input_tokens > 0;
}

/** The mode the session's ledger last ran in. */
export function ledgerMode(tx: StateTx): LedgerMode {
  return tx.get(SAVINGS).mode;
}

/** The observer: the step half, the report half, and a rolled-back step's removals forgotten. */
export const savingsLedger: SessionObserver = {
  afterStep(tx, e) {
    if (e.result !== null) noteLedgerStep(tx, { ...e, result: e.result });
  },
  afterReport(tx, e) {
    return { ledger: settleLedger(tx, e.report) };
  },
  onRollback(tx, step) {
    forgetRemovals(tx.sql, step);
  },
};
