/**
 * Latency and throughput figures of the load run (pure): nearest-rank percentiles, per-path
 * summaries, added latency over the direct path (paired per call), on/off ratios, and the
 * medians over rounds.
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
  /** CPU ms the serving instance (wrangler and workerd) used per request over the phase and its settling; null for direct or without /proc. */
  cpu_ms_per_request: number | null;
}

/** `x` ms rounded to 2 places, as every figure of the report is. */
const round = (x: number) => Math.round(x * 100) / 100;

/** Per call: `latencies[i]` less the direct path's latency of the same call, `direct[i]`. */
function pairedAdded(latencies: readonly number[], direct: readonly number[]): number[] {
  return latencies.map((t, i) => t - direct[i]!);
}

/** Summarises one path; `direct` (same call order) gives the paired added latency. */
export function summarizePath(latencies: readonly number[], errors: number, wallMs: number, direct: readonly number[] | null, cpuMs: number | null = null): PathSummary {
  const added = direct === null ? null : pairedAdded(latencies, direct);
  return {
    requests: latencies.length,
    errors,
    wall_ms: round(wallMs),
    throughput_rps: round((latencies.length / wallMs) * 1000),
    p50_ms: round(percentile(latencies, 50)),
    p99_ms: round(percentile(latencies, 99)),
    added_p50_ms: added === null ? null : round(percentile(added, 50)),
    added_p99_ms: added === null ? null : round(percentile(added, 99)),
    cpu_ms_per_request: cpuMs === null || latencies.length === 0 ? null : round(cpuMs / latencies.length),
  };
}

/**
 * a / b rounded to 3 places; null when either is null, b ≤ 0 or a < 0. The figures compared are
 * latencies, throughputs, CPU times and added latencies; an added latency ≤ 0 (the direct path
 * was the slower one in that round: noise) has no meaningful ratio, and a negative one must not
 * read as far under a target.
 */
export function ratio(a: number | null, b: number | null): number | null {
  if (a === null || b === null || b <= 0 || a < 0) return null;
  return Math.round((a / b) * 1000) / 1000;
}

/** One round's three path summaries. */
export interface RoundSummary {
  direct: PathSummary;
  off: PathSummary;
  on: PathSummary;
}

/** Median of `xs` (lower middle for an even count); null for an empty list. */
function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  return [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
}

/**
 * The run's figures from its rounds: per path, the median over rounds of each figure; the on/off
 * ratios computed per round, then their median (null where a round's ratio is undefined); and
 * every round's p50 added latencies and ratio, for the record.
 */
export function summarizeRounds(rounds: readonly RoundSummary[]) {
  const med = (f: (r: RoundSummary) => number | null) => median(rounds.map(f).filter((x): x is number => x !== null));
  const path = (k: keyof RoundSummary) => ({
    requests: rounds.reduce((a, r) => a + r[k].requests, 0),
    errors: rounds.reduce((a, r) => a + r[k].errors, 0),
    throughput_rps: med((r) => r[k].throughput_rps),
    p50_ms: med((r) => r[k].p50_ms),
    p99_ms: med((r) => r[k].p99_ms),
    added_p50_ms: med((r) => r[k].added_p50_ms),
    added_p99_ms: med((r) => r[k].added_p99_ms),
    cpu_ms_per_request: med((r) => r[k].cpu_ms_per_request),
  });
  const per = (f: (r: RoundSummary) => [number | null, number | null]) => med((r) => ratio(...f(r)));
  return {
    paths: { direct: path("direct"), off: path("off"), on: path("on") },
    ratios_on_vs_off: {
      throughput: per((r) => [r.on.throughput_rps, r.off.throughput_rps]),
      p50_latency: per((r) => [r.on.p50_ms, r.off.p50_ms]),
      p99_latency: per((r) => [r.on.p99_ms, r.off.p99_ms]),
      p50_added_latency: per((r) => [r.on.added_p50_ms, r.off.added_p50_ms]),
      p99_added_latency: per((r) => [r.on.added_p99_ms, r.off.added_p99_ms]),
      cpu_per_request: per((r) => [r.on.cpu_ms_per_request, r.off.cpu_ms_per_request]),
    },
    rounds: rounds.map((r) => ({ off_added_p50_ms: r.off.added_p50_ms, on_added_p50_ms: r.on.added_p50_ms, p50_added_ratio: ratio(r.on.added_p50_ms, r.off.added_p50_ms) })),
  };
}

