/**
 * Starts the gateway under `wrangler dev` for an end-to-end replay (I/O): compaction on
 * (SLUICE_COMPACTION=1) and both upstream base URLs pointing at the emulator, plus any extra
 * vars; state in a fresh temp folder so no run sees another's sessions
 * (tools/shared/start-wrangler-dev.ts does the process work).
 */
import { startWranglerDev } from "../../shared/start-wrangler-dev";


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

/** Starts `wrangler dev` and resolves once it serves /healthz. */
export async function startGateway(opts: StartGatewayOptions): Promise<GatewayHandle> {
  const vars: Record<string, string> = { SLUICE_COMPACTION: "1", ANTHROPIC_BASE_URL: opts.upstreamUrl, OPENAI_BASE_URL: opts.upstreamUrl, ...opts.vars };
  const dev = await startWranglerDev({ vars, log: opts.log });
  return { url: dev.url, close: dev.close };
}
