/**
 * EditPlan → byte deletions for an Anthropic Messages body (pure). Every rule:
 * 1. Locked pairs (server-managed history, last assistant turn, cache_control anywhere on the pair,
 *    thinking prefix) stay `keep`; so do ids that are not pairs (orphans never change).
 * 2. `drop_pair` removes the tool_use and the tool_result blocks; a message left with no blocks is
 *    removed too. Refused when the call's message must be echoed unchanged (thinking or
 *    redacted_thinking, B03; a fallback block; an MCP tool listing: the `frozen_message` rules of
 *    ../dependencies.ts, refused with their code, e.g. "thinking_in_message"), or when removing messages would put two same-role user or
 *    assistant messages side by side or move a non-user message first (B01), or would leave a
 *    mid-conversation system message without a user message directly before it or an assistant
 *    message directly after it (./locate-blocks.ts `mayPrecedeSystem`): then only the one pair
 *    whose blocks keep that neighbour message is refused ("would_orphan_system"), so the message
 *    stays (applyPlan retries the pair as drop_result: the message stays as a short stub).
 * 3. `drop_result` keeps a short exact head (DROP_RESULT_HEAD_BYTES) of the result's first text;
 *    `truncate_result` keeps `head_bytes` (+ `tail_bytes`) of the result text; both cut only
 *    between whole characters/escapes and keep at least one non-whitespace character (an empty or
 *    whitespace-only text block is rejected: B14). Media parts are left to `strip_media`.
 * 4. `strip_media` removes image/document parts of the result; refused when nothing would remain.
 * 5. `summarize` (level `rewrite`, text written) empties the result — every part but the first
 *    text block goes, that block's text is emptied — and the block of src/core/plan/summary-block.ts
 *    goes into it (../shared/summary-place.ts); a result without a text literal (no content, only
 *    media) is refused ("no_summary_place").
 */
import type { ByteRange } from "../../core/view/types";
import type { EditPlan, PairAction } from "../../core/plan/types";
import type { CompiledPlan, ParsedRequest } from "../types";
import type { ToolPair } from "../../core/view/types";
import { mergeRanges } from "../shared/splice";
import { deleteItems } from "../shared/delete-items";
import { boundaryAtOrAfter, boundaryAtOrBefore, isWhitespaceUnit, unitLength } from "../shared/cut-string";
import { getMember } from "../shared/json-scan";
import { frozenBy, locateHistory, mayFollowSystem, mayPrecedeSystem, resultParts, type ArrayNode, type LocatedBlock, type LocatedHistory, type ResultParts, type StringNode } from "./locate-blocks";
import type { AnthropicMemos } from "../../core/caches";
import { isMediaPart } from "./wire";
import type { ResultAction } from "../shared/edit-result-content";
import { screenPlan } from "../shared/screen-plan";
import { DROP_RESULT_HEAD_BYTES } from "../../core/plan/drop-result-head";
import { markerPlace } from "../../core/plan/placeholder";
import { summaryPlace } from "../shared/summary-place";
import { partType } from "../shared/edit-result-content";
import { codeOf } from "../dependencies";



/** The result actions that cut or strip (summarize takes ../shared/summary-place.ts). */
type CutAction = Exclude<ResultAction, { kind: "summarize" }>;

