/**
 * The processes the test suite starts (reference engines, the emulator entry point, tool
 * children), so that none outlives the run, whatever way the run ends (Node shell, test support):
 * - trackChild: the child is killed (its whole process group when it leads one) when the test
 *   process exits, normally, on an uncaught error or on SIGINT/SIGTERM/SIGHUP (signal-exit);
 *   and it is listed as a file under test-output/children/<run>/ until it exits.
 * - reapChildren: kills every listed process still alive that a test worker started; the root
 *   globalSetup's teardown (test/support/reap-children.ts) calls it, so a test process that was
 *   SIGKILLed (a hung worker ended by vitest, an out-of-memory kill) leaves nothing behind
 *   either. What the vitest main process started (a project's globalSetup) is left to that
 *   setup's own teardown, which vitest runs after the root's, and to the exit hook.
 * <run> is the vitest main process's pid: globalSetup runs in it, test files in its forked
 * workers (process.ppid), so two runs in one checkout never reap each other's children.
 */
import type { ChildProcess } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { onExit } from "signal-exit";

const ROOT_DIR = fileURLToPath(new URL("../../test-output/children/", import.meta.url).href);

/** The registry folder of this run: test-output/children/<vitest main pid>. */
export function registryDir(mainPid: number = process.env.VITEST_WORKER_ID !== undefined ? process.ppid : process.pid): string {
  return join(ROOT_DIR, String(mainPid));
}

/** What a registry file records: the pid, whether it leads its own process group, its command line, and the pid of the process that started it. */
interface Entry {
  pid: number;
  group: boolean;
  command: string;
  owner: number;
}

/** Sends `signal` to the child (its group when `group`); false when it no longer exists. */
function signalChild(e: Entry, signal: NodeJS.Signals): boolean {
  try {
    process.kill(e.group ? -e.pid : e.pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Registers a spawned child. `group`: it was spawned with `detached: true`, so it leads its own
 * process group and killing the group also reaches what it started (tsx's node child). Returns
 * nothing; the entry goes away by itself when the child exits.
 */
export function trackChild(child: ChildProcess, group: boolean): void {
  if (child.pid === undefined) return;
  const entry: Entry = { pid: child.pid, group, command: child.spawnargs.join(" "), owner: process.pid };
  const dir = registryDir();
  mkdirSync(dir, { recursive: true });
  const file = join(dir, String(child.pid));
  writeFileSync(file, JSON.stringify(entry));
  const release = onExit(() => { signalChild(entry, "SIGKILL"); });
  child.once("exit", () => {
    release();
    rmSync(file, { force: true });
    // The group may outlive its leader (tsx ends, its node child not yet): end the rest.
    if (group) signalChild(entry, "SIGKILL");
  });
}

/**
 * Kills (SIGKILL) every process listed in the run's registry that is still alive and was started
 * by another process than `keepOwner` (the caller, by default), and removes their entries.
 * Returns the command lines of the processes that were still alive: a non-empty list means some
 * test did not stop what it started.
 */
export function reapChildren(dir: string = registryDir(), keepOwner: number = process.pid): string[] {
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch {
    return [];
  }
  const reaped: string[] = [];
  for (const f of files) {
    const path = join(dir, f);
    try {
      const e = JSON.parse(readFileSync(path, "utf8")) as Entry;
      if (e.owner === keepOwner) continue;
      if (signalChild(e, "SIGKILL")) reaped.push(e.command);
    } catch {
      // A file half-written by a dying process: nothing to kill by it.
    }
    rmSync(path, { force: true });
  }
  return reaped;
}
