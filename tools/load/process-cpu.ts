/**
 * CPU time of a process and all its descendants (Linux /proc; measurement only): user + system
 * time from /proc/<pid>/stat fields 14 and 15 (proc(5)), in clock ticks of USER_HZ = 100 per
 * second (the fixed value the kernel exports to user space), returned in ms. Used by the load
 * run to charge each `wrangler dev` instance (its Node proxy and workerd) the CPU its requests
 * cost. Null where /proc is not readable (not Linux).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of /proc times (USER_HZ, proc(5)). */
const USER_HZ = 100;

/** ms of `ticks` clock ticks. */
const msOfTicks = (ticks: number): number => (ticks * 1000) / USER_HZ;

interface Stat { pid: number; ppid: number; comm: string; ticks: number }

/** Parses one /proc/<pid>/stat line (the command may hold spaces and parentheses: split after the last ")"). */
export function parseStat(line: string): Stat | null {
  const close = line.lastIndexOf(")");
  if (close < 0) return null;
  const pid = Number(line.slice(0, line.indexOf(" ")));
  const comm = line.slice(line.indexOf("(") + 1, close);
  const f = line.slice(close + 2).split(" "); // f[0] is field 3 (state)
  const ppid = Number(f[1]), utime = Number(f[11]), stime = Number(f[12]);
  return Number.isFinite(pid + ppid + utime + stime) ? { pid, ppid, comm, ticks: utime + stime } : null;
}

/**
 * The CPU key of one workerd thread. `wrangler dev` runs two workerd processes: its proxy, which
 * serves the dev port for both paths alike, and the user worker's (the one started with
 * `--inspector-addr`, where the Worker and its Durable Objects run); V8's helper threads ("V8
 * DefaultWorker": concurrent and parallel GC, background compilation) are kept apart from the
 * user workerd's own threads, since compaction's garbage shows there (docs/reliability.md, ninth
 * session). `cmdline` is /proc/<pid>/cmdline (NUL-separated), `threadComm` the thread's name.
 */
export function workerdKey(cmdline: string, threadComm: string): string {
  if (!cmdline.split("\0").some((a) => a.startsWith("--inspector-addr"))) return "workerd proxy";
  return threadComm.startsWith("V8 ") ? "workerd user V8 helpers" : "workerd user main";
}

/** CPU ms of each thread of workerd process `pid` by workerdKey (empty when it is gone). */
function workerdThreads(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const t = parseStat(readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8"));
        if (t) {
          const k = workerdKey(cmdline, t.comm);
          out[k] = (out[k] ?? 0) + msOfTicks(t.ticks);
        }
      } catch { /* thread exited meanwhile */ }
    }
  } catch { /* process exited meanwhile */ }
  return out;
}

/**
 * CPU ms used so far by `root` and its descendants, per command name (e.g. "node", "esbuild"),
 * with each workerd split by workerdKey, or null without /proc. (A thread that exited since an
 * earlier reading takes its time out of its key: fine for workerd, whose threads live as long as it.)
 */
export function treeCpuByCommand(root: number): Record<string, number> | null {
  if (!existsSync("/proc/self/stat")) return null;
  const stats: Stat[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const s = parseStat(readFileSync(`/proc/${name}/stat`, "utf8"));
      if (s) stats.push(s);
    } catch { /* exited meanwhile */ }
  }
  const inTree = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const s of stats) if (!inTree.has(s.pid) && inTree.has(s.ppid)) { inTree.add(s.pid); grew = true; }
  }
  const out: Record<string, number> = {};
  for (const s of stats) {
    if (!inTree.has(s.pid)) continue;
    if (s.comm === "workerd") for (const [k, v] of Object.entries(workerdThreads(s.pid))) out[k] = (out[k] ?? 0) + v;
    else out[s.comm] = (out[s.comm] ?? 0) + msOfTicks(s.ticks);
  }
  return out;
}

