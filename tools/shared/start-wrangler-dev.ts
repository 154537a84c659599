/**
 * Runs the gateway under `wrangler dev` (Node shell; the one launcher for the demo/replay, the
 * load run and the browser test). 1. Picks free 127.0.0.1 ports for the server and the inspector.
 * 2. Spawns `wrangler dev --ip 127.0.0.1 --port P --var K:V … --persist-to DIR` as the leader of
 * its own process group (wrangler runs workerd children). 3. Resolves once GET /healthz answers
 * 200; rejects with wrangler's last output if it exits or the deadline passes. `close()` sends
 * SIGINT to the group (wrangler flushes the local Durable Object SQLite files on a clean exit),
 * then SIGKILL after 10 s, and removes the state folder when it created it.
 *
 * The group is detached, so a Ctrl-C in the terminal reaches the tool but not wrangler: a tool
 * that ends before `close()` — interrupted, killed with SIGTERM/SIGHUP, or failing — would leave
 * wrangler and its workerd processes running, with their ports, their idle CPU and the state
 * folder (measured without the handler: 8 processes left by one interrupted `npm run load`). Until `close()`, a
 * handler on the tool's exit (signal-exit: it runs on every signal that ends Node and on exit)
 * sends SIGKILL to the group and removes an owned state folder.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { onExit } from "signal-exit";
import { DEVELOPMENT_VARS } from "../../src/config/secrets";

/** How long wrangler dev may take to answer /healthz, ms (a cold start with bundling takes ~5–15 s on 2 cores). */
export const WRANGLER_START_TIMEOUT_MS = 90_000;

const ROOT = resolve(fileURLToPath(new URL("../../", import.meta.url).href));

export interface WranglerDevOptions {
  /** Vars passed as `--var NAME:value`, over the development vars (SLUICE_ENV=development, the development audit key). */
  vars: Record<string, string>;
  /** Durable Object state folder; default a fresh temp folder (in /dev/shm when present), removed on close. */
  persistTo?: string;
  readyTimeoutMs?: number;
  /** Called with each non-empty line wrangler prints. */
  log?: (line: string) => void;
}

export interface WranglerDev {
  url: string;
  /** The --inspector-port's base URL (Chrome DevTools protocol: `/json` lists the targets). */
  inspectorUrl: string;
  /** The --persist-to folder. */
  persistDir: string;
  /** wrangler's last output lines (for failure messages). */
  output: () => string;
  /** Process id of wrangler (workerd runs as its descendant). */
  pid: number;
  close: () => Promise<void>;
}

/** A free TCP port on 127.0.0.1 (bound, then released). */
export async function freePort(): Promise<number> {
  return await new Promise((res, rej) => {
    const s = createServer();
    s.once("error", rej);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => res(port));
    });
  });
}

/** Starts `wrangler dev` and resolves once it serves /healthz. */
export async function startWranglerDev(opts: WranglerDevOptions): Promise<WranglerDev> {
  const [port, inspector] = [await freePort(), await freePort()];
  const owned = opts.persistTo === undefined;
  const persistDir = opts.persistTo ?? mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "sluice-wrangler-"));
  const args = [
    join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js"), "dev",
    "--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(inspector),
    "--persist-to", persistDir, "--show-interactive-dev-session=false",
    ...Object.entries({ ...DEVELOPMENT_VARS, ...opts.vars }).flatMap(([k, v]) => ["--var", `${k}:${v}`]),
  ];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1", NO_COLOR: "1", FORCE_COLOR: "0" },
  });
  const lines: string[] = [];
  const onData = (buf: Buffer) => {
    for (const line of buf.toString("utf8").split("\n")) {
      if (line.trim() === "") continue;
      lines.push(line);
      if (lines.length > 80) lines.shift();
      opts.log?.(line);
    }
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  let exited: number | null = null;
  const done = new Promise<void>((res) => child.once("exit", (code) => { exited = code ?? -1; res(); }));
  const group = (signal: NodeJS.Signals) => { try { process.kill(-child.pid!, signal); } catch { /* already gone */ } };
  // Synchronous, as exit handlers must be: no flush of the DO state, which an aborted run does not read.
  const release = onExit(() => {
    group("SIGKILL");
    if (owned) rmSync(persistDir, { recursive: true, force: true });
  });
  const close = async () => {
    if (exited === null && child.pid !== undefined) {
      const timer = setTimeout(() => group("SIGKILL"), 10_000);
      group("SIGINT");
      await done;
      clearTimeout(timer);
      group("SIGKILL"); // any workerd child left behind
    }
    if (owned) rmSync(persistDir, { recursive: true, force: true });
    release();
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (opts.readyTimeoutMs ?? WRANGLER_START_TIMEOUT_MS);
  while (Date.now() < deadline) {
    if (exited !== null) break;
    try {
      const r = await fetch(`${url}/healthz`);
      await r.text();
      if (r.ok) return { url, inspectorUrl: `http://127.0.0.1:${inspector}`, persistDir, output: () => lines.join("\n"), pid: child.pid!, close };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await close();
  throw new Error(`wrangler dev did not serve ${url}/healthz (${exited !== null ? `exited with ${exited}` : "timed out"}):\n${lines.join("\n")}`);
}
