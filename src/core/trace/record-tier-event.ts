/**
 * Trace events (pure over an injected sink): one JSON line per compaction step, readable with
 * `tail`. Holds counts, ids and prices only — never prompt text (DESIGN invariant 7). The
 * session DO writes one per request whose policy selected a tier (src/session/run-step.ts), to
 * the Worker log (`wrangler tail --format json`, Workers Logs).
 */
import type { TierResult } from "../policy/types";

/** Where trace lines go (a file appender in Node tools, a log/queue writer in the Worker). */
export interface TraceSink {
  /** Appends one line (no trailing newline; the sink adds it). */
  append(line: string): void;
}

/** The JSON shape of one line. */
export interface TierEvent {
  /** Always "sluice_tier_event": the line's kind, for filters (beside "sluice_fail_open", src/gateway/log-fail-open.ts). */
  event: "sluice_tier_event";
  /** The session key (the session DO's name). */
  session_id: string;
  tier: string;
  tokens_before: number;
  tokens_after: number;
  /** USD. */
  cost_estimate: number;
  correlation_id: string;
  /** Step number when a step was taken, else null. */
  step: number | null;
  pairs_edited: number;
  /** Selected tier and reason when it refused, else null. */
  skipped: { tier: string; reason: string } | null;
}

/** Appends the event of `result` in session `session_id` to `trace` and returns it. */
export function recordTierEvent(trace: TraceSink, result: TierResult, session_id: string): TierEvent {
  const event: TierEvent = {
    event: "sluice_tier_event",
    session_id,
    tier: result.tier,
    tokens_before: result.tokens_before,
    tokens_after: result.tokens_after,
    cost_estimate: result.cost_estimate,
    correlation_id: result.correlation_id,
    step: result.step?.step ?? null,
    pairs_edited: result.step?.pair_ids.length ?? 0,
    skipped: result.skipped,
  };
  trace.append(JSON.stringify(event));
  return event;
}

/** A sink that drops every line (the replay and the benchmarks, whose output is their report). */
export const QUIET_TRACE: TraceSink = { append: () => undefined };

/** The Worker log as a sink (console.log: one line per call). Never throws. */
export const consoleTrace: TraceSink = {
  append(line) {
    try {
      console.log(line);
    } catch { /* logging is best effort */ }
  },
};
