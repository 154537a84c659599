/**
 * Starts `wrangler dev` for the load run (Node shell): `npx wrangler dev --ip 127.0.0.1 --port P
 * --var KEY:VALUE … --persist-to DIR`, waits for GET /healthz to answer 200, and stops it with
 * SIGINT (wrangler flushes the local Durable Object SQLite files on a clean exit). wrangler runs
 * workerd children: it is started as the leader of its own process group, and stop signals that
 * group (SIGINT, then SIGKILL after 10 s), so no workerd outlives the run.
 */
import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface WranglerHandle {
  url: string;
  /** The --persist-to directory (Durable Object state lives under it). */
  persistDir: string;
  stop: () => Promise<void>;
}

/** A free 127.0.0.1 port (bound, then released). */
export async function freePort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** Starts wrangler dev with `vars`; rejects after `timeoutMs` without a healthy /healthz. */
export async function startWrangler(vars: Record<string, string>, persistDir: string, timeoutMs = 90_000): Promise<WranglerHandle> {
  const port = await freePort();
  const inspector = await freePort();
  const args = ["dev", "--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(inspector), "--persist-to", persistDir, "--show-interactive-dev-session=false"];
  for (const [k, v] of Object.entries(vars)) args.push("--var", `${k}:${v}`);
  const child = spawn("node_modules/.bin/wrangler", args, { stdio: ["ignore", "pipe", "pipe"], detached: true, env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1" } });
  const group = (signal: NodeJS.Signals) => { try { process.kill(-child.pid!, signal); } catch { /* already gone */ } };
  let log = "";
  child.stdout.on("data", (d: Buffer) => { log += d.toString(); });
  child.stderr.on("data", (d: Buffer) => { log += d.toString(); });
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      const kill = setTimeout(() => group("SIGKILL"), 10_000);
      child.once("exit", () => { clearTimeout(kill); group("SIGKILL"); resolve(); });
      group("SIGINT");
    });
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited ${child.exitCode}: ${log.slice(-2000)}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.status === 200) return { url, persistDir, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  await stop();
  throw new Error(`wrangler dev not healthy within ${timeoutMs} ms: ${log.slice(-2000)}`);
}
