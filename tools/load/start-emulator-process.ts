/**
 * Starts the provider emulator (tools/emulator/main.ts) in its own Node process on a free port,
 * for the load run (measurement only). In the load client's own process the emulator's work
 * (parsing each ~300 KB body, the prompt-cache simulation) ran on the thread that times the
 * requests, so every answer waited behind other requests' emulator work before its clock
 * stopped, and that wait landed in the added latency of whichever path was running.
 *
 * Until `close()`, the process is killed (SIGKILL) when the load client ends in any other way —
 * a signal sent to it alone, a failure, process.exit (signal-exit) — so it never outlives the run.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { onExit } from "signal-exit";

export interface EmulatorProcess {
  url: string;
  /** Process id (its CPU is not charged to any path). */
  pid: number;
  close: () => Promise<void>;
}

const MAIN = fileURLToPath(new URL("../emulator/main.ts", import.meta.url).href);

/** Starts it; rejects if no URL is printed within `timeoutMs` or the process exits first. */
export function startEmulatorProcess(timeoutMs = 30_000): Promise<EmulatorProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", MAIN, "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  // Ended, by its own exit or by a signal (exitCode stays null then: found by a review, 2026-12-02 — a killed emulator hung close() and the load exited 0).
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  const release = onExit(() => { if (!ended()) child.kill("SIGKILL"); });
  child.once("exit", () => release());
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => { child.kill("SIGKILL"); reject(new Error(`emulator: no URL within ${timeoutMs} ms`)); }, timeoutMs);
    child.once("exit", (code) => { clearTimeout(timer); reject(new Error(`emulator exited with ${code} before it listened`)); });
    child.once("error", (err) => { clearTimeout(timer); reject(new Error(`emulator: ${err.message}`)); });
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString("utf8");
      const m = /listening on (http:\/\/\S+)\r?\n/.exec(out); // the whole line: a chunk may end mid-URL
      if (!m) return;
      clearTimeout(timer);
      child.removeAllListeners("exit");
      resolve({
        url: m[1]!,
        pid: child.pid!,
        close: () => new Promise<void>((done) => {
          if (ended()) return done();
          child.once("exit", () => done());
          child.kill("SIGTERM");
        }),
      });
    });
  });
}
