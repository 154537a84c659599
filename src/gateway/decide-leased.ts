/**
 * A lease holder's own step for one request (shell over ../core/policy/step-lease.ts): with a
 * usable lease for the session, runs the core over the slim view — the values the DO would get
 * (localSlimView: without the RPC's plain copies) —
 * and, when that takes no step, advances the lease and returns the step answer together with
 * what the DO must record after the answer (the LeasedCall). Null: ask the DO. A throw inside
 * the core drops the lease and asks the DO (which fails open in its own way).
 */
import type { CompactionConfig } from "../config/schema";
import { advanceLease, leaseApplies, leasedStep, type StepLease } from "../core/policy/step-lease";
import type { ConversationView } from "../core/view/types";
import { localSlimView, stepOutputOf, type LeasedCall, type StepOutput } from "../do/step-types";
import type { LeaseStore } from "./lease-store";

/** The request as decided by the holder. */
export interface LeasedDecision {
  out: StepOutput;
  call: LeasedCall;
}

/** The lease `leases` holds for `sid` that covers a request at `now_ms` under config key `key` (usable and applying), or undefined. */
export function leaseInForce(leases: LeaseStore, sid: string, key: string, now_ms: number): StepLease | undefined {
  const lease = leases.usable(sid);
  return lease !== undefined && leaseApplies(lease, key, now_ms) ? lease : undefined;
}

/** Decides `view` of session `sid` at `now_ms` (epoch ms) under the lease held for it, or returns null. */
export function decideLeased(leases: LeaseStore, sid: string, key: string, view: ConversationView, config: CompactionConfig, now_ms: number, correlation_id: string): LeasedDecision | null {
  // Checked before the view is slimmed: a request past its lease goes to the DO, which gets its own slim view.
  const lease = leaseInForce(leases, sid, key, now_ms);
  if (lease === undefined) return null;
  let result;
  try {
    result = leasedStep(lease, key, localSlimView(view), config, now_ms, correlation_id);
  } catch {
    leases.drop(sid);
    return null;
  }
  if (result === null) return null;
  leases.set(sid, advanceLease(lease, now_ms, result));
  const out = stepOutputOf(result);
  return { out, call: { now_ms, model: view.model, provider: view.provider, tier: out.tier, first_seen: result.ledger_additions.first_seen } };
}
