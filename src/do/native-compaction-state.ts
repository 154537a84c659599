/**
 * The session's server-side compaction state in its meta (shell over
 * ../core/policy/native-compaction.ts): `none` until the provider reports a compaction iteration
 * for Sluice's edit (`answered`, set by the answer's report), then `returned` or `dropped` by the
 * next request (whether its history carries the compaction block back).
 */
import { nextCompactionState, type CompactionState } from "../core/policy/native-compaction";
import type { StepFacts } from "../core/facts/step-facts";
import type { SessionStore } from "./session-store";

/** Meta key of the session's CompactionState. */
export const COMPACTION_STATE_META = "native_compaction";

const STATES: ReadonlySet<string> = new Set<CompactionState>(["none", "answered", "returned", "dropped"]);

/** The stored state (`none` when unset or unknown). */
export function compactionState(store: SessionStore): CompactionState {
  const v = store.getMeta(COMPACTION_STATE_META);
  return v !== null && STATES.has(v) ? (v as CompactionState) : "none";
}

/**
 * The state a request with `facts` finds (what the step decides with) and stores what it leaves:
 * `answered` moves to `returned` or `dropped` (counted as `native_compaction_dropped`).
 */
export function advanceCompactionState(store: SessionStore, facts: Pick<StepFacts, "compaction_message">): CompactionState {
  const before = compactionState(store);
  const after = nextCompactionState(before, facts);
  if (after !== before) {
    store.setMeta(COMPACTION_STATE_META, after);
    if (after === "dropped") store.add("native_compaction_dropped", 1);
  }
  return after;
}
