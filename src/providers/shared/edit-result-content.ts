/**
 * Result-side edits on an OpenAI-style tool result value (pure): a JSON string, or an array of
 * typed parts (`{type:"text",text}` in Chat tool messages; `input_text` / `input_image` /
 * `input_file` in Responses `*_output` items). Returns byte deletions, never new bytes; never
 * leaves an empty string where there was text, nor an empty parts array.
 */
import type { ByteRange } from "../../core/view/types";
import type { PairAction } from "../../core/plan/types";
import { getMember, stringValue, type JsonNode } from "./json-scan";
import { cutStringMiddle, literalContentBytes } from "./cut-string-middle";
import { DROP_RESULT_HEAD_BYTES } from "../../core/plan/drop-result-head";
import { removeArrayItems } from "./remove-json-items";
import { markerPlace } from "../../core/plan/placeholder";
import { summaryPlace } from "./summary-place";

/** Which part `type` values carry text (in a `text` member) and which are media. */
export interface PartKinds {
  text: ReadonlySet<string>;
  media: ReadonlySet<string>;
}

/** A result-side action (drop_pair and keep are handled by the adapter; summarize only with its text written, ./screen-plan.ts). */
export type ResultAction = Extract<PairAction, { kind: "drop_result" | "truncate_result" | "strip_media" | "summarize" }>;

/**
 * Deletions for the action with the marker place of a drop_result / truncate_result
 * (src/core/plan/placeholder.ts `markerPlace`; absent: none) or the block place of a summarize
 * (./summary-place.ts), or the reason it was refused (downgraded to keep).
 */
export type ResultEdit = { deletions: ByteRange[]; anchor?: number } | { refused: string };

/** `type` of a content part node, or null. */
export function partType(bytes: Uint8Array, node: JsonNode): string | null {
  const t = getMember(node, "type");
  return t?.type === "string" ? stringValue(bytes, t) : null;
}

type Part = { node: JsonNode; kind: "text"; text: JsonNode } | { node: JsonNode; kind: "media" | "other" };

/** Classifies the parts of a content array. */
export function classifyParts(content: Extract<JsonNode, { type: "array" }>, kinds: PartKinds, typeOf: (n: JsonNode) => string | null): Part[] {
  return content.items.map((node): Part => {
    const type = typeOf(node);
    const text = getMember(node, "text");
    if (type !== null && kinds.text.has(type) && text?.type === "string") return { node, kind: "text", text };
    if (type !== null && kinds.media.has(type)) return { node, kind: "media" };
    return { node, kind: "other" };
  });
}

/**
 * Deletions applying `action` to the result value `content`.
 * - string: drop_result keeps a DROP_RESULT_HEAD_BYTES head; truncate_result keeps head (+tail);
 *   strip_media has nothing to strip.
 * - parts: drop_result keeps only the first text part, cut to the head; truncate_result applies
 *   head/tail over the text parts' concatenated bytes (media/other parts survive only strictly
 *   inside the kept head or tail); strip_media removes media parts (refused if only media).
 * - summarize: every text, media and other part goes; the first text literal stays empty for the block.
 */
export function editResultContent(bytes: Uint8Array, content: JsonNode, action: ResultAction, kinds: PartKinds, typeOf: (n: JsonNode) => string | null): ResultEdit {
  if (action.kind === "summarize") return summaryPlace(content, (n) => kinds.text.has(typeOf(n) ?? ""));
  const edit = editContent(bytes, content, action, kinds, typeOf);
  if ("refused" in edit || action.kind === "strip_media") return edit;
  const texts = content.type === "array" ? classifyParts(content, kinds, typeOf).flatMap((p) => (p.kind === "text" ? [p.text] : [])) : [content];
  const anchor = markerPlace(texts, edit.deletions);
  return anchor === null ? edit : { ...edit, anchor };
}