/** Compiles `plan` into deletions over `parsed.bytes`. Never throws for a plan over known ids. */
export function compileAnthropic(parsed: ParsedRequest, plan: EditPlan): CompiledPlan {
  const { bytes, view } = parsed;
  const pairs = new Map(view.pairs.map((p) => [p.id, p]));
  // 1. Screen requests (shared): server-managed, unknown ids, locks; then thinking siblings.
  const screened = screenPlan(plan, pairs, view.server_managed !== null);
  const { refused, resultEdits } = screened;
  if (view.server_managed !== null) return { deletions: [], refused };
  const memos = parsed.caches.anthropic;
  const history = locateHistory(bytes, parsed.root, memos);
  const dropPairs = new Map<string, ToolPair>();
  for (const pair of screened.drops) {
    // A message that must go back unchanged (signed thinking, a fallback block, an MCP tool listing) keeps its calls.
    const frozen = frozenBy(history.messages[pair.call.message_index]!);
    if (frozen !== undefined) refused[pair.id] = codeOf(frozen);
    else dropPairs.set(pair.id, pair);
  }

  // 2. Message removals, refusing drops that would break role order (repeat until stable).
  let removed = messagesLeftEmpty(history, dropPairs);
  for (;;) {
    const culprit = firstRoleViolation(history, removed);
    if (culprit === null) break;
    const keeper = culprit.keep === undefined ? undefined : pairKeeping(dropPairs, culprit.keep);
    if (keeper !== undefined) {
      refused[keeper.id] = culprit.reason;
      dropPairs.delete(keeper.id);
    } else {
      for (const [id, p] of dropPairs) {
        if (p.call.message_index >= culprit.from && p.call.message_index < culprit.to || p.result.message_index >= culprit.from && p.result.message_index < culprit.to) {
          refused[id] = culprit.reason;
          dropPairs.delete(id);
        }
      }
    }
    removed = messagesLeftEmpty(history, dropPairs);
  }

  // 3. Deletions.
  const deletions: ByteRange[] = [...deleteItems(history.messagesNode, removed)];
  const dropBlocks = new Map<number, Set<number>>();
  for (const p of dropPairs.values()) {
    for (const pos of [p.call, p.result]) {
      if (removed.has(pos.message_index)) continue;
      let set = dropBlocks.get(pos.message_index);
      if (!set) dropBlocks.set(pos.message_index, (set = new Set()));
      set.add(pos.block_index);
    }
  }
  for (const [mi, set] of dropBlocks) deletions.push(...deleteItems(history.messages[mi]!.content as ArrayNode, set));
  const anchors: Record<string, number> = {};
  for (const [pair, action] of resultEdits) {
    if (action.kind === "summarize") {
      const block = history.messages[pair.result.message_index]!.blocks[pair.result.block_index]!;
      const place = summaryPlace(getMember(block.node, "content"), (n) => partType(bytes, n) === "text");
      if ("refused" in place) refused[pair.id] = place.refused;
      else {
        deletions.push(...place.deletions);
        anchors[pair.id] = place.anchor;
      }
      continue;
    }
    const out = resultDeletions(bytes, history, pair, action, memos);
    if (typeof out === "string") {
      refused[pair.id] = out;
      continue;
    }
    deletions.push(...out.ranges);
    const place = action.kind === "strip_media" ? null : markerPlace(out.texts, out.ranges);
    if (place !== null) anchors[pair.id] = place;
  }
  return { deletions: mergeRanges(deletions, bytes.length), refused, ...(Object.keys(anchors).length > 0 ? { anchors } : {}) };
}

/** Indices of messages whose every block is a tool block of a dropped pair. */
function messagesLeftEmpty(history: LocatedHistory, dropPairs: Map<string, ToolPair>): Set<number> {
  const dropped = new Map<number, number>();
  for (const p of dropPairs.values()) for (const pos of [p.call, p.result]) dropped.set(pos.message_index, (dropped.get(pos.message_index) ?? 0) + 1);
  const out = new Set<number>();
  for (const [mi, n] of dropped) if (history.messages[mi]!.blocks.length === n) out.add(mi);
  return out;
}

/**
 * The first stretch of removed messages that breaks role order, as a message-index range
 * [from, to). `keep`: for a system message's neighbour, the one removed message whose keeping
 * mends the order (the input neighbour of the system message).
 */
