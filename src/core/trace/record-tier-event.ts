/**
 * Trace events (pure over an injected sink): one JSON line per compaction, readable with
 * `tail`. Holds counts, ids and prices only — never prompt text (DESIGN invariant 7).
 */
import type { TierResult } from "../policy/types";

/** Where trace lines go (a file appender in Node tools, a log/queue writer in the Worker). */
export interface TraceSink {
  /** Appends one line (no trailing newline; the sink adds it). */
  append(line: string): void;
}

/** The JSON shape of one line. */
export interface TierEvent {
  type: "tier_event";
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

/** Appends the event of `result` to `trace` and returns it. */
export function recordTierEvent(trace: TraceSink, result: TierResult): TierEvent {
  const event: TierEvent = {
    type: "tier_event",
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
