/**
 * The compaction ledger's storage (shell over the session's SQL tables; the ledger's rules are
 * pure: ../core/policy/ledger.ts): which pairs the session saw and when, what each step decided
 * for which pair (sticky: DESIGN invariant 6), and each step with the cost model's terms it was
 * taken on. A step the gateway did not forward is rolled back, so it is never re-applied.
 *
 * Level `rewrite`: a step that summarises stores its host's entry as `{ kind: "summarize",
 * covers, text: null }`; the report brings what the summariser did (OutcomeReport.summaries):
 * written, the entry takes the text, so every later request re-applies the same block bytes (a
 * text already set is kept: it is the one the provider cached); failed, the entry becomes
 * `drop_pair`, as the gateway forwarded it. This is the one place the session holds conversation
 * text besides the opt-in archive: level `rewrite` is the operator's opt-in (DESIGN invariant 7).
 */
import { z } from "zod";
import type { Ledger, LedgerAdditions, LedgerEntry, LedgerStep } from "../core/policy/ledger";
import type { PairAction } from "../core/plan/types";
import type { StepTerms } from "../core/cost/net-benefit";
import { TIERS, type Tier } from "../core/policy/types";
import type { WrittenSummary } from "./contract";
import { defineTables, execRows, type StateTx } from "./state";

defineTables(["pairs", "ledger", "steps"], `
CREATE TABLE IF NOT EXISTS pairs (pair_id TEXT PRIMARY KEY, first_seen_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS ledger (
  pair_key TEXT PRIMARY KEY, pair_id TEXT NOT NULL, result_hash TEXT NOT NULL, action TEXT NOT NULL, step INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS steps (
  step INTEGER PRIMARY KEY, tier TEXT NOT NULL, at_ms INTEGER NOT NULL, pairs_removed INTEGER NOT NULL,
  tokens_before INTEGER NOT NULL, tokens_after INTEGER NOT NULL, net_benefit_usd REAL NOT NULL, correlation_id TEXT NOT NULL,
  terms TEXT);`);

const pairActionSchema: z.ZodType<PairAction> = z.union([
  z.object({ kind: z.enum(["keep", "drop_result", "drop_pair", "strip_media"]) }),
  z.object({ kind: z.literal("truncate_result"), head_bytes: z.number().int().nonnegative(), tail_bytes: z.number().int().nonnegative().optional() }),
  z.object({ kind: z.literal("summarize"), covers: z.array(z.string()), text: z.string().nullable() }),
]) as z.ZodType<PairAction>;

const termsSchema = z.looseObject({ future_savings: z.number(), cache_miss: z.number(), request_cost: z.number(), distortion: z.number(), quality_gain: z.number(), net: z.number(), remaining_calls: z.number() }) as unknown as z.ZodType<StepTerms>;

/** A stored action; null (counted `state_invalid_ledger_action`) when it fails the schema: the pair is then left as it came. */
function readAction(tx: StateTx, raw: string): PairAction | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  const r = pairActionSchema.safeParse(parsed);
  if (r.success) return r.data;
  tx.add("state_invalid_ledger_action", 1);
  return null;
}

/** Loads the whole ledger (entries with their pair's first-seen time). */
export function loadLedger(tx: StateTx): Ledger {
  const entries: Record<string, LedgerEntry> = {};
  const first_seen: Record<string, number> = {};
  for (const r of tx.sql.exec<{ pair_id: string; first_seen_ms: number }>("SELECT pair_id, first_seen_ms FROM pairs")) first_seen[r.pair_id] = r.first_seen_ms;
  for (const r of tx.sql.exec<{ pair_key: string; pair_id: string; result_hash: string; action: string; step: number }>("SELECT pair_key, pair_id, result_hash, action, step FROM ledger")) {
    const action = readAction(tx, r.action);
    if (action !== null) entries[r.pair_key] = { pair_id: r.pair_id, result_hash: r.result_hash, action, step: r.step, first_seen_ms: first_seen[r.pair_id] ?? 0 };
  }
  const steps: LedgerStep[] = [];
  for (const r of tx.sql.exec<{ step: number; tier: string; at_ms: number; pairs_removed: number; tokens_before: number; tokens_after: number; net_benefit_usd: number }>(
    "SELECT step, tier, at_ms, pairs_removed, tokens_before, tokens_after, net_benefit_usd FROM steps ORDER BY step",
  )) {
    const tier = (TIERS as readonly string[]).includes(r.tier) ? (r.tier as Tier) : "none";
    steps.push({ step: r.step, tier, at_ms: r.at_ms, pair_count: r.pairs_removed, tokens_removed: r.tokens_before - r.tokens_after, net_benefit_usd: r.net_benefit_usd });
  }
  return { entries, first_seen, steps };
}