function firstRoleViolation(history: LocatedHistory, removed: Set<number>): { from: number; to: number; reason: string; keep?: number } | null {
  if (removed.size === 0) return null;
  const msgs = history.messages;
  let prev = -1;
  for (let i = 0; i < msgs.length; i++) {
    if (removed.has(i)) continue;
    if (prev === -1 && i > 0 && msgs[i]!.role !== msgs[0]!.role) return { from: 0, to: i, reason: codeOf("anthropic.user_first") };
    if (prev !== -1 && i > prev + 1) {
      const [a, b] = [msgs[prev]!, msgs[i]!];
      if (a.role === b.role && a.role !== "system") return { from: prev + 1, to: i, reason: "would_merge_roles" };
      // Judged on content-bearing and directive-only system messages alike (stricter than the API, never looser):
      // a removal never makes two system messages neighbours, though the API may read a run of them as one.
      if (b.role === "system" && !mayPrecedeSystem(a)) return { from: prev + 1, to: i, reason: codeOf("anthropic.system_after_user"), keep: i - 1 };
      if (a.role === "system" && b.role !== "system" && !mayFollowSystem(b)) return { from: prev + 1, to: i, reason: codeOf("anthropic.system_after_user"), keep: prev + 1 };
    }
    prev = i;
  }
  if (prev === -1) return { from: 0, to: msgs.length, reason: "would_empty_history" };
  return null;
}

/**
 * The dropped pair to refuse so that message `mi` stays: of the pairs with a block in it, the one
 * with the last block (any would do, since the pair's other block stays too; a fixed choice makes
 * the same plan refuse the same pair on every request, DESIGN invariant 6).
 */
function pairKeeping(dropPairs: Map<string, ToolPair>, mi: number): ToolPair | undefined {
  let best: { pair: ToolPair; block: number } | undefined;
  for (const p of dropPairs.values()) {
    for (const pos of [p.call, p.result]) {
      if (pos.message_index !== mi) continue;
      if (best === undefined || pos.block_index > best.block) best = { pair: p, block: pos.block_index };
    }
  }
  return best?.pair;
}

/** Deletions inside one tool_result for a result-only action with the result's text literals (in order), or a refusal reason. */
function resultDeletions(bytes: Uint8Array, history: LocatedHistory, pair: ToolPair, action: CutAction, memos: AnthropicMemos): { ranges: ByteRange[]; texts: StringNode[] } | string {
  const block = history.messages[pair.result.message_index]!.blocks[pair.result.block_index]!;
  const content = getMember(block.node, "content");
  if (!content) return { ranges: [], texts: [] };
  if (content.type === "string") {
    const texts = [content];
    switch (action.kind) {
      case "strip_media":
        return { ranges: [], texts };
      case "drop_result":
        return { ranges: cutText(texts, bytes, DROP_RESULT_HEAD_BYTES, 0).ranges, texts };
      case "truncate_result":
        return { ranges: cutText(texts, bytes, action.head_bytes, action.tail_bytes ?? 0).ranges, texts };
    }
  }
  return partDeletions(bytes, block, action, memos);
}

/** resultDeletions for a tool_result whose content is an array of parts. */
function partDeletions(bytes: Uint8Array, block: LocatedBlock, action: CutAction, memos: AnthropicMemos): { ranges: ByteRange[]; texts: StringNode[] } | string {
  const rp = resultParts(bytes, block, "tool_result", memos);
  if (!rp) return "unexpected_content";
  const texts: { index: number; node: StringNode }[] = [];
  for (const p of rp.parts) {
    const t = getMember(p.node, "text");
    if (p.type === "text" && t?.type === "string" && t.end - t.start > 2) texts.push({ index: p.index, node: t });
  }
  const ranges = partRanges(bytes, rp, texts, action);
  return typeof ranges === "string" ? ranges : { ranges, texts: texts.map((t) => t.node) };
}

/** The deletions of partDeletions, given the parts and the non-empty text parts (in order), or a refusal reason. */
function partRanges(bytes: Uint8Array, rp: ResultParts, texts: { index: number; node: StringNode }[], action: CutAction): ByteRange[] | string {
  switch (action.kind) {
    case "strip_media": {
      const media = new Set(rp.parts.filter((p) => isMediaPart(p.type)).map((p) => p.index));
      if (media.size === 0) return [];
      if (media.size === rp.parts.length) return "media_only_result";
      return deleteItems(rp.content, media);
    }
    case "drop_result": {
      if (texts.length === 0) return "no_text_to_keep";
      const first = texts[0]!;
      const others = new Set(rp.parts.map((p) => p.index).filter((i) => i !== first.index));
      return [...deleteItems(rp.content, others), ...cutText([first.node], bytes, DROP_RESULT_HEAD_BYTES, 0).ranges];
    }
    case "truncate_result": {
      if (texts.length === 0) return [];
      const cut = cutText(texts.map((t) => t.node), bytes, action.head_bytes, action.tail_bytes ?? 0);
      const whole = new Set(cut.wholeDeleted.map((k) => texts[k]!.index));
      return [...deleteItems(rp.content, whole), ...cut.ranges];
    }
  }
}

