/**
 * The native mechanism's shape of a step (pure; DESIGN §2 "Two mechanisms, one decision").
 * Anthropic's server-side `clear_tool_uses_20250919` clears tool uses oldest first ("the API
 * automatically clears the oldest tool results in chronological order", platform.claude.com
 * build-with-claude/context-editing), skipping `exclude_tools`; so what a native step may remove
 * is an oldest-first prefix of the clearable tool uses. The policy, cost model and ledger stay
 * the same; this module gives them prefix-shaped candidates:
 *
 * - the clearable tool uses are walked in history order; a use of an excluded tool is skipped
 *   (the edit's `exclude_tools` keeps the provider off it too); a use the ledger already removed
 *   is passed over (earlier steps: the prefix already cleared);
 * - the walk stops at the first use that must stay: a locked pair (for a reason that still holds
 *   natively), a ledger entry that could not be re-applied, a pair in the protected recent turns,
 *   or a call without a unique result (an orphan: its place in the provider's count is unknown);
 * - every pair walked becomes a `drop_result` candidate (the provider replaces the result with
 *   its placeholder; the call stays: the edit is sent with `clear_tool_inputs: false`);
 * - a cut is acceptable only when its last message holds a pair the tier itself proposed to
 *   remove, so a step never clears up to a pair for nothing.
 * Each candidate's rule is `native_prefix`; the step keeps the tier's own rule for the pairs the
 * tier proposed (./take-step.ts).
 *
 * Locks that exist only because bytes are spliced do not apply natively, since no message byte
 * changes: `thinking_prefix` (a spliced edit before a thinking block would fail the prefix check).
 */
import type { PairFacts } from "../facts/step-facts";
import type { Proposal } from "./take-step";
import type { TierContext } from "./types";
import { pairIsOld } from "./locate-boundaries";
import type { Reapplied } from "./ledger";

/** Lock reasons that exist only because splicing changes bytes: lifted under the native mechanism. */
export const SPLICE_ONLY_LOCKS: ReadonlySet<string> = new Set(["thinking_prefix"]);

/** Prefix-shaped candidates of a native step, and the cut filter that goes with them. */
export interface NativeCandidates {
  /** One `drop_result` proposal per pair of the prefix not yet removed, in history order. */
  proposals: Proposal[];
  /** Whether a cut editing `pair_ids` ends at a pair the tier proposed (see module doc). */
  accept: (pair_ids: readonly string[]) => boolean;
}

/**
 * The native candidates of `ctx.view` given the re-applied ledger `re` (built with
 * SPLICE_ONLY_LOCKS ignored) and the ids the tier proposed to remove.
 */
export function nativeCandidates(ctx: TierContext, re: Reapplied, proposed: ReadonlySet<string>): NativeCandidates {
  const { view, config } = ctx;
  const excluded = new Set(config.exclude_tools);
  const firstOrphan = view.orphan_call_messages.reduce((m, i) => Math.min(m, i), Number.POSITIVE_INFINITY);
  const proposals: Proposal[] = [];
  for (const pair of view.pairs) {
    if (pair.call.message_index >= firstOrphan) break;
    if (excluded.has(pair.tool_name)) continue;
    const action = re.actions[pair.id];
    if (action !== undefined && action.kind !== "keep") {
      if (proposals.length > 0) break; // a removed pair after a kept one: the ledger is not a prefix here
      continue;
    }
    if (re.skipped[pair.id] !== undefined || lockHolds(pair) || !pairIsOld(view, pair, config.preserve_recent_turns)) break;
    proposals.push({ pair, action: { kind: "drop_result" }, rule: "native_prefix" });
  }
  const resultMessage = new Map(proposals.map((p) => [p.pair.id, p.pair.result.message_index]));
  const accept = (ids: readonly string[]): boolean => {
    let last = -1;
    let lastProposed = -1;
    for (const id of ids) {
      const m = resultMessage.get(id) ?? -1;
      last = Math.max(last, m);
      if (proposed.has(id)) lastProposed = Math.max(lastProposed, m);
    }
    return lastProposed >= 0 && lastProposed === last;
  };
  return { proposals, accept };
}

/** True when `pair` is locked for a reason that holds natively too. */
export function lockHolds(pair: Pick<PairFacts, "locked">): boolean {
  return pair.locked !== null && !SPLICE_ONLY_LOCKS.has(pair.locked);
}