/** Writes one request's additions: first-seen times, entries, and its step with the request's token figures and the cost model's terms. */
export function saveAdditions(tx: StateTx, add: LedgerAdditions, step: { tokens_before: number; tokens_after: number; correlation_id: string; terms: StepTerms | undefined } | null): void {
  execRows(tx.sql, "INSERT OR IGNORE INTO pairs (pair_id, first_seen_ms) VALUES ", "", Object.entries(add.first_seen));
  execRows(
    tx.sql,
    "INSERT INTO ledger (pair_key, pair_id, result_hash, action, step) VALUES ",
    " ON CONFLICT(pair_key) DO UPDATE SET action = excluded.action, step = excluded.step",
    add.entries.map((e) => [`${e.pair_id}#${e.result_hash}`, e.pair_id, e.result_hash, JSON.stringify(e.action), e.step]),
  );
  if (add.step && step) {
    const s = add.step;
    tx.sql.exec(
      "INSERT OR REPLACE INTO steps (step, tier, at_ms, pairs_removed, tokens_before, tokens_after, net_benefit_usd, correlation_id, terms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
      s.step, s.tier, s.at_ms, s.pair_count, step.tokens_before, step.tokens_after, s.net_benefit_usd, step.correlation_id, step.terms ? JSON.stringify(step.terms) : null,
    );
  }
}

/** Removes step `step` and its entries (the gateway failed open instead of forwarding it). */
export function rollbackStep(tx: StateTx, step: number): void {
  tx.sql.exec("DELETE FROM ledger WHERE step = ?", step);
  tx.sql.exec("DELETE FROM steps WHERE step = ?", step);
}

/** One kept step, for the session's stats. */
export interface StepRow {
  step: number;
  tier: string;
  at_ms: number;
  pairs_removed: number;
  tokens_before: number;
  tokens_after: number;
  correlation_id: string;
  /** The cost model's terms it was taken on (../core/cost/net-benefit.ts); null when stored without them. */
  terms: StepTerms | null;
}

/** The kept steps, oldest first. */
export function stepRows(tx: StateTx): StepRow[] {
  return tx.sql.exec<Omit<StepRow, "terms"> & { terms: string | null }>("SELECT step, tier, at_ms, pairs_removed, tokens_before, tokens_after, correlation_id, terms FROM steps ORDER BY step").toArray()
    .map((r) => {
      const t = r.terms === null ? null : termsSchema.safeParse(JSON.parse(r.terms));
      return { ...r, terms: t?.success ? t.data : null };
    });
}

/** The session's summary counters (names as stored). */
export const SUMMARY_COUNTERS = ["summaries_written", "summaries_failed", "summary_input_tokens", "summary_output_tokens", "summary_cost_usd"] as const;

/** The summaries a session wrote (level rewrite), for its stats. */
export interface SummaryStats {
  written: number;
  failed: number;
  /** Tokens the summariser read and wrote, as it reported them. */
  input_tokens: number;
  output_tokens: number;
  /** USD the summaries cost (0 for the in-process extractive summariser). */
  cost_usd: number;
}

/** SummaryStats from the session's counters. */
export function summaryStats(counters: Record<string, number>): SummaryStats {
  const c = (name: (typeof SUMMARY_COUNTERS)[number]) => counters[name] ?? 0;
  return { written: c("summaries_written"), failed: c("summaries_failed"), input_tokens: c("summary_input_tokens"), output_tokens: c("summary_output_tokens"), cost_usd: c("summary_cost_usd") };
}

/** USD of the written summaries in `summaries` (absent: 0). */
export function summariesCostUsd(summaries: readonly WrittenSummary[] | undefined): number {
  return (summaries ?? []).reduce((s, w) => s + (w.ok ? w.cost_usd : 0), 0);
}

/** Records what the summariser did for each host (module header) and counts it. */
export function recordSummaries(tx: StateTx, summaries: readonly WrittenSummary[]): void {
  for (const w of summaries) {
    for (const row of tx.sql.exec<{ pair_key: string; action: string }>("SELECT pair_key, action FROM ledger WHERE pair_id = ?", w.pair_id).toArray()) {
      const action = readAction(tx, row.action);
      if (action === null || action.kind !== "summarize" || action.text !== null) continue;
      const next: PairAction = w.ok ? { kind: "summarize", covers: action.covers, text: w.text } : { kind: "drop_pair" };
      tx.sql.exec("UPDATE ledger SET action = ? WHERE pair_key = ?", JSON.stringify(next), row.pair_key);
    }
    if (w.ok) {
      tx.add("summaries_written", 1);
      tx.add("summary_input_tokens", w.input_tokens);
      tx.add("summary_output_tokens", w.output_tokens);
      tx.add("summary_cost_usd", w.cost_usd);
    } else tx.add("summaries_failed", 1);
  }
}
