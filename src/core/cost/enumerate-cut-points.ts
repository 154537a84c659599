/**
 * Candidate cut points of a removal step (pure). A cut at message boundary `b` means: the step
 * applies the candidate actions whose call and result both lie in messages [0, b), and leaves
 * [b, end) as it is. A cut never falls inside a tool exchange: `b` is valid only when no pair
 * has its call before `b` and its result at or after `b` (DESIGN invariant 3). Only boundaries
 * that add at least one candidate over the previous valid boundary are returned, in order.
 */

/** One candidate action, located in the history. */
export interface CutCandidate {
  pair_id: string;
  /** Message index of the call. */
  call_message: number;
  /** Message index of the result. */
  result_message: number;
  /** First message whose bytes the action changes (the call's for drop_pair, the result's otherwise). */
  first_edit_message: number;
  /** Estimated tokens the action removes. */
  saved_tokens: number;
}

/** A tool exchange span (call message → result message), used to keep cuts outside exchanges. */
export interface ExchangeSpan {
  call_message: number;
  result_message: number;
}

/** One evaluated cut. */
export interface CutPoint {
  /** Messages [0, boundary) are compacted. */
  boundary: number;
  /** Pair ids the step would edit at this cut, in history order. */
  pair_ids: string[];
  /** H: estimated tokens removed. */
  removed_tokens: number;
  /** K: cached tokens the next request must write again: those from where the edit leaves the cache readable (the first edit, or earlier: ./cache-reach.ts) to cached_end still present after the step. */
  rewritten_tokens: number;
  /** Index of the first message the cut's actions change. */
  first_edit: number;
}

import { rewriteFrom, type CacheReach } from "./cache-reach";

/** Inputs of the enumeration. */
export interface CutInput {
  /** Estimated tokens of each message as currently forwarded (earlier steps applied). */
  message_tokens: number[];
  candidates: CutCandidate[];
  spans: ExchangeSpan[];
  /** No cut beyond this boundary (start of the protected recent turns). */
  max_boundary: number;
  /** Messages before this index were part of the previous request (and so cached). */
  cached_end: number;
  /** How far back an edit leaves the cache readable (./cache-reach.ts); absent or null: everything before the first edit. */
  reach?: CacheReach | null;
}

/**
 * K of a cut whose first edit is `first_edit` and that removes `removed` tokens, over the message
 * prefix sums `prefix`: the cached tokens the next request writes again — from where the edit
 * leaves the cache readable (./cache-reach.ts rewriteFrom) to the cached end, less what the cut
 * removes, plus the tools and system when the edit reaches back past them.
 */
export function rewrittenTokens(input: Pick<CutInput, "cached_end" | "reach">, prefix: readonly number[], first_edit: number, removed: number): number {
  const n = prefix.length - 1;
  const from = rewriteFrom(input.reach ?? null, first_edit);
  const end = Math.max(first_edit, Math.min(input.cached_end, n));
  const outside = from < first_edit && input.reach ? input.reach.outside_rewritten : 0;
  return Math.max(0, prefix[end]! - prefix[from]! - removed + outside);
}

/** pair_ids order: first edited message, then pair id. */
function idOrder(a: CutCandidate, b: CutCandidate): number {
  return a.first_edit_message - b.first_edit_message || a.pair_id.localeCompare(b.pair_id);
}

/**
 * Inserts `c` into `ordered` (sorted by idOrder) after every element it does not precede, so
 * candidates that compare equal stay in the order taken — the order a stable sort of the taken
 * list gives them.
 */
function insertInIdOrder(ordered: CutCandidate[], c: CutCandidate): void {
  let lo = 0;
  let hi = ordered.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (idOrder(ordered[mid]!, c) <= 0) lo = mid + 1;
    else hi = mid;
  }
  ordered.splice(lo, 0, c);
}

/** Enumerates the valid, distinct cut points, earliest first. */
export function enumerateCutPoints(input: CutInput): CutPoint[] {
  const n = input.message_tokens.length;
  const maxB = Math.min(input.max_boundary, n);
  // 1. inside[b] > 0 when some exchange has call < b ≤ result.
  const delta = new Array<number>(n + 2).fill(0);
  for (const s of input.spans) {
    if (s.result_message <= s.call_message) continue;
    delta[s.call_message + 1]! += 1;
    delta[s.result_message + 1]! -= 1;
  }
  // 2. Prefix sums of message tokens for K.
  const prefix = new Array<number>(n + 1).fill(0);
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i]! + input.message_tokens[i]!;
  const lastMessage = (c: CutCandidate) => Math.max(c.call_message, c.result_message);
  const sorted = [...input.candidates].sort((a, b) => lastMessage(a) - lastMessage(b));
  const cuts: CutPoint[] = [];
  // The candidates taken so far, in pair_ids order, with their running sum of H (added in the
  // order taken) and their earliest first edit: each cut reads them in O(taken) instead of
  // copying `taken` per candidate and summing, mapping and sorting it again per cut.
  const ordered: CutCandidate[] = [];
  let removed = 0;
  let firstEdit = Number.POSITIVE_INFINITY;
  let inside = 0;
  let next = 0;
  let lastCount = 0;
  for (let b = 1; b <= maxB; b++) {
    inside += delta[b]!;
    while (next < sorted.length && lastMessage(sorted[next]!) < b) {
      const c = sorted[next++]!;
      insertInIdOrder(ordered, c);
      removed += c.saved_tokens;
      firstEdit = Math.min(firstEdit, c.first_edit_message);
    }
    if (inside > 0 || ordered.length === lastCount) continue;
    lastCount = ordered.length;
    // 3. H, first edit and K for this set.
    const rewritten = rewrittenTokens(input, prefix, firstEdit, removed);
    cuts.push({ boundary: b, pair_ids: ordered.map((c) => c.pair_id), removed_tokens: removed, rewritten_tokens: rewritten, first_edit: firstEdit });
  }
  return cuts;
}
