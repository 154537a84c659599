/**
 * The session files a replay reads (I/O: the file system): the paths named on the command line,
 * each a file (taken as is) or a directory (searched recursively for *.json / *.jsonl, in name
 * order). Throws Error naming the path when one does not exist, and naming them all when they
 * hold no session file at all (so an empty folder is not reported as a replay without runs).
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** The files under `paths`, in order; throws Error("<path>: no such file or directory") or Error("no session files …"). */
export function expandFiles(paths: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    if (!existsSync(p)) throw new Error(`${p}: no such file or directory`);
    if (statSync(p).isDirectory()) {
      for (const name of readdirSync(p).sort()) {
        const child = join(p, name);
        if (statSync(child).isDirectory() || /\.jsonl?$/.test(name)) walk(child);
      }
    } else out.push(p);
  };
  paths.forEach(walk);
  if (out.length === 0) throw new Error(`no session files (*.json, *.jsonl) in ${paths.join(", ")}`);
  return out;
}
