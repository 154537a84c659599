/**
 * The stored bound of `sluice_stood_aside_total` (pure): a client can send any number of made-up
 * types, and each distinct one would otherwise be a row of the index forever. Per provider and
 * reason the index keeps the MAX_STAND_ASIDE_TYPES most counted types (ties: by name) and folds
 * every other row into the `type="other"` row — the same rule the exposition applies
 * (./metrics-catalog.ts), so what is stored and what is rendered agree. A type folded once starts
 * again from 0 if it comes back; its earlier counts stay in `other`.
 */
import { MAX_STAND_ASIDE_TYPES, rankStandAsideTypes } from "./metrics-catalog";

/** One stored series row of the stand-aside family: its labels as stored (JSON text) and parsed. */
export interface StandAsideRow {
  labels_json: string;
  labels: Record<string, string>;
  value: number;
}

/** What to change: rows to delete (by their stored labels), and the `other` rows to add to (stored labels, amount). */
export interface StandAsideFold {
  drop: string[];
  other: { labels_json: string; add: number }[];
}

/** The rows beyond the bound per provider and reason, and the sums they add to each group's `other` row (labels provider, reason, type). */
export function foldStandAsideRows(rows: readonly StandAsideRow[], max = MAX_STAND_ASIDE_TYPES): StandAsideFold {
  const out: StandAsideFold = { drop: [], other: [] };
  for (const { over } of rankStandAsideTypes(rows, max)) {
    if (over.length === 0) continue;
    out.drop.push(...over.map((r) => r.labels_json));
    const { provider, reason } = over[0]!.labels;
    out.other.push({ labels_json: JSON.stringify({ provider, reason, type: "other" }), add: over.reduce((t, r) => t + r.value, 0) });
  }
  return out;
}
