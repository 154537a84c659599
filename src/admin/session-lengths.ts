/**
 * The deployment's finished-session lengths as the session index holds them (pure): each index
 * shard answers a histogram of its sessions' model-call counts (`[calls, sessions]` rows,
 * ../core/cost/session-lengths.ts LengthRow); the shards' answers merge by summing the counts
 * of equal lengths. Counts only (DESIGN invariant 7).
 */
import type { LengthRow } from "../core/cost/session-lengths";

/** The shards' histograms as one, by ascending call count. */
export function mergeLengthRows(parts: readonly (readonly LengthRow[])[]): LengthRow[] {
  const byCalls = new Map<number, number>();
  for (const [calls, sessions] of parts.flat()) byCalls.set(calls, (byCalls.get(calls) ?? 0) + sessions);
  return [...byCalls].sort((a, b) => a[0] - b[0]);
}
