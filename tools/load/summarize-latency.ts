/**
 * Latency and throughput figures of the load run (pure): nearest-rank percentiles, per-path
 * summaries, added latency over the direct path (paired per call), and on/off ratios.
 */

/** Nearest-rank percentile (p in (0, 100]) of `xs`; NaN for an empty list. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** One path's figures. Times in ms. */
export interface PathSummary {
  requests: number;
  errors: number;
  wall_ms: number;
  /** Completed requests per second over the phase's wall time. */
  throughput_rps: number;
  p50_ms: number;
  p99_ms: number;
  /** Per call: this path's latency minus the direct path's for the same call (null for direct). */
  added_p50_ms: number | null;
  added_p99_ms: number | null;
}

/** Summarises one path; `direct` (same call order) gives the paired added latency. */
export function summarizePath(latencies: readonly number[], errors: number, wallMs: number, direct: readonly number[] | null): PathSummary {
  const added = direct === null ? null : latencies.map((t, i) => t - direct[i]!);
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    requests: latencies.length,
    errors,
    wall_ms: round(wallMs),
    throughput_rps: round((latencies.length / wallMs) * 1000),
    p50_ms: round(percentile(latencies, 50)),
    p99_ms: round(percentile(latencies, 99)),
    added_p50_ms: added === null ? null : round(percentile(added, 50)),
    added_p99_ms: added === null ? null : round(percentile(added, 99)),
  };
}

/** a / b rounded to 3 places; null when b is 0 or either is null. */
export function ratio(a: number | null, b: number | null): number | null {
  if (a === null || b === null || b === 0) return null;
  return Math.round((a / b) * 1000) / 1000;
}
