/**
 * Ledger persistence (shell over the session's SQL tables): reads the sticky ledger into the
 * core's `Ledger` shape and writes a step's `LedgerAdditions`; can roll a step back when the
 * gateway could not forward it (guarantee check failed), so a rejected step is never re-applied.
 */
import type { Ledger, LedgerAdditions, LedgerEntry, LedgerStep } from "../core/policy/ledger";
import type { PairAction } from "../core/plan/types";
import type { Tier } from "../core/policy/types";
import { execRows } from "./exec-rows";

/** Loads the whole ledger. */
export function loadLedger(sql: SqlStorage): Ledger {
  const entries: Record<string, LedgerEntry> = {};
  for (const r of sql.exec<{ pair_key: string; pair_id: string; result_hash: string; action: string; step: number; decided_ms: number }>(
    "SELECT pair_key, pair_id, result_hash, action, step, decided_ms FROM ledger",
  )) {
    entries[r.pair_key] = { pair_id: r.pair_id, result_hash: r.result_hash, action: JSON.parse(r.action) as PairAction, step: r.step, first_seen_ms: r.decided_ms };
  }
  const first_seen: Record<string, number> = {};
  for (const r of sql.exec<{ pair_id: string; first_seen_ms: number }>("SELECT pair_id, first_seen_ms FROM pairs_seen")) first_seen[r.pair_id] = r.first_seen_ms;
  const steps: LedgerStep[] = [];
  for (const r of sql.exec<{ step: number; tier: string; at_ms: number; pairs_removed: number; tokens_before: number; tokens_after: number; cost_usd: number }>(
    "SELECT step, tier, at_ms, pairs_removed, tokens_before, tokens_after, cost_usd FROM steps ORDER BY step",
  )) {
    steps.push({ step: r.step, tier: r.tier as Tier, at_ms: r.at_ms, pair_count: r.pairs_removed, tokens_removed: r.tokens_before - r.tokens_after, net_benefit_usd: r.cost_usd });
  }
  return { entries, first_seen, steps };
}

/** Writes additions: first-seen times, entries (multi-row statements) and the step record (with the request's token figures). */
export function saveAdditions(
  sql: SqlStorage,
  add: LedgerAdditions,
  stepInfo: { tokens_before: number; tokens_after: number; correlation_id: string } | null,
): void {
  execRows(sql, "INSERT OR IGNORE INTO pairs_seen (pair_id, first_seen_ms) VALUES ", "", Object.entries(add.first_seen));
  execRows(
    sql,
    "INSERT INTO ledger (pair_key, pair_id, result_hash, action, step, decided_ms) VALUES ",
    " ON CONFLICT(pair_key) DO UPDATE SET action = excluded.action, step = excluded.step",
    add.entries.map((e) => [`${e.pair_id}#${e.result_hash}`, e.pair_id, e.result_hash, JSON.stringify(e.action), e.step, e.first_seen_ms]),
  );
  if (add.step && stepInfo) {
    sql.exec(
      "INSERT OR REPLACE INTO steps (step, tier, at_ms, pairs_removed, tokens_before, tokens_after, cost_usd, correlation_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      add.step.step, add.step.tier, add.step.at_ms, add.step.pair_count, stepInfo.tokens_before, stepInfo.tokens_after, add.step.net_benefit_usd, stepInfo.correlation_id,
    );
  }
}

/** Removes step `step`, its entries and its removals (the gateway failed open instead of forwarding it). */
export function rollbackStep(sql: SqlStorage, step: number): void {
  sql.exec("DELETE FROM ledger WHERE step = ?", step);
  sql.exec("DELETE FROM steps WHERE step = ?", step);
  sql.exec("DELETE FROM step_terms WHERE step = ?", step);
  sql.exec("DELETE FROM removals WHERE step = ?", step); // the savings ledger's removals (./removal-log.ts)
}