function editContent(bytes: Uint8Array, content: JsonNode, action: Exclude<ResultAction, { kind: "summarize" }>, kinds: PartKinds, typeOf: (n: JsonNode) => string | null): ResultEdit {
  if (content.type === "string") {
    if (action.kind === "strip_media") return { refused: "no_media" };
    const [head, tail] = action.kind === "drop_result" ? [DROP_RESULT_HEAD_BYTES, 0] : [action.head_bytes, action.tail_bytes ?? 0];
    const cut = cutStringMiddle(bytes, content, head, tail);
    return cut ? { deletions: [cut] } : { refused: "nothing_to_remove" };
  }
  if (content.type !== "array") return { refused: "unexpected_content" };
  const parts = classifyParts(content, kinds, typeOf);
  switch (action.kind) {
    case "strip_media":
      return stripMedia(content, parts);
    case "drop_result":
      return dropResult(bytes, content, parts);
    case "truncate_result":
      return truncateParts(bytes, content, parts, action.head_bytes, action.tail_bytes ?? 0);
    default: {
      const never: never = action;
      throw new Error(`unknown action ${(never as { kind: string }).kind}`);
    }
  }
}

function indicesWhere(parts: Part[], pred: (p: Part, i: number) => boolean): Set<number> {
  const s = new Set<number>();
  parts.forEach((p, i) => pred(p, i) && s.add(i));
  return s;
}

function stripMedia(content: Extract<JsonNode, { type: "array" }>, parts: Part[]): ResultEdit {
  const media = indicesWhere(parts, (p) => p.kind === "media");
  if (media.size === 0) return { refused: "no_media" };
  if (media.size === parts.length) return { refused: "only_media" };
  return { deletions: removeArrayItems(content, media) };
}

function dropResult(bytes: Uint8Array, content: Extract<JsonNode, { type: "array" }>, parts: Part[]): ResultEdit {
  const first = parts.findIndex((p) => p.kind === "text");
  if (first < 0) return { refused: "no_text" };
  const part = parts[first]!;
  const deletions = removeArrayItems(content, indicesWhere(parts, (_, i) => i !== first));
  const cut = part.kind === "text" ? cutStringMiddle(bytes, part.text, DROP_RESULT_HEAD_BYTES) : null;
  if (cut) deletions.push(cut);
  return deletions.length > 0 ? { deletions } : { refused: "nothing_to_remove" };
}

function truncateParts(bytes: Uint8Array, content: Extract<JsonNode, { type: "array" }>, parts: Part[], headBytes: number, tailBytes: number): ResultEdit {
  // 1. Offsets of each part in the concatenated text bytes.
  let total = 0;
  const offsets = parts.map((p) => {
    const o = total;
    if (p.kind === "text") total += literalContentBytes(p.text);
    return o;
  });
  const head = Math.max(0, Math.floor(headBytes));
  const tail = Math.max(0, Math.floor(tailBytes));
  if (head + tail >= total) return { refused: "nothing_to_remove" };
  const tailStart = total - tail;
  // 2. Per part: keep, cut its middle, or remove it.
  const remove = new Set<number>();
  const cuts: ByteRange[] = [];
  parts.forEach((p, i) => {
    const o = offsets[i]!;
    if (p.kind !== "text") {
      if (!(o < head || o > tailStart)) remove.add(i);
      return;
    }
    const len = literalContentBytes(p.text);
    const keepHead = Math.min(len, Math.max(0, head - o));
    const keepTail = Math.min(len, Math.max(0, o + len - tailStart));
    if (keepHead + keepTail >= len) return;
    const cut = cutStringMiddle(bytes, p.text, keepHead, keepTail, true);
    if (cut && cut.end - cut.start === len) remove.add(i);
    else if (cut) cuts.push(cut);
  });
  // 3. Never an empty array: keep the first text part's first character.
  if (remove.size === parts.length) {
    const first = parts.findIndex((p) => p.kind === "text");
    remove.delete(first);
    const p = parts[first]!;
    if (p.kind === "text") {
      const cut = cutStringMiddle(bytes, p.text, 0, 0);
      if (cut) cuts.push(cut);
    }
  }
  const deletions = [...removeArrayItems(content, remove), ...cuts];
  return deletions.length > 0 ? { deletions } : { refused: "nothing_to_remove" };
}
