/**
 * Starts the reference engine (tools/engine/server.ts) as a real child process on a free
 * 127.0.0.1 port and waits for its "listening" line. Test support, not part of the product.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { trackChild } from "./child-registry";

export interface SpawnedEngine {
  /** The endpoint to put in config, e.g. http://127.0.0.1:41234/decide */
  endpoint: string;
  stop: () => Promise<void>;
}

/** Spawns the engine with optional `--fault` spec. */
export function spawnEngine(fault?: string): Promise<SpawnedEngine> {
  const args = ["tools/engine/server.ts", "--port", "0", ...(fault ? ["--fault", fault] : [])];
  // Its own process group: stopping it also stops the node process tsx starts.
  const child: ChildProcess = spawn("node_modules/.bin/tsx", args, { stdio: ["ignore", "pipe", "pipe"], detached: true });
  trackChild(child, true);
  const kill = (signal: NodeJS.Signals) => { try { process.kill(-child.pid!, signal); } catch { /* already gone */ } };
  return new Promise((resolve, reject) => {
    let out = "";
    // Generous: several engines start at once on a machine that may be busy.
    const timer = setTimeout(() => { kill("SIGTERM"); reject(new Error(`engine did not start within 60 s: ${out}`)); }, 60_000);
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /engine listening on (http:\/\/127\.0\.0\.1:\d+\/decide)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          endpoint: m[1]!,
          stop: () => new Promise((r) => { if (child.exitCode !== null || child.signalCode !== null) return r(); child.once("exit", () => r()); kill("SIGTERM"); }),
        });
      }
    });
    child.stderr!.on("data", (d: Buffer) => { out += d.toString(); });
    child.once("exit", (code) => { clearTimeout(timer); reject(new Error(`engine exited ${code}: ${out}`)); });
  });
}
