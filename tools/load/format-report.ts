/**
 * The load run's report as a few lines of text (pure): what `npm run load` prints without
 * `--json`. Times in ms, CPU in ms per request; every figure is one the JSON report holds
 * (tools/load/run-load.ts), rounded as it rounds them.
 */
import type { CallPosition, PooledAdded } from "./summarize-latency";

/** A path's figures as the report holds them (medians over rounds: ./summarize-latency.ts). */
interface PathFigures {
  requests: number;
  errors: number;
  p50_ms: number | null;
  p99_ms: number | null;
  added_p50_ms: number | null;
  added_p99_ms: number | null;
  cpu_ms_per_request: number | null;
}


/** The parts of the JSON report the text shows. */
export interface LoadReportView {
  sessions: number;
  calls_per_session: number;
  round_count: number;
  offered_rps: number | null;
  cpu_steal_percent: number | null;
  paths: { direct: PathFigures; off: PathFigures; on: PathFigures };
  ratios_on_vs_off: { p50_added_latency: number | null; p99_added_latency: number | null; cpu_per_request: number | null };
  p50_added_latency_pooled: { ratio: number | null };
  p50_added_ratio_quartiles_over_rounds: [number | null, number | null, number | null];
  rounds: { p50_added_ratio: number | null }[];
  /** Pooled p50 added latency off → on by where the call stands in its session (./summarize-latency.ts pooledAddedByCallPosition); absent: no line. */
  p50_added_by_call_position?: Record<CallPosition, PooledAdded>;
  do_state: { calls_counted_vs_sent: string; consistent: boolean; compaction_off_do_files: number };
  /** CPU ms per request of each process (workerd split by thread kind: ./process-cpu.ts workerdKey); absent or empty without /proc. */
  cpu_ms_per_request_by_process?: { off: Record<string, number>; on: Record<string, number> };
}

const show = (x: number | null, unit = ""): string => (x === null ? "—" : `${x}${unit}`);
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

/** "CPU ms/request, off → on: K a → b, …" over the keys either path has, sorted; no line without figures. */
function cpuLine(by: LoadReportView["cpu_ms_per_request_by_process"]): string[] {
  if (by === undefined) return [];
  const keys = [...new Set([...Object.keys(by.off), ...Object.keys(by.on)])].sort();
  if (keys.length === 0) return [];
  return [`CPU ms/request, off → on: ${keys.map((k) => `${k} ${show(by.off[k] ?? null)} → ${show(by.on[k] ?? null)}`).join(", ")}`];
}

/** "p50 added by call in session (pooled), off → on: first a → b ms (r×), …"; no line without the figures. */
function positionLine(by: LoadReportView["p50_added_by_call_position"]): string[] {
  if (by === undefined) return [];
  const part = (name: string, x: PooledAdded) =>
    `${name} ${show(x.off_added_p50_ms)} → ${show(x.on_added_p50_ms)} ms (${show(x.ratio, "×")})`;
  return [`p50 added by call in session (pooled), off → on: ${part("first", by.first)}, ${part("second", by.second)}, ${part("later", by.later)}`];
}

/** The report as text lines (no trailing newline). */
export function formatReport(r: LoadReportView): string {
  const row = (name: string, p: PathFigures) =>
    `${name.padEnd(15)} ${String(p.requests).padStart(6)} ${String(p.errors).padStart(6)} ${show(p.p50_ms).padStart(8)} ${show(p.p99_ms).padStart(8)} ${show(p.added_p50_ms).padStart(10)} ${show(p.added_p99_ms).padStart(10)} ${show(p.cpu_ms_per_request).padStart(8)}`;
  const [q1, q2, q3] = r.p50_added_ratio_quartiles_over_rounds;
  const ratios = r.ratios_on_vs_off;
  return [
    `load: ${plural(r.sessions, "session")} × ${plural(r.calls_per_session, "call")}, ${plural(r.round_count, "round")}, offered ${show(r.offered_rps, " calls/s")}, CPU steal ${show(r.cpu_steal_percent, " %")}`,
    `${"path".padEnd(15)} ${"reqs".padStart(6)} ${"errors".padStart(6)} ${"p50".padStart(8)} ${"p99".padStart(8)} ${"added p50".padStart(10)} ${"added p99".padStart(10)} ${"CPU/req".padStart(8)}`,
    row("direct", r.paths.direct),
    row("compaction off", r.paths.off),
    row("compaction on", r.paths.on),
    `on/off p50 added latency: ${show(ratios.p50_added_latency, "×")} (median of rounds; target ≤ 1.3×), pooled over all calls ${show(r.p50_added_latency_pooled.ratio, "×")}, rounds' quartiles ${show(q1)} / ${show(q2)} / ${show(q3)}`,
    `per round: ${r.rounds.map((x) => show(x.p50_added_ratio)).join(" ")}`,
    ...positionLine(r.p50_added_by_call_position),
    `on/off p99 added latency ${show(ratios.p99_added_latency, "×")}, CPU per request ${show(ratios.cpu_per_request, "×")}`,
    ...cpuLine(r.cpu_ms_per_request_by_process),
    `DO state: ${r.do_state.calls_counted_vs_sent}${r.do_state.consistent ? "" : " (INCONSISTENT)"}; compaction-off DO files ${r.do_state.compaction_off_do_files}`,
  ].join("\n");
}
