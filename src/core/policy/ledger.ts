/**
 * The session's sticky compaction ledger and its re-application (pure; DESIGN invariant 6).
 * Entries are keyed by pair id + result hash; each records the action, the step that decided
 * it and when the pair was first seen. Every request re-applies every entry whose pair is
 * present, so the compacted prefix stays byte-identical between steps; a new step only adds
 * entries. The host stores the ledger (session DO) and merges the additions compact() returns.
 */
import type { PairAction } from "../plan/types";
import type { StepFacts } from "../facts/step-facts";
import type { Tier } from "./types";
import { pairIsOld } from "./locate-boundaries";

/** One sticky decision. */
export interface LedgerEntry {
  pair_id: string;
  /** PairFacts.result_hash when decided; a pair whose result changed is not re-edited. */
  result_hash: string;
  action: PairAction;
  /** Step number that decided it (1-based). */
  step: number;
  /** Epoch ms when the session first saw the pair. */
  first_seen_ms: number;
}

/** One compaction step of the session. */
export interface LedgerStep {
  step: number;
  tier: Tier;
  /** Epoch ms of the request that took the step. */
  at_ms: number;
  pair_count: number;
  /** Estimated tokens the step removed from the request that took it. */
  tokens_removed: number;
  /** The cost model's net benefit of the step, USD. */
  net_benefit_usd: number;
}

/** The whole ledger of a session. */
export interface Ledger {
  /** ledgerKey(pair_id, result_hash) → entry. */
  entries: Record<string, LedgerEntry>;
  /** Pair id → epoch ms when first seen (every pair, removed or not; the time_based tier's ages). */
  first_seen: Record<string, number>;
  steps: LedgerStep[];
}

/** What one request adds to the ledger. */
export interface LedgerAdditions {
  entries: LedgerEntry[];
  /** First-seen times of pairs this request showed for the first time. */
  first_seen: Record<string, number>;
  step: LedgerStep | null;
}

/** A new session's ledger. */
export const EMPTY_LEDGER: Ledger = { entries: {}, first_seen: {}, steps: [] };

/** Ledger key of a pair: id and result hash. */
export function ledgerKey(pair_id: string, result_hash: string): string {
  return `${pair_id}#${result_hash}`;
}

/** Result of re-applying the ledger to a view. */
export interface Reapplied {
  /** Pair id → action, for every present pair the ledger decided. */
  actions: Record<string, PairAction>;
  /** Pair ids in the ledger that could not be re-applied, with the reason ("locked: …", "result_changed"). */
  skipped: Record<string, string>;
}

/** What re-application never overrides (the request's own config: CoreConfig's fields of the same names). */
export interface ReapplyGuards {
  /** Pairs in the last this-many turns of THIS request are never edited (DESIGN invariant 4). */
  preserve_recent_turns: number;
  /** Tools never touched (DESIGN §5). */
  exclude_tools: readonly string[];
  /** Lock reasons that do not stop a re-application (the native mechanism's splice-only locks: ./native-prefix.ts). Absent: every lock stops it. */
  ignored_locks?: ReadonlySet<string>;
}

/**
 * Re-applies `ledger` to `view`: the sticky part of the plan. An entry is not re-applied (and is
 * reported in `skipped`) when its pair's result changed, the adapter locked the pair, its tool is
 * excluded, or the pair lies in the request's recent turns ("recent"): in a growing history a
 * decided pair only gets older, but a rewound or forked history sent under the same session can
 * bring it back into the protected window, and the protection wins (found by the fresh-user pass
 * of 2026-12-01). A summary whose covered pairs are not all removed becomes `drop_pair`
 * (keepSummariesWhole).
 */
export function reapplyLedger(view: StepFacts, ledger: Ledger, guards: ReapplyGuards): Reapplied {
  const actions: Record<string, PairAction> = {};
  const skipped: Record<string, string> = {};
  // No entry, nothing to re-apply or skip: the walk below would only build a key per pair (most sessions, most calls).
  if (isEmpty(ledger.entries)) return { actions, skipped };
  const excluded = new Set(guards.exclude_tools);
  let byId: Map<string, LedgerEntry> | null = null;
  for (const pair of view.pairs) {
    const entry = ledger.entries[ledgerKey(pair.id, pair.result_hash)];
    if (entry === undefined) {
      byId ??= new Map(Object.values(ledger.entries).map((e) => [e.pair_id, e]));
      if (byId.has(pair.id)) skipped[pair.id] = "result_changed";
      continue;
    }
    if (pair.locked !== null && guards.ignored_locks?.has(pair.locked) !== true) {
      skipped[pair.id] = `locked: ${pair.locked}`;
      continue;
    }
    if (excluded.has(pair.tool_name)) {
      skipped[pair.id] = "excluded_tool";
      continue;
    }
    if (!pairIsOld(view, pair, guards.preserve_recent_turns)) {
      skipped[pair.id] = "recent";
      continue;
    }
    actions[pair.id] = entry.action;
  }
  keepSummariesWhole(view, actions);
  return { actions, skipped };
}

/**
 * A summary stands only while every pair it covers is gone: when a covered pair is in the view
 * but not re-applied (its result changed, it came back into the recent turns), the host's
 * summary would say that pair was removed while it is there. The host is then removed like the
 * others (`drop_pair`, what the step falls back to when a summary fails).
 */
function keepSummariesWhole(view: StepFacts, actions: Record<string, PairAction>): void {
  let present: Set<string> | null = null;
  for (const [id, action] of Object.entries(actions)) {
    if (action.kind !== "summarize") continue;
    present ??= new Set(view.pairs.map((p) => p.id));
    if (action.covers.slice(1).some((c) => present!.has(c) && actions[c]?.kind !== "drop_pair")) actions[id] = { kind: "drop_pair" };
  }
}

/** True when `record` has no own enumerable key (O(1), unlike Object.keys). */
function isEmpty(record: Record<string, unknown>): boolean {
  for (const k in record) if (Object.prototype.hasOwnProperty.call(record, k)) return false;
  return true;
}

/**
 * Merges additions into a ledger (pure; returns a new ledger, neither input changed), as the
 * session DO's SQL store does (src/session/compaction-ledger.ts): for hosts that keep the ledger in memory
 * (the core's corpus replay). Parts the additions leave alone are shared with `ledger`.
 */
export function mergeLedger(ledger: Ledger, add: LedgerAdditions): Ledger {
  let entries = ledger.entries;
  if (add.entries.length > 0) {
    entries = { ...ledger.entries };
    for (const e of add.entries) entries[ledgerKey(e.pair_id, e.result_hash)] = e;
  }
  const first_seen = Object.keys(add.first_seen).length > 0 ? { ...ledger.first_seen, ...add.first_seen } : ledger.first_seen;
  return { entries, first_seen, steps: add.step === null ? ledger.steps : [...ledger.steps, add.step] };
}
