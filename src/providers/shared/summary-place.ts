/**
 * Where a `summarize` action's block goes in its host result (pure; level `rewrite`,
 * src/core/plan/summary-block.ts). All of the result's text goes, and its media and other parts
 * with it; the block stands inside the first text literal of the result, which is kept as an
 * empty string (its head) for the block to fill. Shared by the three adapters: a tool result is a
 * JSON string, or an array of typed parts whose text parts carry a `text` string member.
 */
import type { ByteRange } from "../../core/view/types";
import { getMember, type JsonNode } from "./json-scan";
import { removeArrayItems } from "./remove-json-items";

/** Deletions emptying the result and the input offset where the block goes, or why there is no place. */
export type SummaryPlace = { deletions: ByteRange[]; anchor: number } | { refused: "no_summary_place" };

/**
 * The summary place in a result value `content` (absent: the result has no content).
 * - string literal: its whole inner text goes; the block goes right after the opening quote;
 * - array: every part but the first text part (`isText(part)`, with a string `text` member) goes,
 *   and that part's text is emptied; the block goes right after its opening quote;
 * - anything else, or an array without a text part: no place (the action is refused).
 */
export function summaryPlace(content: JsonNode | undefined, isText: (part: JsonNode) => boolean): SummaryPlace {
  if (content?.type === "string") return { deletions: inner(content), anchor: content.start + 1 };
  if (content?.type !== "array") return { refused: "no_summary_place" };
  const first = content.items.findIndex((p) => isText(p) && getMember(p, "text")?.type === "string");
  if (first < 0) return { refused: "no_summary_place" };
  const text = getMember(content.items[first]!, "text")!;
  const others = new Set(content.items.map((_, k) => k).filter((k) => k !== first));
  return { deletions: [...removeArrayItems(content, others), ...inner(text)], anchor: text.start + 1 };
}

/** The inner bytes of a string literal (quotes excluded), or nothing when it is empty. */
function inner(literal: JsonNode): ByteRange[] {
  return literal.end - literal.start > 2 ? [{ start: literal.start + 1, end: literal.end - 1 }] : [];
}
