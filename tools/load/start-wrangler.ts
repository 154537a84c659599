/**
 * Starts `wrangler dev` for the load run with `vars`, its Durable Object state in `persistDir`
 * (read back after the run), via the shared launcher tools/shared/start-wrangler-dev.ts, which
 * stops it with SIGINT so wrangler flushes the local SQLite files.
 */
import { startWranglerDev } from "../shared/start-wrangler-dev";


export interface WranglerHandle {
  url: string;
  /** The --persist-to directory (Durable Object state lives under it). */
  persistDir: string;
  stop: () => Promise<void>;
  /** Process id of wrangler (workerd is its descendant): tools/load/process-cpu.ts. */
  pid: number;
}

/** Starts wrangler dev with `vars`; rejects after `timeoutMs` without a healthy /healthz. */
export async function startWrangler(vars: Record<string, string>, persistDir: string, timeoutMs = 90_000): Promise<WranglerHandle> {
  const dev = await startWranglerDev({ vars, persistTo: persistDir, readyTimeoutMs: timeoutMs });
  return { url: dev.url, persistDir, stop: dev.close, pid: dev.pid };
}
