/**
 * TEST FIXTURE (not product code): runs the gateway under `wrangler dev` on a free 127.0.0.1
 * port with the given vars and a throw-away state directory, waits for /healthz, and stops
 * the process group it started (by its pid) on `close`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export interface WranglerDev {
  url: string;
  /** Everything wrangler printed (for failure messages). */
  output: () => string;
  close: () => Promise<void>;
}

/** A port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((ok, fail) => server.once("error", fail).listen(0, "127.0.0.1", () => ok()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((ok) => server.close(() => ok()));
  return port;
}

/** Starts `wrangler dev` from the repository root with `vars` (passed as --var NAME:value). */
export async function startWranglerDev(vars: Record<string, string>, readyTimeoutMs = 90_000): Promise<WranglerDev> {
  const root = resolve(import.meta.dirname, "../..");
  const [port, inspector] = [await freePort(), await freePort()];
  const state = mkdtempSync(join(tmpdir(), "sluice-wrangler-"));
  const args = ["dev", "--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(inspector), "--persist-to", state, "--show-interactive-dev-session=false"];
  for (const [k, v] of Object.entries(vars)) args.push("--var", `${k}:${v}`);
  let log = "";
  const child: ChildProcess = spawn(join(root, "node_modules/.bin/wrangler"), args, {
    cwd: root,
    detached: true,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1", FORCE_COLOR: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d: Buffer) => (log += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (log += d.toString()));
  const exited = new Promise<void>((ok) => child.once("exit", () => ok()));
  const close = async () => {
    if (child.exitCode === null && child.pid !== undefined) {
      try { process.kill(-child.pid, "SIGTERM"); } catch { /* already gone */ }
      const timer = setTimeout(() => { try { process.kill(-child.pid!, "SIGKILL"); } catch { /* gone */ } }, 5_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(state, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyTimeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return { url, output: () => log, close };
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 250));
  }
  await close();
  throw new Error(`wrangler dev did not become ready on ${url}:\n${log.slice(-4_000)}`);
}
