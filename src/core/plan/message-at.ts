/** Lookup of the history message holding a byte offset (pure), for the guarantee checker. */
import type { MessageInfo } from "../view/types";

/**
 * The message whose range holds byte `at`: a binary search, since history messages are in body
 * order with disjoint ranges; should a view break that order, a linear scan gives the answer.
 */
export function messageAt(messages: readonly MessageInfo[], at: number): MessageInfo | undefined {
  let lo = 0;
  let hi = messages.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = messages[mid]!.range;
    if (at < r.start) hi = mid - 1;
    else if (at >= r.end) lo = mid + 1;
    else return messages[mid];
  }
  return messages.find((x) => at >= x.range.start && at < x.range.end);
}
