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
}

/** Compiles `plan` with `adapter` and splices the deletions out of `parsed.bytes`. */
export function applyPlan(adapter: ProviderAdapter, parsed: ParsedRequest, plan: EditPlan): AppliedPlan {
  const compiled = adapter.compile(parsed, plan);
  return { bytes: spliceOut(parsed.bytes, compiled.deletions), deletions: compiled.deletions, refused: compiled.refused };
}
