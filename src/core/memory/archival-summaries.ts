/**
 * The archival tier's summaries (pure; DESIGN §7 "archival (compressed summaries of closed
 * stretches)"). The session keeps no conversation text (DESIGN invariant 7) except, at level
 * `rewrite`, the summary texts its summarising steps wrote, which live in its ledger: the host
 * pair's entry action is `{ kind: "summarize", covers, text }` (src/core/plan/types.ts). At the
 * complete alarm every such entry with a written text becomes one archival summary, and a closed
 * stretch whose every tool call a summary covers is shown by that summary instead of its counts.
 */
import type { LedgerEntry } from "../policy/ledger";
import type { ArchivalSummary, TierMap } from "./build-tier-map";

/** A written summary with the pair ids it stands for (ledger order: step, then host pair id). */
export interface LedgerSummary extends ArchivalSummary {
  covered_ids: string[];
}

/** The ledger's summarize entries with a written text, oldest step first (ties: host pair id). */
export function ledgerSummaries(entries: Iterable<LedgerEntry>): LedgerSummary[] {
  const found: { step: number; pair_id: string; s: LedgerSummary }[] = [];
  for (const e of entries) {
    const a = e.action;
    if (a.kind !== "summarize" || a.text === null) continue;
    found.push({ step: e.step, pair_id: e.pair_id, s: { covers: a.covers.length, text: a.text, covered_ids: [...a.covers] } });
  }
  found.sort((x, y) => x.step - y.step || (x.pair_id < y.pair_id ? -1 : x.pair_id > y.pair_id ? 1 : 0));
  return found.map((f) => f.s);
}

/**
 * `map` with `summaries` as its archival summaries (oldest first) and without the stretches they
 * cover whole (a stretch with tool calls, every one in some summary's covered ids). A stretch
 * without `pair_ids` (a map built before that field) or with calls no summary covers keeps its
 * counts. No summaries: `map` itself.
 */
export function withArchivalSummaries(map: TierMap, summaries: readonly LedgerSummary[]): TierMap {
  if (summaries.length === 0) return map;
  const covered = new Set(summaries.flatMap((s) => s.covered_ids));
  const archival = map.archival.filter((a) => !(a.pair_ids !== undefined && a.pair_ids.length > 0 && a.pair_ids.every((id) => covered.has(id))));
  return { ...map, archival, summaries: summaries.map((s) => ({ covers: s.covers, text: s.text })) };
}
