/**
 * The guarantee checker's rules on string cuts and inserted bytes (pure; ./check-guarantee.ts
 * steps 5 and the levels `placeholders` and `rewrite`), over what the structural walk recorded:
 * - every cut lies in a message holding the result of an unlocked pair;
 * - a marker (./placeholder.ts): at most one per pair, only where that pair's result lost bytes;
 * - a summary block (./summary-block.ts): at most one per host pair, and the host's result lost
 *   all its other text and media — its decoded text in the output is the block's text alone.
 */
import type { ParsedRequest } from "../../providers/types";
import { messageAt } from "./message-at";

/** One string literal the walk accepted as changed: where in the input, and what was inserted there. */
export interface RecordedCut {
  /** Input offset of the first removed (or, for an insertion, first following) byte. */
  at: number;
  /** A marker of pair `id`, `length` bytes long. */
  marker?: { id: string; length: number };
  /** A summary block of host pair `id`, whose raw literal bytes are `bytes`. */
  summary?: { id: string; bytes: Uint8Array };
}

const decoder = new TextDecoder();

/** Violations of the cut and insertion rules (human-readable, no prompt text). */
export function insertionViolations(cuts: readonly RecordedCut[], input: ParsedRequest, output: ParsedRequest): string[] {
  const v: string[] = [];
  const inView = input.view;
  const outView = output.view;
  const inPairs = new Map(inView.pairs.map((p, k) => [p.id, k]));
  const outPairs = new Map(outView.pairs.map((p, k) => [p.id, k]));
  const resultHosts = new Set(inView.pairs.filter((p) => p.locked === null).map((p) => p.result.message_index));
  const marked = new Set<string>();
  const summarized = new Set<string>();
  for (const { at: cut, marker, summary } of cuts) {
    const m = messageAt(inView.messages, cut);
    if (!m || !resultHosts.has(m.index)) v.push(`string cut at byte ${cut} is outside an editable tool result`);
    if (summary !== undefined) {
      if (summarized.has(summary.id)) v.push(`pair ${summary.id} carries more than one summary block`);
      summarized.add(summary.id);
      const pk = outPairs.get(summary.id);
      const after = pk === undefined ? undefined : outView.pairs[pk]!;
      if (!after || after.result_media_count > 0 || after.result_text !== blockText(summary.bytes)) v.push(`pair ${summary.id} carries a summary block but kept other result content`);
    }
    if (marker === undefined) continue;
    if (marked.has(marker.id)) v.push(`pair ${marker.id} carries more than one marker`);
    marked.add(marker.id);
    const pk = outPairs.get(marker.id);
    const before = input.resultRanges?.[inPairs.get(marker.id)!];
    const after = pk === undefined ? undefined : output.resultRanges?.[pk];
    if (!before || !after || after.end - after.start - marker.length >= before.end - before.start) v.push(`pair ${marker.id} carries a marker but its result lost no bytes`);
  }
  return v;
}

/** The decoded text of raw string-literal bytes (null when they are not a valid literal body). */
function blockText(raw: Uint8Array): string | null {
  try {
    return JSON.parse(`"${decoder.decode(raw)}"`) as string;
  } catch {
    return null;
  }
}