/** One round's latencies per path, ms, in the same call order on every path. */
export interface RoundLatencies {
  direct: readonly number[];
  off: readonly number[];
  on: readonly number[];
}

/** Pooled p50 added latency of off and on (ms) and their ratio (null without calls, or when off ≤ 0 or on < 0: `ratio`). */
export interface PooledAdded {
  off_added_p50_ms: number | null;
  on_added_p50_ms: number | null;
  ratio: number | null;
}

/**
 * The on/off p50 added-latency ratio over every call of every round at once ("pooled"): each
 * call's added latency is paired with the direct path's latency of the same call in its own
 * round, then one p50 per path is taken over all of them. Beside the median of per-round
 * ratios (summarizeRounds), it uses all R × N × M calls for each p50 instead of R separate
 * medians, so a round whose phases drifted moves it by its share of the calls only.
 */
export function pooledAddedRatio(rounds: readonly RoundLatencies[]): PooledAdded {
  const added = (k: "off" | "on") => rounds.flatMap((r) => pairedAdded(r[k], r.direct));
  const p50 = (xs: number[]) => (xs.length === 0 ? null : round(percentile(xs, 50)));
  const off = p50(added("off"));
  const on = p50(added("on"));
  return { off_added_p50_ms: off, on_added_p50_ms: on, ratio: ratio(on, off) };
}

/** The lower quartile, median and upper quartile (nearest rank) of `xs`; nulls for an empty list. */
export function quartiles(xs: readonly number[]): [number | null, number | null, number | null] {
  if (xs.length === 0) return [null, null, null];
  return [percentile(xs, 25), percentile(xs, 50), percentile(xs, 75)];
}

/** Where a call stands in its session: the first (a new session: a new DO, the whole body read), the second, or a later one. */
export type CallPosition = "first" | "second" | "later";

/**
 * pooledAddedRatio per call position: each round's latencies split by where the call stands in
 * its session, then pooled over rounds. `sessionCalls` gives each session's call count, in the
 * order the latency lists hold the sessions (run-load.ts `phase`: every call of session 0, then
 * of session 1, …; a corpus session shorter than `--calls` sends fewer). A position no call holds
 * (one call per session: no second or later call) reads nulls. Throws RangeError when a count is
 * not a non-negative integer, or when a round's lists do not hold Σ sessionCalls latencies.
 * It shows where the on/off ratio comes from: a session's start (a new Durable Object and a full
 * read on the on path) against its steady calls (docs/reliability.md, eleventh session).
 */
export function pooledAddedByCallPosition(rounds: readonly RoundLatencies[], sessionCalls: readonly number[]): Record<CallPosition, PooledAdded> {
  const positions: CallPosition[] = [];
  sessionCalls.forEach((n, s) => {
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`sessionCalls[${s}]: ${n} is not a non-negative integer`);
    for (let k = 0; k < n; k++) positions.push(k === 0 ? "first" : k === 1 ? "second" : "later");
  });
  rounds.forEach((r, i) => {
    for (const p of ["direct", "off", "on"] as const) {
      if (r[p].length !== positions.length) throw new RangeError(`rounds[${i}].${p}: ${r[p].length} latencies for ${positions.length} calls`);
    }
  });
  const only = (pos: CallPosition) => rounds.map((r) => {
    const pick = (xs: readonly number[]) => xs.filter((_, i) => positions[i] === pos);
    return { direct: pick(r.direct), off: pick(r.off), on: pick(r.on) };
  });
  return { first: pooledAddedRatio(only("first")), second: pooledAddedRatio(only("second")), later: pooledAddedRatio(only("later")) };
}
