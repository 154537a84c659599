/**
 * Byte ranges that remove elements from a JSON array or members from a JSON object (pure).
 * Each range takes the element with exactly one separating comma (and the whitespace around
 * it), so the spliced text stays valid JSON and every kept element keeps its exact bytes.
 * Ranges never overlap a kept element, so they combine with deletions inside kept elements.
 */
import type { ByteRange } from "../../core/view/types";
import type { JsonNode } from "./json-scan";

type ArrayNode = Extract<JsonNode, { type: "array" }>;
type ObjectNode = Extract<JsonNode, { type: "object" }>;

/**
 * Deletions removing the items of `array` whose indices are in `remove`.
 * 1. Group removed indices into maximal runs [a..b].
 * 2. A run with a kept item before it is cut from the end of that item to the end of item b
 *    (", a, …, b"); a leading run from the start of item a to the start of item b+1
 *    ("a, …, b, "); a run covering every item from the first item's start to the last one's end
 *    (leaving `[]` plus the original inner whitespace).
 */
export function removeArrayItems(array: ArrayNode, remove: ReadonlySet<number>): ByteRange[] {
  return removeSpans(array.items, remove);
}

function removeSpans(items: readonly ByteRange[], remove: ReadonlySet<number>): ByteRange[] {
  const n = items.length;
  const out: ByteRange[] = [];
  let i = 0;
  while (i < n) {
    if (!remove.has(i)) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < n && remove.has(j + 1)) j++;
    if (i > 0) out.push({ start: items[i - 1]!.end, end: items[j]!.end });
    else if (j < n - 1) out.push({ start: items[i]!.start, end: items[j + 1]!.start });
    else out.push({ start: items[0]!.start, end: items[n - 1]!.end });
    i = j + 1;
  }
  return out;
}

/**
 * Deletions removing the members of `object` whose keys are in `keys` (every occurrence), with
 * the same comma rule as removeArrayItems (adjacent members go as one run).
 */
export function removeObjectMembers(object: ObjectNode, keys: ReadonlySet<string>): ByteRange[] {
  const spans = object.entries.map((e) => ({ start: e.keyStart, end: e.value.end }));
  const remove = new Set<number>();
  object.entries.forEach((e, k) => keys.has(e.key) && remove.add(k));
  return removeSpans(spans, remove);
}
