/**
 * Starts the reference engine (tools/engine/server.ts) as a real child process on a free
 * 127.0.0.1 port and waits for its "listening" line. Test support, not part of the product.
 */
import { spawn, type ChildProcess } from "node:child_process";

export interface SpawnedEngine {
  /** The endpoint to put in config, e.g. http://127.0.0.1:41234/decide */
  endpoint: string;
  stop: () => Promise<void>;
}

/** Spawns the engine with optional `--fault` spec. */
export function spawnEngine(fault?: string): Promise<SpawnedEngine> {
  const args = ["tools/engine/server.ts", "--port", "0", ...(fault ? ["--fault", fault] : [])];
  const child: ChildProcess = spawn("node_modules/.bin/tsx", args, { stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => { child.kill("SIGTERM"); reject(new Error(`engine did not start: ${out}`)); }, 20_000);
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /engine listening on (http:\/\/127\.0\.0\.1:\d+\/decide)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          endpoint: m[1]!,
          stop: () => new Promise((r) => { if (child.exitCode !== null) return r(); child.once("exit", () => r()); child.kill("SIGTERM"); }),
        });
      }
    });
    child.stderr!.on("data", (d: Buffer) => { out += d.toString(); });
    child.once("exit", (code) => { clearTimeout(timer); reject(new Error(`engine exited ${code}: ${out}`)); });
  });
}
