/**
 * Applies an EditPlan to a parsed request by splicing (pure): the adapter compiles the plan into
 * byte deletions (refusing what its provider rules forbid), and the output is the original bytes
 * with those ranges removed — never a re-serialisation (DESIGN §2, case B12). An empty plan, or a
 * plan whose every action is refused, returns the original bytes object itself.
 */
import type { ByteRange } from "../view/types";
import type { EditPlan } from "./types";
import type { ParsedRequest, ProviderAdapter } from "../../providers/types";
import { spliceOut } from "../../providers/shared/splice";

/** Output of applyPlan: the new body, the deletions applied, and the refused pair ids with reasons. */
export interface AppliedPlan {
  bytes: Uint8Array;
  /** Sorted, non-overlapping ranges removed from the original bytes. */
  deletions: ByteRange[];
  /** Pair id → why its action was downgraded to keep. */
  refused: Record<string, string>;
  /** Pair ids whose refused drop_pair was applied as drop_result instead. */
  downgraded: string[];
}

/**
 * Compiles `plan` with `adapter` and splices the deletions out of `parsed.bytes`.
 *
 * Fallback: a `drop_pair` the adapter refuses for a structural reason (removing the emptied
 * message would join two same-role messages, a thinking block shares the call's message, …) on
 * an unlocked pair is retried once as `drop_result` — the call stays, its result shrinks to a
 * short exact head. This is deterministic in the plan and the body, so the sticky ledger still
 * produces byte-identical prefixes (DESIGN invariant 6). Refusals kept in `refused` are those
 * that remain after the fallback; `downgraded` lists the pair ids that fell back.
 */
export function applyPlan(adapter: ProviderAdapter, parsed: ParsedRequest, plan: EditPlan): AppliedPlan {
  let compiled = adapter.compile(parsed, plan);
  const unlocked = new Set(parsed.view.pairs.filter((p) => p.locked === null).map((p) => p.id));
  const downgraded = Object.keys(compiled.refused).filter((id) => plan.actions[id]?.kind === "drop_pair" && unlocked.has(id));
  if (downgraded.length > 0) {
    const actions = { ...plan.actions };
    for (const id of downgraded) actions[id] = { kind: "drop_result" };
    compiled = adapter.compile(parsed, { actions });
  }
  return { bytes: spliceOut(parsed.bytes, compiled.deletions), deletions: compiled.deletions, refused: compiled.refused, downgraded };
}
