/**
 * The savings ledger's figures as they cross from the session DO to the gateway and the session
 * index (pure data): what one `report` RPC added to a session's ledger. Counts, token-free
 * dollars and milliseconds only (DESIGN invariant 7). Built by src/do/savings-ledger.ts; the
 * model behind every figure: docs/operations.md "The savings ledger".
 */
import type { OutcomeRecorded } from "./step-types";

/** How the session ran: compacting (the edited body went) or measuring (the original went). */
export type LedgerMode = "compact" | "measure";

/** What one report added to the session's ledger. */
export interface LedgerDelta {
  mode: LedgerMode;
  /** 1 when the report carried a request's outcome (the denominator of engine-wait shares), else 0. */
  requests: number;
  /** 1 when the report carried the provider's usage (the call is priced), else 0. */
  priced_calls: number;
  /** Input cost without Sluice, USD: compact — the client's body priced with the session's cache behaviour; measure — from the provider's usage. */
  without_usd: number;
  /** Input cost with Sluice, USD: compact — from the provider's usage; measure — the would-send body priced like the client's. */
  with_usd: number;
  /** What decision engines and the summariser charged, USD (the built-in heuristic and the extractive summariser cost 0). */
  engine_cost_usd: number;
  /** Worst-case loss of the removals this report made final, USD: each removed result re-sent once as uncached input. */
  loss_usd: number;
  /** Pairs newly removed (or, measuring, that would have been). */
  removals: number;
  /** Of `removals`, results of deterministic, re-runnable tools (reads, greps, listings: read-only calls). */
  removals_deterministic: number;
  /** Earlier removals whose same tool call (same tool, same input hash) the client issued again. */
  removals_refetched: number;
  /** Earlier removals whose file path a later call named again (by path hash). */
  removals_mentioned: number;
  /** 1 when the request waited on a decision engine (an HTTP engine consulted in the step), else 0. */
  engine_waits: number;
  /** How long it waited, ms. */
  engine_wait_ms: number;
}

/** A delta with every figure 0. */
export function emptyLedgerDelta(mode: LedgerMode): LedgerDelta {
  return {
    mode, requests: 0, priced_calls: 0, without_usd: 0, with_usd: 0, engine_cost_usd: 0, loss_usd: 0,
    removals: 0, removals_deterministic: 0, removals_refetched: 0, removals_mentioned: 0, engine_waits: 0, engine_wait_ms: 0,
  };
}

/** The numeric fields of a LedgerDelta, in a fixed order (counters, index series). */
export const LEDGER_FIELDS = [
  "requests", "priced_calls", "without_usd", "with_usd", "engine_cost_usd", "loss_usd", "removals", "removals_deterministic",
  "removals_refetched", "removals_mentioned", "engine_waits", "engine_wait_ms",
] as const satisfies readonly Exclude<keyof LedgerDelta, "mode">[];
export type LedgerField = (typeof LEDGER_FIELDS)[number];

/** The answer of the session DO's `report` RPC: what the outcome recorded (null without one) and what the ledger added. */
export interface ReportAnswer {
  recorded: OutcomeRecorded | null;
  ledger: LedgerDelta;
}
