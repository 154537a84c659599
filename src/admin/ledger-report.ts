/**
 * The savings ledger's report (pure): the seed's operator table — saving (% and USD of the
 * modelled input cost), engine cost, worst-case loss, balance and ratio, engine latency and the
 * share of requests that paid it, removals re-fetched, re-mentioned and from deterministic tools —
 * from ledger totals (a session's `ledger_*` counters, or the index's hourly sums over a window).
 * Also the hour buckets the index keeps those sums in. Every column: docs/operations.md
 * "The savings ledger".
 */
import { LEDGER_FIELDS, type LedgerField, type LedgerMode } from "../session/contract";

/** Ledger sums of one mode: every LedgerDelta field summed. */
export type LedgerTotals = Record<LedgerField, number>;

/** One mode's report. Ratios are shares 0..1; null where the denominator is 0. */
export interface LedgerReport {
  mode: LedgerMode;
  /** Calls priced from the provider's usage. */
  priced_calls: number;
  requests: number;
  /** Modelled input cost without Sluice, USD. */
  without_usd: number;
  /** Input cost with Sluice, USD. */
  with_usd: number;
  /** without − with, USD (net of every cache write a step caused: they are in `with`). */
  saved_usd: number;
  /** saved ÷ without. */
  saved_share: number | null;
  engine_cost_usd: number;
  worst_case_loss_usd: number;
  /** saved − engine − loss, USD. */
  balance_usd: number;
  /** saved ÷ (engine + loss); null when nothing is set against the saving or nothing was saved. */
  ratio: number | null;
  /** Mean wait on a decision engine of the requests that waited, ms; null when none did. */
  engine_wait_ms: number | null;
  /** Requests that waited on an engine ÷ requests. */
  engine_wait_share: number | null;
  removals: number;
  /** Re-fetched removals ÷ removals, re-mentioned ÷ removals, deterministic ÷ removals. */
  refetched_share: number | null;
  mentioned_share: number | null;
  deterministic_share: number | null;
}

/** Totals with every field 0. */
export function emptyTotals(): LedgerTotals {
  return Object.fromEntries(LEDGER_FIELDS.map((f) => [f, 0])) as LedgerTotals;
}

/** A session's ledger totals from its counters (src/observers/savings-ledger.ts adds `ledger_<field>`). */
export function totalsFromCounters(counters: Readonly<Record<string, number>>): LedgerTotals {
  return Object.fromEntries(LEDGER_FIELDS.map((f) => [f, counters[`ledger_${f}`] ?? 0])) as LedgerTotals;
}

const share = (n: number, d: number): number | null => (d > 0 ? n / d : null);

/** The report of one mode's totals. */
export function ledgerReport(mode: LedgerMode, t: LedgerTotals): LedgerReport {
  const saved = t.without_usd - t.with_usd;
  const against = t.engine_cost_usd + t.loss_usd;
  return {
    mode,
    priced_calls: t.priced_calls,
    requests: t.requests,
    without_usd: t.without_usd,
    with_usd: t.with_usd,
    saved_usd: saved,
    saved_share: share(saved, t.without_usd),
    engine_cost_usd: t.engine_cost_usd,
    worst_case_loss_usd: t.loss_usd,
    balance_usd: saved - against,
    ratio: saved > 0 && against > 0 ? saved / against : null,
    engine_wait_ms: t.engine_waits > 0 ? t.engine_wait_ms / t.engine_waits : null,
    engine_wait_share: share(t.engine_waits, t.requests),
    removals: t.removals,
    refetched_share: share(t.removals_refetched, t.removals),
    mentioned_share: share(t.removals_mentioned, t.removals),
    deterministic_share: share(t.removals_deterministic, t.removals),
  };
}

/** Width of the index's ledger buckets: one hour, ms. A window is read in whole hours. */
export const LEDGER_BUCKET_MS = 3_600_000;

/** The bucket (its start, epoch ms) of a time. */
export function ledgerBucketOf(at_ms: number): number {
  return Math.floor(at_ms / LEDGER_BUCKET_MS) * LEDGER_BUCKET_MS;
}

/** Stored bucket rows `{mode, name, value}` summed into totals per mode (modes without a row are absent). */
export function sumLedgerRows(rows: readonly { mode: string; name: string; value: number }[]): Partial<Record<LedgerMode, LedgerTotals>> {
  const out: Partial<Record<LedgerMode, LedgerTotals>> = {};
  for (const r of rows) {
    if ((r.mode !== "compact" && r.mode !== "measure") || !(LEDGER_FIELDS as readonly string[]).includes(r.name)) continue;
    const t = (out[r.mode] ??= emptyTotals());
    t[r.name as LedgerField] += r.value;
  }
  return out;
}
