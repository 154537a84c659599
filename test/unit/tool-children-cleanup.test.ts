/**
 * The dev tools' child processes do not outlive the tool (tools/shared/start-wrangler-dev.ts,
 * tools/load/start-emulator-process.ts). `wrangler dev` runs in its own process group, so a
 * Ctrl-C reached `npm run load` but not wrangler: an interrupted run left 8 processes (two
 * wrangler instances with their workerd) and their state folders behind. A child program
 * (test/support/tool-children.ts) starts the emulator and one wrangler and is then ended by a
 * signal sent to it alone, without `close()`; its exit handlers must stop both and remove the
 * wrangler's state folder.
 */
import { spawn } from "node:child_process";
import { trackChild } from "../support/child-registry";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const CHILD = fileURLToPath(new URL("../support/tool-children.ts", import.meta.url).href);

/** Whether a process (pid > 0) or a process group (pid < 0) still exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/** Polls `check` every 100 ms until it holds or `ms` pass; returns whether it held. */
async function within(ms: number, check: () => boolean): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) if (check()) return true;
  return check();
}

describe("tool child processes", () => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`are stopped when the tool gets ${signal} before close()`, async () => {
      const child = spawn(process.execPath, ["--import", "tsx", CHILD], { stdio: ["ignore", "pipe", "inherit"] });
      trackChild(child, false);
      const exit = new Promise<NodeJS.Signals | null>((r) => child.once("exit", (_code, sig) => r(sig)));
      try {
        const started = await new Promise<{ emulator_pid: number; wrangler_pid: number; persist_dir: string }>((resolve, reject) => {
          let out = "";
          child.stdout.on("data", (d: Buffer) => {
            out += d.toString("utf8");
            const line = out.split("\n").find((l) => l.startsWith("{"));
            if (line !== undefined && out.includes("}\n")) resolve(JSON.parse(line));
          });
          child.once("exit", (code) => reject(new Error(`child exited with ${code} before it started both`)));
          // Within the test's own timeout, so the finally below still runs.
          setTimeout(() => reject(new Error("child did not start both within 100 s")), 100_000).unref();
        });
        expect(alive(started.emulator_pid)).toBe(true);
        expect(alive(-started.wrangler_pid)).toBe(true);
        expect(existsSync(started.persist_dir)).toBe(true);

        child.kill(signal);
        expect(await exit).toBe(signal); // signal-exit re-raises: the tool still ends by the signal
        expect(await within(60_000, () => !alive(started.emulator_pid) && !alive(-started.wrangler_pid))).toBe(true);
        expect(existsSync(started.persist_dir)).toBe(false);
      } finally {
        // A failed expectation must not leave the child behind: SIGTERM (not SIGKILL) lets its exit handlers run.
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      }
    }, 200_000);
  }
});

describe("the emulator process", () => {
  it("close() resolves when the emulator was killed by a signal", async () => {
    const { startEmulatorProcess } = await import("../../tools/load/start-emulator-process");
    const emulator = await startEmulatorProcess();
    process.kill(emulator.pid, "SIGKILL");
    expect(await within(30_000, () => !alive(emulator.pid))).toBe(true);
    await new Promise((r) => setTimeout(r, 100)); // the exit event
    const closed = await Promise.race([emulator.close().then(() => "closed"), new Promise((r) => setTimeout(() => r("hung"), 20_000))]);
    expect(closed).toBe("closed");
  }, 90_000);
});
