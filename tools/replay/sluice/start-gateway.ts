/**
 * Starts the gateway under `wrangler dev` for an end-to-end replay (I/O: a child process).
 * 1. Picks a free port on 127.0.0.1 (and one for the inspector).
 * 2. Runs `wrangler dev --ip 127.0.0.1 --port P` with vars SLUICE_COMPACTION=1 and both upstream
 *    base URLs pointing at the emulator (plus any extra vars), state persisted to a fresh temp
 *    folder (so no run sees another's sessions), no interactive session.
 * 3. Waits until GET /healthz answers 200 (or the process exits / the deadline passes).
 * `close()` stops the child (its process group) and removes the temp folder.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** How long wrangler dev may take to answer /healthz, ms (a cold start with bundling takes ~5–15 s on 2 cores). */
export const GATEWAY_START_TIMEOUT_MS = 90_000;

/** A running gateway. */
export interface GatewayHandle {
  url: string;
  close: () => Promise<void>;
}

/** Options: the emulator URL (upstream for both providers) and extra vars (e.g. COMPACTION_CONFIG). */
export interface StartGatewayOptions {
  upstreamUrl: string;
  vars?: Record<string, string>;
  /** Called with each line wrangler prints (default: dropped). */
  log?: (line: string) => void;
}

/** A free TCP port on 127.0.0.1. */
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

const ROOT = resolve(fileURLToPath(new URL("../../../", import.meta.url).href));

/** Starts `wrangler dev` and resolves once it serves /healthz. */
export async function startGateway(opts: StartGatewayOptions): Promise<GatewayHandle> {
  const port = await freePort();
  const inspector = await freePort();
  const persist = mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "sluice-replay-"));
  const vars: Record<string, string> = { SLUICE_COMPACTION: "1", ANTHROPIC_BASE_URL: opts.upstreamUrl, OPENAI_BASE_URL: opts.upstreamUrl, ...opts.vars };
  const args = [
    join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js"), "dev",
    "--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(inspector),
    "--persist-to", persist, "--show-interactive-dev-session=false", "--log-level", "warn",
    ...Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]),
  ];
  const child = spawn(process.execPath, args, { cwd: ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1" } });
  const lines: string[] = [];
  const onData = (buf: Buffer) => {
    for (const line of buf.toString("utf8").split("\n")) {
      if (line.trim() === "") continue;
      lines.push(line);
      if (lines.length > 50) lines.shift();
      opts.log?.(line);
    }
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  let exited: number | null = null;
  const done = new Promise<void>((res) => child.once("exit", (code) => { exited = code ?? -1; res(); }));

  const close = async () => {
    if (exited === null && child.pid !== undefined) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // already gone
      }
      const timer = setTimeout(() => { try { process.kill(-child.pid!, "SIGKILL"); } catch { /* gone */ } }, 5_000);
      await done;
      clearTimeout(timer);
    }
    rmSync(persist, { recursive: true, force: true });
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + GATEWAY_START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exited !== null) break;
    try {
      const r = await fetch(`${url}/healthz`);
      await r.text();
      if (r.ok) return { url, close };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await close();
  throw new Error(`wrangler dev did not serve ${url}/healthz (${exited !== null ? `exited with ${exited}` : "timed out"}):\n${lines.join("\n")}`);
}
