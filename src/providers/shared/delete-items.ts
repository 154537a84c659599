/**
 * Byte ranges that delete elements from a JSON array (pure). An element goes with exactly one
 * separator: a run of deleted elements followed by a kept one is removed up to the kept one's
 * start (element + comma + following whitespace); a run at the end of the array is removed from
 * the previous kept element's end (preceding comma + element). So the array's leading and trailing
 * whitespace, and every separator between two kept elements, stay byte-identical.
 */
import type { ByteRange } from "../../core/view/types";
import type { JsonNode } from "./json-scan";

type ArrayNode = Extract<JsonNode, { type: "array" }>;

/**
 * Ranges deleting the items of `array` whose indices are in `drop`. Deleting every item leaves
 * the array's leading and trailing whitespace (`[ ]`). Indices outside the array are ignored.
 */
export function deleteItems(array: ArrayNode, drop: ReadonlySet<number>): ByteRange[] {
  const items = array.items;
  const out: ByteRange[] = [];
  let i = 0;
  while (i < items.length) {
    if (!drop.has(i)) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < items.length && drop.has(j + 1)) j++;
    // run [i, j] is deleted
    if (j + 1 < items.length) out.push({ start: items[i]!.start, end: items[j + 1]!.start });
    else if (i > 0) out.push({ start: items[i - 1]!.end, end: items[j]!.end });
    else out.push({ start: items[i]!.start, end: items[j]!.end });
    i = j + 1;
  }
  return out;
}
