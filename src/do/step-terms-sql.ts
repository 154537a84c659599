/**
 * The cost model's terms of each step a session took (shell over the session's SQL table
 * `step_terms`, ./session-store.ts): USD, tokens and call counts only, one JSON row per step,
 * deleted with the step when it is rolled back (./ledger-sql.ts rollbackStep). Read by the
 * session's stats (./session-stats.ts, `GET /admin/sessions/:id`).
 */
import type { StepTerms } from "../core/cost/net-benefit";

/** Stores `terms` as step `step`'s (replacing a row of the same number). */
export function saveStepTerms(sql: SqlStorage, step: number, terms: StepTerms): void {
  sql.exec("INSERT OR REPLACE INTO step_terms (step, terms) VALUES (?, ?)", step, JSON.stringify(terms));
}

/** The stored terms by step number. */
export function loadStepTerms(sql: SqlStorage): Map<number, StepTerms> {
  const out = new Map<number, StepTerms>();
  for (const r of sql.exec<{ step: number; terms: string }>("SELECT step, terms FROM step_terms")) out.set(r.step, JSON.parse(r.terms) as StepTerms);
  return out;
}