/**
 * Cuts a sequence of string literals (the result's text, in order) to an exact head of about
 * `head` raw bytes and tail of about `tail` raw bytes. Returns ranges inside literals and the
 * positions (in `lits`) of literals removed whole (their array elements must be deleted).
 * The head keeps at least one non-whitespace unit; a whitespace-only tail is dropped.
 */
export function cutText(lits: StringNode[], bytes: Uint8Array, head: number, tail: number): { ranges: ByteRange[]; wholeDeleted: number[] } {
  const lens = lits.map((l) => l.end - l.start - 2);
  const total = lens.reduce((a, b) => a + b, 0);
  if (head + tail >= total) return { ranges: [], wholeDeleted: [] };
  // Head cut: literal hk, absolute offset hc.
  let hk = 0;
  let left = Math.max(head, 1);
  while (hk < lits.length - 1 && left > lens[hk]!) { left -= lens[hk]!; hk++; }
  let hc = boundaryAtOrBefore(bytes, lits[hk]!, lits[hk]!.start + 1 + left);
  hc = extendPastWhitespace(bytes, lits, hk, hc);
  if (hc < 0) return { ranges: [], wholeDeleted: [] }; // all text is whitespace: nothing sensible to cut
  // Tail cut: literal tk, absolute offset tc (tc = literal end when no tail).
  let tk = lits.length - 1;
  let tc = lits[tk]!.end - 1;
  if (tail > 0) {
    let need = tail;
    while (tk > 0 && need >= lens[tk]!) { need -= lens[tk]!; tk--; }
    tc = boundaryAtOrAfter(bytes, lits[tk]!, lits[tk]!.end - 1 - need);
    if (isBlank(bytes, tc, lits[tk]!.end - 1) && !(tk === hk)) { tk = lits.length - 1; tc = lits[tk]!.end - 1; }
  }
  if (tk < hk || (tk === hk && tc <= hc)) return { ranges: [], wholeDeleted: [] };
  const ranges: ByteRange[] = [];
  const wholeDeleted: number[] = [];
  if (tk === hk) ranges.push({ start: hc, end: tc });
  else {
    ranges.push({ start: hc, end: lits[hk]!.end - 1 });
    for (let k = hk + 1; k < tk; k++) wholeDeleted.push(k);
    if (tc === lits[tk]!.end - 1 && tail > 0) wholeDeleted.push(tk);
    else if (tail > 0) ranges.push({ start: lits[tk]!.start + 1, end: tc });
    else wholeDeleted.push(tk);
  }
  return { ranges: ranges.filter((r) => r.end > r.start), wholeDeleted };
}

/** Moves a head cut forward until the kept head (of literal k) holds a non-whitespace unit; -1 if none exists. */
function extendPastWhitespace(bytes: Uint8Array, lits: StringNode[], k: number, cut: number): number {
  const lit = lits[k]!;
  if (!isBlank(bytes, lit.start + 1, cut)) return cut;
  let p = cut;
  const end = lit.end - 1;
  while (p < end && isWhitespaceUnit(bytes, p)) p += unitLength(bytes, p);
  if (p >= end) return -1;
  return p + unitLength(bytes, p);
}

/** Whether the raw literal bytes [from, to) are empty or only whitespace units. */
function isBlank(bytes: Uint8Array, from: number, to: number): boolean {
  let p = from;
  while (p < to) {
    if (!isWhitespaceUnit(bytes, p)) return false;
    p += unitLength(bytes, p);
  }
  return true;
}
