/**
 * Applies an EditPlan to a parsed request by splicing (pure): the adapter compiles the plan into
 * byte deletions (refusing what its provider rules forbid), and the output is the original bytes
 * with those ranges removed — never a re-serialisation (DESIGN §2, case B12). At guarantee level
 * `placeholders` the one fixed marker of ./placeholder.ts is also inserted where each result cut
 * begins; at any level, a `summarize` action's block (./summary-block.ts; only level `rewrite`
 * plans carry one) is inserted where its host result's emptied text begins. An empty plan, or a
 * plan whose every action is refused, returns the original bytes object itself.
 */
import type { ByteRange } from "../view/types";
import type { EditPlan } from "./types";
import type { CompiledPlan, ParsedRequest, ProviderAdapter } from "../../providers/types";
import { spliceOut } from "../../providers/shared/splice";
import { placeholderBytes, type Insertion, type PlaceholderOptions } from "./placeholder";
import { summaryBlockBytes } from "./summary-block";

/** Output of applyPlan: the new body, the deletions applied, and the refused pair ids with reasons. */
export interface AppliedPlan {
  bytes: Uint8Array;
  /** Sorted, non-overlapping ranges removed from the original bytes. */
  deletions: ByteRange[];
  /** Markers (level `placeholders` only) and summary blocks inserted, offsets in the original bytes; [] when the plan has neither. */
  insertions: Insertion[];
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
 *
 * `placeholders` (level `placeholders` only; null at `strict`, where nothing is inserted): each
 * applied drop_result / truncate_result gets its pair's marker at the adapter's anchor. One with
 * no anchor is kept instead (refused "no_marker_place"), so at this level no result is cut
 * without its marker. Drop_pair and strip_media carry no marker (docs/configuration.md).
 *
 * `summarize` (with its text written): the block goes at the adapter's anchor for the host; a
 * host with no anchor is kept whole (refused "no_summary_place"), never half-applied. Its covered
 * pairs carry their own drop_pair in the plan and are applied (or fall back) as above.
 */
export function applyPlan(adapter: ProviderAdapter, parsed: ParsedRequest, plan: EditPlan, placeholders: PlaceholderOptions | null = null): AppliedPlan {
  let compiled = adapter.compile(parsed, plan);
  let actions = plan.actions;
  const unlocked = new Set(parsed.view.pairs.filter((p) => p.locked === null).map((p) => p.id));
  const downgraded = Object.keys(compiled.refused).filter((id) => plan.actions[id]?.kind === "drop_pair" && unlocked.has(id));
  if (downgraded.length > 0) {
    actions = { ...actions };
    for (const id of downgraded) actions[id] = { kind: "drop_result" };
    compiled = adapter.compile(parsed, { actions });
  }
  const unplaced = withoutPlace(actions, compiled, placeholders !== null);
  if (unplaced.length > 0) {
    actions = { ...actions };
    for (const id of unplaced) delete actions[id];
    const kinds = new Map(unplaced.map((id) => [id, plan.actions[id]?.kind === "summarize" ? "no_summary_place" : "no_marker_place"]));
    compiled = adapter.compile(parsed, { actions });
    for (const [id, why] of kinds) compiled.refused[id] = why;
  }
  const insertions: Insertion[] = [];
  for (const [id, at] of Object.entries(compiled.anchors ?? {})) {
    const a = actions[id];
    if (a === undefined || compiled.refused[id] !== undefined) continue;
    if (a.kind === "summarize" && a.text !== null) insertions.push({ at, bytes: summaryBlockBytes(a.covers.length, a.text) });
    else if (placeholders !== null && isCut(a.kind)) insertions.push({ at, bytes: placeholderBytes(id, placeholders) });
  }
  return { bytes: spliceOut(parsed.bytes, compiled.deletions, insertions), deletions: compiled.deletions, insertions, refused: compiled.refused, downgraded };
}

function isCut(kind: string | undefined): boolean {
  return kind === "drop_result" || kind === "truncate_result";
}

/** Applied summaries (and, with `markers`, result cuts) the adapter found no place for. */
function withoutPlace(actions: EditPlan["actions"], compiled: CompiledPlan, markers: boolean): string[] {
  return Object.entries(actions)
    .filter(([id, a]) => (a.kind === "summarize" || (markers && isCut(a.kind))) && compiled.refused[id] === undefined && compiled.anchors?.[id] === undefined)
    .map(([id]) => id);
}
