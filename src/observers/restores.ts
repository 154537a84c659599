/**
 * Which removals Sluice undid on a request, for the cache-breaker diagnostics (shell over a slot of the
 * session's state; ../core/cache/restored-pairs.ts decides): each call keeps the ids of the
 * ledger pairs it held back (a reference lock, a changed result, the recent turns), so the next
 * call can tell which pairs it restored. Ids only, bounded (DESIGN invariant 7).
 */
import type { SluiceRestore } from "../core/cache/diagnose-break";
import { heldBackPairs, restoredPairs } from "../core/cache/restored-pairs";
import type { StepFacts } from "../core/facts/step-facts";
import type { Ledger } from "../core/policy/ledger";
import type { TierResult } from "../core/policy/types";
import { z } from "zod";
import { defineSlot, type StateTx } from "../session/state";

/** The last call's held-back pairs (ids null: over the bound); null: none kept. */
const HELD = defineSlot<{ call: number; ids: string[] | null } | null>("cache_held_back", z.object({ call: z.number(), ids: z.array(z.string()).nullable() }).nullable(), () => null);
/**
 * Held-back pair ids kept for the next call at most (../core/cache/restored-pairs.ts): they are
 * the few ledger pairs a reference, a changed result or the recent turns keep in place; past
 * this many the list is not kept and the next call claims no restore.
 */
export const MAX_HELD_IDS = 512;

/**
 * The removals Sluice undid on this request (call `call`, 1-based), against the held-back pairs
 * the session kept from the previous call, and keeps this call's for the next one (ids only,
 * at most MAX_HELD_IDS). `ledger` is the session's ledger before this request. Null in
 * measurement mode (nothing removed reaches the provider) and when the previous call's list is
 * missing (a disabled call, measurement mode, or over the bound).
 */
export function noteRestores(tx: StateTx, ledger: Ledger, result: TierResult, facts: StepFacts, call: number, mode: "compact" | "measure"): SluiceRestore | null {
  const kept = tx.get(HELD);
  if (mode !== "compact") {
    tx.set(HELD, null);
    return null;
  }
  const held = heldBackPairs(facts, ledger, result.plan);
  tx.set(HELD, { call, ids: held.length <= MAX_HELD_IDS ? held : null });
  const previous = kept !== null && kept.call === call - 1 ? kept.ids : null;
  return restoredPairs(facts, ledger, held, previous);
}

/**
 * After a call whose edited body was not forwarded (any outcome but `compacted`): its held-back
 * list no longer says what the provider saw removed, so the next call claims no restore.
 */
export function forgetRestores(tx: StateTx): void {
  tx.set(HELD, null);
}
