/**
 * Virtual send time of every call (pure): the recorded timestamp when there is one, else the
 * previous call's time + DEFAULT_CALL_GAP_MS (the first call of a session with no time at all
 * starts at DEFAULT_START_MS). Times never go backwards: a recorded time earlier than the
 * previous call's is raised to it (exports with second precision or clock skew).
 */
import { DEFAULT_CALL_GAP_MS, DEFAULT_START_MS } from "./defaults";
import type { RecordedCall } from "./types";

/** Epoch ms per call, non-decreasing, same length as `calls`. */
export function assignCallTimes(calls: readonly RecordedCall[], gapMs: number = DEFAULT_CALL_GAP_MS): number[] {
  const out: number[] = [];
  const firstKnown = calls.find((c) => c.timestamp_ms !== null)?.timestamp_ms ?? null;
  const firstIndex = calls.findIndex((c) => c.timestamp_ms !== null);
  calls.forEach((c, i) => {
    if (i === 0) {
      // Before the first recorded time, count back from it so later gaps stay as recorded.
      out.push(c.timestamp_ms ?? (firstKnown !== null ? firstKnown - firstIndex * gapMs : DEFAULT_START_MS));
      return;
    }
    const prev = out[i - 1]!;
    out.push(c.timestamp_ms !== null ? Math.max(prev, c.timestamp_ms) : prev + gapMs);
  });
  return out;
}
