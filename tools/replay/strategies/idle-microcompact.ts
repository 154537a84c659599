/**
 * Strategy `idle-microcompact` (pure): Claude Code's time-based microcompact
 * (services/compact/microCompact.ts, as documented by ports of it: when the gap since the last
 * assistant message is at least 60 minutes — the provider cache has expired anyway — clear all
 * tool results but the 5 most recent, replacing their content with
 * "[Old tool result content cleared]").
 *
 * Sticky: Claude Code rewrites its own history, so a result cleared once stays cleared in every
 * later request. State = the set of cleared call ids + the previous call's time.
 * Gap: this call's virtual time − the previous call's (the previous reply came right after it).
 * Deviation: Claude Code limits it to its compactable tools (Read, Bash, Grep, Glob, Edit,
 * Write, WebFetch, WebSearch); the replay applies it to every tool so it works on any session.
 */
import { historyOf, replaceToolResults, toolResultsIn } from "../tool-pairs";
import type { PureStrategy } from "../types";

/** Knobs. */
export interface IdleMicrocompactConfig {
  /** Idle gap that fires the step, ms (60 min). */
  gap_ms: number;
  /** Most recent tool results kept. */
  keep: number;
  placeholder: string;
}

export const IDLE_MICROCOMPACT_DEFAULTS: IdleMicrocompactConfig = { gap_ms: 60 * 60_000, keep: 5, placeholder: "[Old tool result content cleared]" };

/** State carried between calls of one session. */
export interface IdleMicrocompactState {
  last_time_ms: number | null;
  /** Result keys (call id, "#n" for a repeated id) cleared so far, in clearing order. */
  cleared: readonly string[];
}

/** Builds the strategy. */
export function createIdleMicrocompact(config: IdleMicrocompactConfig = IDLE_MICROCOMPACT_DEFAULTS): PureStrategy<IdleMicrocompactState> {
  return {
    kind: "pure",
    name: "idle-microcompact",
    source: "Claude Code time-based microcompact (services/compact/microCompact.ts): after 60 min idle keep the 5 newest tool results, sticky",
    initial: () => ({ last_time_ms: null, cleared: [] }),
    apply(body, ctx, state) {
      let cleared = state.cleared;
      if (state.last_time_ms !== null && ctx.time_ms - state.last_time_ms >= config.gap_ms) {
        const results = toolResultsIn(ctx.provider, historyOf(ctx.provider, body));
        const older = results.slice(0, Math.max(0, results.length - config.keep)).map((r) => r.key);
        const known = new Set(cleared);
        cleared = [...cleared, ...older.filter((id) => !known.has(id))];
      }
      const set = new Set(cleared);
      const next = set.size === 0 ? body : replaceToolResults(ctx.provider, body, (r) => (set.has(r.key) ? config.placeholder : null));
      return { body: next, state: { last_time_ms: ctx.time_ms, cleared } };
    },
  };
}
