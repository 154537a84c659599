/**
 * Expected remaining calls from the session lengths a deployment has seen (pure): the
 * conservative quantile estimator of the cost model's R (DESIGN §4).
 *
 * Input: a histogram of finished sessions' lengths in model calls (`[calls, sessions]` rows,
 * from the session index: src/admin/session-lengths.ts). For each point `g` of LENGTH_GRID the
 * table holds the q-quantile of `length − g` over the sessions that reached `g` (length ≥ g):
 * how many more calls a session that has made `g` calls goes on to make, in the worse q of cases.
 *
 * Why a low quantile (REMAINING_QUANTILE = 0.25) and not the mean: a step's net benefit grows
 * with R, so a step that pays at R_q pays in every session whose real remaining count is at
 * least R_q, i.e. in at least 1 − q = 75 % of the sessions that reached this point. The mean of a
 * heavy-tailed length distribution is carried by a few very long sessions and makes a late step
 * bet on calls most sessions never make, and the sessions that end early lose what was spent.
 *
 * Between grid points the lookup is a lower bound: if a session at call n ≥ g has made n − g of
 * the calls counted from g, then q-quantile(length − n | length ≥ n) ≥ q-quantile(length − g |
 * length ≥ g) − (n − g), because every session that reached n also reached g.
 */

/**
 * Call counts the table holds a quantile at: every count to 6, then ≈ ×1.25 steps to 1,024
 * (28 points, so the table the gateway sends per step stays a few hundred bytes).
 */
export const LENGTH_GRID: readonly number[] = [1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 25, 32, 40, 50, 64, 80, 100, 128, 160, 200, 256, 320, 400, 512, 640, 800, 1024];

/** q of the remaining-calls quantile: the lower quartile (see the module comment). */
export const REMAINING_QUANTILE = 0.25;

/**
 * Fewest sessions that must have reached a grid point for its quantile to be used: with 20
 * samples the lower quartile's rank is 5, so one odd session cannot set it. Below: the seed's
 * estimate (./estimate-remaining-calls.ts).
 */
export const MIN_SURVIVORS = 20;

/** One histogram row: `sessions` finished sessions made exactly `calls` model calls. */
export type LengthRow = readonly [calls: number, sessions: number];

/**
 * The deployment's remaining-calls table: `later[i]` is the q-quantile of further calls after
 * `at[i]` calls (calls after the one being decided, not counting it). Only grid points with at
 * least MIN_SURVIVORS sessions appear, in ascending order; both arrays have the same length.
 */
export interface RemainingCallsTable {
  quantile: number;
  at: number[];
  later: number[];
  /** Finished sessions the table was built from. */
  sessions: number;
}

/**
 * Builds the table from `rows` (any order; rows with calls < 1 or sessions ≤ 0 are ignored).
 * The quantile is the lower one: the smallest x with P(length − g ≤ x | length ≥ g) ≥ q.
 */
export function remainingCallsTable(rows: readonly LengthRow[], quantile = REMAINING_QUANTILE, minSurvivors = MIN_SURVIVORS): RemainingCallsTable {
  const sorted = rows.filter(([c, n]) => c >= 1 && n > 0).map(([c, n]) => [Math.floor(c), Math.floor(n)] as const).sort((a, b) => a[0] - b[0]);
  const sessions = sorted.reduce((s, [, n]) => s + n, 0);
  const at: number[] = [];
  const later: number[] = [];
  for (const g of LENGTH_GRID) {
    const reached = sorted.filter(([c]) => c >= g);
    const m = reached.reduce((s, [, n]) => s + n, 0);
    if (m < minSurvivors) break;
    const rank = Math.max(1, Math.ceil(quantile * m));
    let seen = 0;
    for (const [c, n] of reached) {
      seen += n;
      if (seen >= rank) {
        at.push(g);
        later.push(c - g);
        break;
      }
    }
  }
  return { quantile, at, later, sessions };
}

/**
 * R for a session deciding its call number `calls` (≥ 1, this call included) from `table`:
 * 1 + the lower bound of its further calls (module comment), or null when the table has no
 * grid point at or below `calls`, or `calls` reaches the grid point after its last one (fewer
 * than MIN_SURVIVORS sessions got that far: the caller uses the seed estimate).
 */
export function remainingCallsFromTable(table: RemainingCallsTable | null | undefined, calls: number): number | null {
  if (!table || table.at.length === 0) return null;
  const last = table.at[table.at.length - 1]!;
  const beyond = LENGTH_GRID.find((g) => g > last) ?? Number.POSITIVE_INFINITY;
  if (calls < table.at[0]! || calls >= beyond) return null;
  let i = 0;
  while (i + 1 < table.at.length && table.at[i + 1]! <= calls) i++;
  return 1 + Math.max(0, table.later[i]! - (calls - table.at[i]!));
}
