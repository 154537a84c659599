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

/** CPU ms used so far by `root` and its descendants, per command name (e.g. "node", "workerd"), or null without /proc. */
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
  for (const s of stats) if (inTree.has(s.pid)) out[s.comm] = (out[s.comm] ?? 0) + (s.ticks * 1000) / USER_HZ;
  return out;
}
