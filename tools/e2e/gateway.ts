/**
 * One Sluice gateway for a pass of the real-client run (Node shell): `wrangler dev` with
 * compaction on, in front of the scripted upstream for both providers, at a COMPACTION_CONFIG
 * block, and the recording proxy in front of it (the clients' base URL). The conformance, the
 * defaults and the restore passes each run on their own.
 */
import { startWranglerDev } from "../shared/start-wrangler-dev";
import { startRecordProxy, type RecordProxy } from "./record-proxy";

/** A running gateway: Sluice's URL and the recording proxy in front of it. */
export interface Gateway {
  url: string;
  proxy: RecordProxy;
}

/**
 * Runs `use` with a gateway in front of `upstreamUrl` at `compactionConfig` (JSON text), then
 * closes the proxy and `wrangler dev`, whether `use` returns or throws (a failed start closes what
 * did start). Throws what the start or `use` throws.
 */
export async function withGateway<T>(upstreamUrl: string, compactionConfig: string, use: (gateway: Gateway) => Promise<T>): Promise<T> {
  const dev = await startWranglerDev({ vars: { SLUICE_COMPACTION: "1", ANTHROPIC_BASE_URL: upstreamUrl, OPENAI_BASE_URL: upstreamUrl, COMPACTION_CONFIG: compactionConfig } });
  let proxy: RecordProxy | undefined;
  try {
    proxy = await startRecordProxy(dev.url);
    return await use({ url: dev.url, proxy });
  } finally {
    await proxy?.close();
    await dev.close();
  }
}
