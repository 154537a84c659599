/**
 * Removals Sluice undid between two consecutive requests (pure): the sticky ledger re-applies
 * every removal (DESIGN invariant 6) except where it may not — a pair a later result refers back
 * to is locked while the reference is in the history (DESIGN §6), a pair whose result changed is
 * not re-edited, a pair back in the recent turns is protected (../policy/ledger.ts
 * reapplyLedger). Such a pair is "held back". A pair held back now that was not held back on
 * the previous request was removed there (its ledger entry existed, it was not held back) and is
 * present again now: the forwarded history changes at it although the client changed nothing
 * there, which the cache-breaker diagnostics name `sluice_restore` (./diagnose-break.ts).
 * Pair ids only, never text (DESIGN invariant 7).
 */
import type { StepFacts } from "../facts/step-facts";
import type { EditPlan } from "../plan/types";
import { ledgerKey, type Ledger, type LedgerEntry } from "../policy/ledger";
import type { SluiceRestore } from "./diagnose-break";
import { firstEditedMessage } from "../plan/first-edited-message";

/**
 * Ids of the pairs of `view` that `ledger` (the session's ledger before this request) decided
 * and `plan` (this request's whole plan) leaves in place, in the view's pair order. [] when the
 * ledger is empty.
 */
export function heldBackPairs(view: StepFacts, ledger: Ledger, plan: EditPlan): string[] {
  let ids: Set<string> | null = null;
  const out: string[] = [];
  for (const p of view.pairs) {
    const action = plan.actions[p.id];
    if (action !== undefined && action.kind !== "keep") continue;
    if (ledger.entries[ledgerKey(p.id, p.result_hash)] === undefined) {
      // A changed result is under its old key: look the id up (built once, only when needed).
      ids ??= new Set(Object.values(ledger.entries).map((e) => e.pair_id));
      if (!ids.has(p.id)) continue;
    }
    out.push(p.id);
  }
  return out;
}

/**
 * The removals undone on this request: pairs held back now (`held`, from heldBackPairs) but not
 * on the previous request (`previous_held`; null when unknown: the previous request took no step
 * in compact mode, or its list was over the host's bound — then nothing is claimed). The first
 * message a restored pair comes back in is its call's when the ledger had removed the whole pair
 * (`drop_pair`), else its result's. Null when nothing was restored.
 */
export function restoredPairs(view: StepFacts, ledger: Ledger, held: readonly string[], previous_held: readonly string[] | null): SluiceRestore | null {
  if (previous_held === null || held.length === 0) return null;
  const before = new Set(previous_held);
  const back = new Set(held.filter((id) => !before.has(id)));
  if (back.size === 0) return null;
  const actionOf = new Map<string, LedgerEntry["action"]>();
  for (const e of Object.values(ledger.entries)) if (back.has(e.pair_id)) actionOf.set(e.pair_id, e.action);
  let first = Number.POSITIVE_INFINITY;
  for (const p of view.pairs) {
    if (!back.has(p.id)) continue;
    first = Math.min(first, firstEditedMessage(p, actionOf.get(p.id)?.kind));
  }
  return { message_index: first, pairs: back.size };
}
