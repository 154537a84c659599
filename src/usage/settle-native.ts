/**
 * Settles a native request's saving against what the provider reports (pure; DESIGN §2 "Two
 * mechanisms, one decision"). At native, Sluice asks the provider to clear tool uses
 * (OutcomeReport.native_cleared = C); only the answer's `context_management.applied_edits`
 * says whether it did (./extract-usage.ts). So:
 *
 * - a `clear_tool_uses_20250919` entry with cleared_tool_uses > 0: the saving stands; the
 *   provider's own counts are added to the session (`native_cleared_tool_uses`,
 *   `native_cleared_input_tokens`), and `native_count_mismatch` when it cleared another number
 *   of tool uses than C;
 * - anything else (no entry, 0 cleared, no usage at all): the outcome becomes
 *   `native_not_applied`, nothing counts as saved (tokens_sent = tokens_original, no pairs),
 *   and `native_not_applied` is counted. The ledger stays: the same edit goes with the next
 *   request.
 */
import type { OutcomeReport } from "../session/step-types";
import type { Usage } from "./extract-usage";

/** What the provider did with the last native edit of a session, as the next requests' header reports it. */
export interface ProviderCleared {
  /** The provider reported the edit applied. */
  applied: boolean;
  /** Tool uses it cleared (0 when not applied). */
  tool_uses: number;
  /** Input tokens it cleared (0 when not applied). */
  input_tokens: number;
}

/** The outcome to record, the counters to add (name → amount) and, for a native request, what the provider did. */
export interface NativeSettlement {
  outcome: OutcomeReport | null;
  counters: Record<string, number>;
  /** Absent for a request that asked the provider to clear nothing. */
  provider?: ProviderCleared;
  /** True when the request carried Sluice's compaction edit and the provider reported a compaction iteration. */
  compacted?: boolean;
}

/**
 * Settles `outcome` (null: none) against the call's reported `usage` (null: none came). A request
 * that carried Sluice's `compact_20260112` edit (`native_compaction_trigger`) settles against the
 * answer's compaction iteration (`usage.compaction`): present, the saving stands and the counters
 * `native_compactions`, `native_compaction_input_tokens`, `native_compaction_output_tokens` (what
 * the summary cost) are added; absent, the outcome becomes `native_not_applied` as above.
 */
export function settleNative(outcome: OutcomeReport | null, usage: Usage | null): NativeSettlement {
  if (outcome?.native_compaction_trigger !== undefined) {
    const c = usage?.compaction;
    if (c === undefined) return { outcome: { ...outcome, outcome: "native_not_applied", tokens_sent: outcome.tokens_original, pairs_removed: 0 }, counters: {} };
    return { outcome, counters: { native_compactions: 1, native_compaction_input_tokens: c.input_tokens, native_compaction_output_tokens: c.output_tokens }, compacted: true };
  }
  const asked = outcome?.native_cleared ?? 0;
  if (outcome === null || asked <= 0) return { outcome, counters: {} };
  const applied = usage?.applied_edits?.find((e) => e.type === "clear_tool_uses_20250919");
  if (applied !== undefined && applied.cleared_tool_uses > 0) {
    const counters: Record<string, number> = { native_cleared_tool_uses: applied.cleared_tool_uses, native_cleared_input_tokens: applied.cleared_input_tokens };
    if (applied.cleared_tool_uses !== asked) counters.native_count_mismatch = 1;
    return { outcome, counters, provider: { applied: true, tool_uses: applied.cleared_tool_uses, input_tokens: applied.cleared_input_tokens } };
  }
  return {
    outcome: { ...outcome, outcome: "native_not_applied", tokens_sent: outcome.tokens_original, pairs_removed: 0 },
    counters: {},
    provider: { applied: false, tool_uses: 0, input_tokens: 0 },
  };
}
