/**
 * When the load run sends each call (pure). Latency is measured at a fixed offered rate, below
 * saturation: in a closed loop with no pause (each session sends its next call the moment the
 * last answer ends) the response time is N ÷ throughput for N sessions, so "added latency"
 * there is a throughput figure, and on this 2-core machine a small CPU difference between the
 * two instances swung the on/off ratio from 0.8× to 4× between rounds (docs/reliability.md).
 * Paced, the sessions are staggered evenly over one interval so arrivals are smooth, not bursts
 * of N. A call whose session is still waiting for its previous answer goes as soon as that
 * answer ends, and its latency is counted from the time it was due (no coordinated omission:
 * G. Tene, "How NOT to Measure Latency"; wrk2's constant-throughput mode works the same way).
 */

/**
 * Due time of call `k` (0-based) of session `i` of `n`, ms after the phase starts, when each
 * session sends one call every `intervalMs`: i × intervalMs / n + k × intervalMs. With
 * `intervalMs` 0 (closed loop: saturation throughput) every call is due at 0 and is sent when
 * its session's previous answer ends.
 */
export function dueMs(i: number, k: number, n: number, intervalMs: number): number {
  return intervalMs === 0 ? 0 : (i * intervalMs) / n + k * intervalMs;
}
