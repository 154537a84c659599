/**
 * Shapes the admin API returns from the session index (pure): one session's summary row and
 * the global totals the dashboard shows. Counts, ids, enums and dollars only.
 */
import { METRICS, type StoredSeries } from "./metrics-catalog";

/** One recent session (GET /admin/sessions). */
export interface SessionSummary {
  id: string;
  /** Human label: client, conversation (agent) and model (./session-label.ts). */
  label: string;
  provider: string | null;
  model: string | null;
  /** Largest assistant-turn count seen in the session's requests. */
  turns: number;
  /** The session's model calls (the session DO's count). */
  calls: number;
  /** Requests recorded in the index for the session. */
  requests: number;
  compacted: number;
  fail_open: number;
  tokens_original: number;
  tokens_sent: number;
  tokens_saved: number;
  /** Gross USD saved: tokens removed × the session's input price, before the cache writes the steps caused. */
  usd_saved: number;
  /** The savings ledger's net saving of the session, USD, all modes: input cost without Sluice − with it, summed over its ledger reports; negative when Sluice cost more (docs/operations.md "The savings ledger"). */
  net_usd_saved: number;
  /** cache_read / (input + cache_read + cache_write) of reported usage; null before any report. */
  cache_hit_ratio: number | null;
  last_tier: string | null;
  last_outcome: string | null;
  /** Epoch ms of the last request, usage or ledger report; null for a session only disabled so far. */
  last_activity_ms: number | null;
  disabled: boolean;
}

/** Global totals (GET /admin/sessions `totals`), from the never-pruned metric series. */
export interface IndexTotals {
  sessions: number;
  requests: number;
  compacted: number;
  fail_open: number;
  tokens_original: number;
  tokens_sent: number;
  tokens_saved: number;
  usd_saved: number;
  /** Over all reported usage; null before any report. */
  cache_hit_ratio: number | null;
  /** The savings ledger's net saving over all modes, USD: input cost without Sluice − with it (docs/operations.md "The savings ledger"); measurement mode included. */
  ledger_saved_usd: number;
}

/** Cache hit ratio of usage totals, null when nothing was reported. */
export function cacheHitRatio(input: number, cacheRead: number, cacheWrite: number): number | null {
  const all = input + cacheRead + cacheWrite;
  return all === 0 ? null : cacheRead / all;
}

/** Totals from the stored series. */
export function totalsOf(stored: readonly StoredSeries[], sessions: number): IndexTotals {
  const sum = (family: string, pick: (l: Record<string, string>) => boolean = () => true) =>
    stored.filter((s) => s.family === family && s.suffix === "" && pick(s.labels)).reduce((a, s) => a + s.value, 0);
  const usage = (kind: string) => sum(METRICS.usage.name, (l) => l.kind === kind);
  return {
    sessions,
    requests: sum(METRICS.requests.name),
    compacted: sum(METRICS.requests.name, (l) => l.outcome === "compacted"),
    fail_open: sum(METRICS.failOpen.name),
    tokens_original: sum(METRICS.tokensOriginal.name),
    tokens_sent: sum(METRICS.tokensSent.name),
    tokens_saved: sum(METRICS.tokensSaved.name),
    usd_saved: sum(METRICS.usdSaved.name),
    cache_hit_ratio: cacheHitRatio(usage("input"), usage("cache_read"), usage("cache_write")),
    ledger_saved_usd: sum(METRICS.ledgerWithout.name) - sum(METRICS.ledgerWith.name),
  };
}
