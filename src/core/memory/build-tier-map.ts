/**
 * The memory tier map of a session (pure, deterministic; DESIGN §7), built from its
 * conversation view:
 * - working: the recent turns (preserve_recent_turns), never touched;
 * - reference: an index keyed by file path, command, error line and tool name → where each
 *   appeared (pair ids, first/last message, count);
 * - archival: the closed stretches before the working turns, ARCHIVAL_STRETCH_TURNS turns
 *   each, as counts (calls per tool, errors, estimated tokens) and call ids; at the complete
 *   alarm the summaries the session wrote at level `rewrite` join them (./archival-summaries.ts).
 * Keys are the short identifiers DESIGN §7 names, each capped at KEY_MAX_CHARS: tool names,
 * error lines (from the result's head), and — as the step facts carry them — the hashes of
 * file paths and commands (src/core/facts/step-facts.ts); no result bodies or prose are copied.
 */
import { pairsInCallOrder } from "../engine/run-heuristic-engine";
import type { StepFacts } from "../facts/step-facts";

/** Turns per archival stretch: the seed's archival tier holds one summary per ~20 turns. */
export const ARCHIVAL_STRETCH_TURNS = 20;
/** Longest key kept (characters); longer commands/error lines are cut. */
export const KEY_MAX_CHARS = 160;

export type ReferenceKind = "path" | "command" | "error" | "tool";

/** Where one key appeared. */
export interface ReferenceEntry {
  kind: ReferenceKind;
  key: string;
  pair_ids: string[];
  first_message: number;
  last_message: number;
  count: number;
}

/** A closed stretch of the history, as counts. */
export interface ArchivalStretch {
  from_turn: number;
  to_turn: number;
  from_message: number;
  to_message: number;
  tool_calls: number;
  /** Calls per tool name, sorted by name. */
  tool_counts: Record<string, number>;
  errors: number;
  est_tokens: number;
  /** Ids of the stretch's tool calls, in call order: a stretch a written summary covers whole is shown by that summary (./archival-summaries.ts). Absent in maps built before this field. */
  pair_ids?: string[];
}

/** A summary the session's rewrite steps wrote of a closed stretch (its ledger's summarize entry), kept in the archival tier. */
export interface ArchivalSummary {
  /** Tool calls (pairs) the summary stands for. */
  covers: number;
  /** The summary text as forwarded (src/core/plan/summary-block.ts carries it in the request). */
  text: string;
}

/** The tier map. */
export interface TierMap {
  working: { from_message: number; from_turn: number; turns: number };
  /** `${kind}:${key}` → entry, keys sorted. */
  reference: Record<string, ReferenceEntry>;
  archival: ArchivalStretch[];
  /** Level `rewrite` only: the summaries the session wrote, oldest first (./archival-summaries.ts); absent when none. */
  summaries?: ArchivalSummary[];
}

/** Builds the tier map of `view`, keeping the last `preserve_recent_turns` turns as working. */
export function buildTierMap(view: StepFacts, preserve_recent_turns: number): TierMap {
  const fromTurn = Math.max(0, view.turn_count - preserve_recent_turns + 1);
  const wi = view.messages.findIndex((m) => m.turn_index >= fromTurn);
  const workingFrom = wi < 0 ? view.messages.length : wi;
  const refs = new Map<string, ReferenceEntry>();
  const note = (kind: ReferenceKind, raw: string, pairId: string, msg: number) => {
    const key = raw.trim().slice(0, KEY_MAX_CHARS);
    if (key === "") return;
    const k = `${kind}:${key}`;
    const e = refs.get(k);
    if (e === undefined) refs.set(k, { kind, key, pair_ids: [pairId], first_message: msg, last_message: msg, count: 1 });
    else {
      e.pair_ids.push(pairId);
      e.first_message = Math.min(e.first_message, msg);
      e.last_message = Math.max(e.last_message, msg);
      e.count += 1;
    }
  };
  const pairs = pairsInCallOrder(view.pairs);
  for (const p of pairs) {
    const at = p.call.message_index;
    note("tool", p.tool_name, p.id, at);
    const info = p.call_class;
    if (info.kind !== "other") for (const path of info.paths) note("path", path, p.id, at);
    if (info.shell) note("command", info.intent, p.id, at);
    if (p.looks_failed) note("error", p.error_line, p.id, p.result.message_index);
  }
  const reference: Record<string, ReferenceEntry> = {};
  for (const k of [...refs.keys()].sort()) reference[k] = refs.get(k)!;

  const archival: ArchivalStretch[] = [];
  for (let t = 0; t < fromTurn; t += ARCHIVAL_STRETCH_TURNS) {
    const to = Math.min(fromTurn - 1, t + ARCHIVAL_STRETCH_TURNS - 1);
    const msgs = view.messages.filter((m) => m.turn_index >= t && m.turn_index <= to);
    if (msgs.length === 0) continue;
    const inStretch = pairs.filter((p) => view.messages[p.call.message_index]!.turn_index >= t && view.messages[p.call.message_index]!.turn_index <= to);
    const counts: Record<string, number> = {};
    for (const name of inStretch.map((p) => p.tool_name).sort()) counts[name] = (counts[name] ?? 0) + 1;
    archival.push({
      from_turn: t,
      to_turn: to,
      from_message: msgs[0]!.index,
      to_message: msgs[msgs.length - 1]!.index,
      tool_calls: inStretch.length,
      tool_counts: counts,
      errors: inStretch.filter((p) => p.looks_failed).length,
      est_tokens: msgs.reduce((s, m) => s + m.est_tokens, 0),
      pair_ids: inStretch.map((p) => p.id),
    });
  }
  return { working: { from_message: workingFrom, from_turn: fromTurn, turns: Math.min(preserve_recent_turns, view.turn_count + 1) }, reference, archival };
}
