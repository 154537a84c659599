/**
 * Results a later result refers back to (pure, over the view's pairs; DESIGN §6): a reference
 * reply (./reference-replies.ts, e.g. Claude Code's "file unchanged … Refer to that earlier
 * tool_result") points at the latest earlier full result of the same read — same paths and the
 * same line range, else the same paths — one that did not fail and is not itself a reference
 * reply. That result is locked (REFERENCED_LOCK) while the reply is in the history, so no tier,
 * engine verdict, ledger entry or plan removes or cuts it: every consumer already leaves a
 * locked pair as it came, and the guarantee checker fails any change to one.
 */
import type { ToolPair } from "../view/types";
import { isReferenceReply } from "./reference-replies";
import { resultLooksFailed, type ToolCallInfo } from "./read-tool-call";
import type { ToolCallMemo } from "./read-tool-call-memo";

/** Lock reason (ToolPair.locked) of a result a later reference reply points at. */
export const REFERENCED_LOCK = "referenced_by_later_result";

type Read = Extract<ToolCallInfo, { kind: "read" }>;

/** Whether `pair`'s call is a read and its result a reference reply; the read when so. */
function referenceRead(pair: ToolPair, calls: ToolCallMemo): Read | null {
  if (!isReferenceReply(pair)) return null;
  const info = calls.read(pair);
  return info.kind === "read" ? info : null;
}

const samePaths = (a: Read, b: Read): boolean => a.paths.length === b.paths.length && a.paths.every((p) => b.paths.includes(p));
const sameRange = (a: Read, b: Read): boolean => (a.range === null ? b.range === null : b.range !== null && a.range.from === b.range.from && a.range.to === b.range.to);

/**
 * Referred pair id → ids of the reference replies pointing at it, in call order. `pairs` in any
 * order (sorted here by call position). Reads no result text but those of short results, and
 * classifies calls (through `calls`) only when a reference reply exists.
 */
export function referencedResults(pairs: readonly ToolPair[], calls: ToolCallMemo): Map<string, string[]> {
  const out = new Map<string, string[]>();
  // Most histories hold no reply: one cheap pass (short results only) before any sort or classification.
  if (!pairs.some(isReferenceReply)) return out;
  const ordered = [...pairs].sort((a, b) => a.call.message_index - b.call.message_index || a.call.block_index - b.call.block_index);
  for (let i = 0; i < ordered.length; i++) {
    const ref = referenceRead(ordered[i]!, calls);
    if (ref === null) continue;
    let exact: ToolPair | undefined;
    let samePath: ToolPair | undefined;
    for (let j = i - 1; j >= 0 && exact === undefined; j--) {
      const p = ordered[j]!;
      const info = calls.read(p);
      if (info.kind !== "read" || !samePaths(info, ref) || isReferenceReply(p) || resultLooksFailed(p)) continue;
      if (sameRange(info, ref)) exact = p;
      else samePath ??= p;
    }
    const target = exact ?? samePath;
    if (target === undefined) continue;
    const list = out.get(target.id);
    if (list) list.push(ordered[i]!.id);
    else out.set(target.id, [ordered[i]!.id]);
  }
  return out;
}

/**
 * Locks every unlocked pair a reference reply points at (`locked = REFERENCED_LOCK`; a pair
 * already locked keeps its reason). Mutates `pairs`: the adapters call it on the fresh pairs of
 * a view before returning it. Returns the ids locked here.
 */
export function lockReferencedResults(pairs: ToolPair[], calls: ToolCallMemo): string[] {
  const referred = referencedResults(pairs, calls);
  const locked: string[] = [];
  if (referred.size === 0) return locked;
  for (const p of pairs) {
    if (p.locked !== null || !referred.has(p.id)) continue;
    p.locked = REFERENCED_LOCK;
    locked.push(p.id);
  }
  return locked;
}
