/**
 * For the guarantee checker at levels `placeholders` and `rewrite` (pure): which inserted bytes
 * may stand inside a given input string literal — those of the unlocked pair whose result holds
 * it: its marker (./placeholder.ts) or its summary block (./summary-block.ts).
 */
import type { ParsedRequest } from "../../providers/types";
import type { ByteRange } from "../view/types";
import { placeholderBytes, type PlaceholderOptions } from "./placeholder";

/** The bytes allowed inside the input string literal starting at an offset, with the pair they belong to, or null. */
export type MarkerLookup = (at: number) => { id: string; bytes: Uint8Array } | null;

/**
 * A lookup from an input offset to `bytesOf(id)` of the unlocked pair whose result range
 * (`ParsedRequest.resultRanges`) holds it (null from `bytesOf`: nothing allowed there). Without
 * result ranges, nothing is allowed.
 */
export function resultLookup(parsed: ParsedRequest, bytesOf: (id: string) => Uint8Array | null): MarkerLookup {
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
      else {
        const bytes = bytesOf(h.id);
        return bytes === null ? null : { id: h.id, bytes };
      }
    }
    return null;
  };
}

/** The placeholders level's lookup: every unlocked pair's own marker. */
export function markerLookup(parsed: ParsedRequest, opts: PlaceholderOptions): MarkerLookup {
  return resultLookup(parsed, (id) => placeholderBytes(id, opts));
}

/** The rewrite level's lookup: the summary block of each host pair in `summaries` (host pair id → block bytes). */
export function summaryLookup(parsed: ParsedRequest, summaries: ReadonlyMap<string, Uint8Array>): MarkerLookup {
  return resultLookup(parsed, (id) => summaries.get(id) ?? null);
}
