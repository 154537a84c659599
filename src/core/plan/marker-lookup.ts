/**
 * For the guarantee checker at level `placeholders` (pure): which marker may stand inside a
 * given input string literal — the one of the unlocked pair whose result holds it (./placeholder.ts).
 */
import type { ParsedRequest } from "../../providers/types";
import type { ByteRange } from "../view/types";
import { placeholderBytes, type PlaceholderOptions } from "./placeholder";

/** The marker allowed inside the input string literal starting at an offset, or null. */
export type MarkerLookup = (at: number) => { id: string; bytes: Uint8Array } | null;

/**
 * A lookup from an input offset to the marker of the unlocked pair whose result range
 * (`ParsedRequest.resultRanges`) holds it. Without result ranges, no marker is allowed.
 */
export function markerLookup(parsed: ParsedRequest, opts: PlaceholderOptions): MarkerLookup {
  const ranges = parsed.resultRanges;
  if (!ranges) return () => null;
  const hosts: (ByteRange & { id: string })[] = [];
  parsed.view.pairs.forEach((p, k) => {
    if (p.locked === null && ranges[k]) hosts.push({ ...ranges[k]!, id: p.id });
  });
  hosts.sort((x, y) => x.start - y.start);
  return (at) => {
    let lo = 0;
    let hi = hosts.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const h = hosts[mid]!;
      if (at < h.start) hi = mid - 1;
      else if (at >= h.end) lo = mid + 1;
      else return { id: h.id, bytes: placeholderBytes(h.id, opts) };
    }
    return null;
  };
}

