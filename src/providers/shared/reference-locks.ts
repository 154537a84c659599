/**
 * Applies the core's reference locks (src/core/engine/referenced-results.ts) in an adapter's
 * `read` (pure): the view's pairs get the lock, and so do the adapter's own located pairs, which
 * its plan compiler screens (./screen-plan.ts), so a plan naming a referred-to result is refused
 * with the lock's reason instead of reaching the guarantee checker.
 */
import type { ToolPair } from "../../core/view/types";
import { lockReferencedResults, REFERENCED_LOCK } from "../../core/engine/referenced-results";
import type { ToolCallMemo } from "../../core/engine/read-tool-call-memo";

/** Locks the referred-to pairs of `pairs` and, by id, of `located` (the adapter's pairs, may be the same objects); `calls` classifies the calls. */
export function applyReferenceLocks(pairs: ToolPair[], calls: ToolCallMemo, located: readonly { id: string; locked: string | null }[] = []): void {
  const ids = new Set(lockReferencedResults(pairs, calls));
  if (ids.size === 0) return;
  for (const p of located) if (p.locked === null && ids.has(p.id)) p.locked = REFERENCED_LOCK;
}