/**
 * CPU ms a phase's requests cost: per command, `used` (ms over the phase) minus what the
 * instance burns idle over the same span (`idlePerS`, ms of CPU per second of wall time, from
 * an idle sample: wrangler's file watcher and timers tick without requests), floored at 0.
 * `spanMs` is the phase's wall time plus its settling wait.
 */
export function minusIdle(used: Record<string, number>, idlePerS: Record<string, number>, spanMs: number): Record<string, number> {
  return Object.fromEntries(Object.entries(used).map(([k, v]) => [k, Math.max(0, v - ((idlePerS[k] ?? 0) * spanMs) / 1000)]));
}

/** Per command, the smaller of two idle samples (null when either is). */
export function minByCommand(a: Record<string, number> | null, b: Record<string, number> | null): Record<string, number> | null {
  if (a === null || b === null) return null;
  return Object.fromEntries(Object.entries(a).map(([k, v]) => [k, Math.min(v, b[k] ?? v)]));
}

/** Per command, CPU ms used between two treeCpuByCommand readings (a command new in `after` counts from 0). */
export function cpuSince(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - (before[k] ?? 0)]));
}

/** CPU ms per second each command of `pid`'s tree uses over `ms` of wall time with no requests (null without /proc). */
export async function idleCpuPerSecond(pid: number, ms: number): Promise<Record<string, number> | null> {
  const a = treeCpuByCommand(pid);
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, ms));
  const b = treeCpuByCommand(pid);
  const wall = performance.now() - t0;
  if (a === null || b === null) return null;
  return Object.fromEntries(Object.entries(cpuSince(a, b)).map(([k, v]) => [k, (v * 1000) / wall]));
}

/** The machine's CPU time counters from the first line of /proc/stat (proc(5)), in ticks: all states summed, and `steal` (time the hypervisor gave another guest). */
export function parseProcStatCpu(line: string): { total: number; steal: number } | null {
  const f = line.trim().split(/\s+/);
  if (f[0] !== "cpu" || f.length < 9) return null;
  const v = f.slice(1, 11).map(Number); // user nice system idle iowait irq softirq steal [guest guest_nice: already in user/nice]
  if (v.some((x) => !Number.isFinite(x))) return null;
  return { total: v.slice(0, 8).reduce((a, b) => a + b, 0), steal: v[7]! };
}

/** Reads parseProcStatCpu from /proc/stat; null without it. */
export function machineCpu(): { total: number; steal: number } | null {
  try {
    return parseProcStatCpu(readFileSync("/proc/stat", "utf8").split("\n")[0]!);
  } catch {
    return null;
  }
}

/**
 * Steal (percent) from which a run's latency figures are not to be trusted. Calibration
 * (docs/reliability.md, fifth session): ten runs at ≤ 1.3 % steal read per-round on/off ratios of
 * 0.92–1.96 but for one round at 3.75; one at 3.6 % spread over 0.58–3.0; those at 6.8–13 % from
 * −5.2 to 40.
 */
export const STEAL_WARN_PERCENT = 3;

/** The warning a run at `percent` steal gets (stderr), or null below STEAL_WARN_PERCENT or without a reading. */
export function stealWarning(percent: number | null): string | null {
  if (percent === null || percent < STEAL_WARN_PERCENT) return null;
  return `load: cpu_steal_percent ${percent} ≥ ${STEAL_WARN_PERCENT}: the host gave other guests that share of the CPU during the run; its latency ratios are noise (docs/reliability.md), run again when it is quiet`;
}

/** Percent of the machine's CPU time stolen by the hypervisor between two readings (a noisy-neighbour gauge for the run), 1 decimal; null without both. */
export function stealPercent(a: { total: number; steal: number } | null, b: { total: number; steal: number } | null): number | null {
  if (a === null || b === null || b.total <= a.total) return null;
  return Math.round(((b.steal - a.steal) / (b.total - a.total)) * 1000) / 10;
}
