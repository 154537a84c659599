/**
 * The best step times in hindsight for the removals a run made (pure): an exact
 * dynamic programme over call positions that keeps the run's steps — the same pair sets, in the
 * same order — and chooses at which call each one goes, so the report can say how much the
 * steps taken lost to their timing ("when" measured, not guessed).
 *
 * Cache model (a bound, not the provider's exact accounting): one prefix cache per session; a
 * call within `ttl_ms` of the previous one reads from the cache the prefix it shares with the previous request and writes
 * the rest at `write_multiple` × the input price; after a longer gap (and at the first call) it
 * writes everything. Reads cost `read_multiple` × the input price. Histories only grow, so with
 * no new step the previous request is a prefix of the next one; a step that applies removal sets
 * [a, b) shares with the previous request only the tokens before its first edit — and none of
 * them when the call has a `reach_tokens` and the edit lies before it (Anthropic reads back at
 * most 20 blocks from a breakpoint, and the replay's requests carry one, on the last message:
 * src/core/cost/cache-reach.ts). Costs are in input-price tokens (multiply by the input price for USD).
 *
 * Schedules: step j may go at any call ≥ its `released_at` (the call where the run took it: its
 * removals were not known earlier) and no earlier than step j − 1, or never (a last step that
 * cannot pay back its write); several steps at one call are one step (one write). The run's own
 * schedule is one of them, so the best never costs more.
 * State: the number of steps applied so far; O(calls × steps²).
 */

/** One call of the session as the client sent it. */
export interface HindsightCall {
  /** Tokens of the request with no removal. */
  tokens: number;
  /** When it was sent, epoch ms (the replay's virtual clock). */
  time_ms: number;
  /** Tokens before the first history item a read can still reach from the request's breakpoint; an edit before them reads nothing. Absent or null: no limit. */
  reach_tokens?: number | null;
}

/** One step the run took. */
export interface HindsightStep {
  /** Index of the call where the run took it (its earliest possible call). */
  released_at: number;
  /** Tokens of the unedited request before the step's first edit. */
  first_edit: number;
  /** Tokens the step removes from every later request. */
  tokens: number;
}

/** The prices of the model, as multiples of the uncached input price, and the cache lifetime. */
export interface CacheModel {
  ttl_ms: number;
  write_multiple: number;
  read_multiple: number;
}

/** Costs of the three schedules (input-price tokens) and the best one's step calls. */
export interface HindsightResult {
  /** No removal at all. */
  none_cost: number;
  /** Each step at the call where the run took it. */
  taken_cost: number;
  /** The best schedule. */
  best_cost: number;
  /** Call index of each step in the best schedule (several steps may share a call); null: never (a step the run took at the end that does not pay). */
  best_at: (number | null)[];
}

/** Cost of call `i` when it applies steps [0, k) and the previous call applied [0, kPrev). */
function callCost(calls: readonly HindsightCall[], steps: readonly HindsightStep[], removedBefore: readonly number[], model: CacheModel, i: number, kPrev: number, k: number): number {
  const call = calls[i]!;
  const length = Math.max(0, call.tokens - removedBefore[k]!);
  const prev = calls[i - 1];
  if (prev === undefined || call.time_ms - prev.time_ms >= model.ttl_ms) return length * model.write_multiple;
  const prevLength = Math.max(0, prev.tokens - removedBefore[kPrev]!);
  let read = prevLength;
  if (k > kPrev) {
    let edit = Infinity;
    for (let j = kPrev; j < k; j++) edit = Math.min(edit, steps[j]!.first_edit);
    // Tokens before the first new edit in the previous request: the earlier steps' removals that lie before it are gone.
    let gone = 0;
    for (let j = 0; j < kPrev; j++) if (steps[j]!.first_edit < edit) gone += steps[j]!.tokens;
    read = call.reach_tokens != null && edit < call.reach_tokens ? 0 : Math.min(prevLength, Math.max(0, edit - gone));
  }
  read = Math.min(read, length);
  return read * model.read_multiple + (length - read) * model.write_multiple;
}

/** Runs the programme. Throws when a step's `released_at` is outside the calls or steps are out of order. */
export function bestStepTimes(calls: readonly HindsightCall[], steps: readonly HindsightStep[], model: CacheModel): HindsightResult {
  steps.forEach((s, j) => {
    if (!(s.released_at >= 0 && s.released_at < calls.length)) throw new Error(`hindsight: steps[${j}].released_at ${s.released_at} is outside the ${calls.length} calls`);
    if (j > 0 && s.released_at < steps[j - 1]!.released_at) throw new Error(`hindsight: steps[${j}] is released before steps[${j - 1}]`);
  });
  const m = steps.length;
  const removedBefore = [0];
  for (const s of steps) removedBefore.push(removedBefore[removedBefore.length - 1]! + s.tokens);
  const released = (i: number) => steps.filter((s) => s.released_at <= i).length;
  const cost = (i: number, kPrev: number, k: number) => callCost(calls, steps, removedBefore, model, i, kPrev, k);

  let none = 0;
  let taken = 0;
  for (let i = 0; i < calls.length; i++) {
    none += cost(i, 0, 0);
    taken += cost(i, i === 0 ? 0 : released(i - 1), released(i));
  }

  // best[k] = least cost of calls 0..i with steps [0, k) applied at call i; from[i][k] = k at call i − 1.
  let best: number[] = new Array(m + 1).fill(Infinity);
  const from: number[][] = [];
  for (let i = 0; i < calls.length; i++) {
    const next: number[] = new Array(m + 1).fill(Infinity);
    const back: number[] = new Array(m + 1).fill(-1);
    for (let k = 0; k <= released(i); k++) {
      if (i === 0) {
        next[k] = cost(0, 0, k);
        continue;
      }
      for (let kPrev = 0; kPrev <= k; kPrev++) {
        if (best[kPrev] === Infinity) continue;
        const c = best[kPrev]! + cost(i, kPrev, k);
        if (c < next[k]!) {
          next[k] = c;
          back[k] = kPrev;
        }
      }
    }
    best = next;
    from.push(back);
  }
  // A step left to after the last call is never taken: it would only cost a write.
  let k = 0;
  for (let j = 1; j <= m; j++) if (best[j]! < best[k]!) k = j;
  const bestCost = calls.length === 0 ? 0 : best[k]!;
  const best_at: (number | null)[] = new Array(m).fill(null);
  for (let i = calls.length - 1; i > 0; i--) {
    const kPrev = from[i]![k]!;
    for (let j = kPrev; j < k; j++) best_at[j] = i;
    k = kPrev;
  }
  for (let j = 0; j < k; j++) best_at[j] = 0;
  return { none_cost: none, taken_cost: taken, best_cost: bestCost, best_at };
}
