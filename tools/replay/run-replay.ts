/**
 * One replay run end to end (I/O: starts and stops processes and servers), shared by
 * `npm run replay` (./cli.ts) and `npm run demo` (tools/demo/main.ts):
 * 1. the emulator: the given URL, else started in-process (tools/emulator/server.ts);
 * 2. the `sluice` strategy (and, when asked for by name, `sluice-splice` / `sluice-native` /
 *    `sluice-strict` / `sluice-placeholders` / `sluice-rewrite`: in process, config key
 *    `mechanism` or `guarantee_level` forced: ./strategies/sluice-slot.ts VARIANT_OF): in-process (./sluice/run-in-process.ts), or over HTTP through the
 *    gateway — the given URL (its upstream must be this emulator), else `wrangler dev` started
 *    with SLUICE_COMPACTION=1 and the emulator as upstream (./sluice/start-gateway.ts) — or off;
 * 3. every session under every strategy (./drive-replay.ts), then the report (./summarize-report.ts).
 * Everything started here is stopped before it returns or throws.
 */
import { startEmulator } from "../emulator/server";
import { driveReplay } from "./drive-replay";
import { createGatewaySender } from "./send-gateway";
import { createForwardedWriter } from "./save-forwarded";
import { createHttpSender } from "./send-http";
import { createInProcessSluice } from "./sluice/run-in-process";
import { startGateway } from "./sluice/start-gateway";
import { defaultStrategyNames, resolveStrategies } from "./strategies/registry";
import { createGatewayStrategy, createSluiceStrategy, envWithConfig, VARIANT_OF, type VariantStrategy } from "./strategies/sluice-slot";
import { summarizeReport, type ReplayReport } from "./summarize-report";
import type { GatewayStrategy, RecordedSession, SessionRun, SluiceStrategy } from "./types";
import type { CacheReport } from "../../src/observers/cache-diagnostics";

/** How the Sluice strategy runs. */
export type SluiceMode = "in-process" | "http" | "off";

export interface RunReplayOptions {
  sessions: RecordedSession[];
  /** Strategy names, or null for all (sluice included unless off). */
  strategies: string[] | null;
  sluice: SluiceMode;
  /** Emulator base URL, or null to start one in-process. */
  emulator: string | null;
  /** Running gateway base URL (http mode), or null to start `wrangler dev`. */
  gateway: string | null;
  concurrency: number;
  /** Extra vars for a started gateway, and the env of the in-process one (e.g. COMPACTION_CONFIG). */
  sluiceEnv?: Record<string, string>;
  onCall?: (done: number, total: number) => void;
  /** Folder to write every forwarded body to (./save-forwarded.ts), or absent. */
  saveForwarded?: string | null;
  /** Progress messages (starting servers). */
  onStatus?: (message: string) => void;
  /** The used-after-removal check's common vocabulary (./common-vocabulary.ts); absent: computed from `sessions`. Tests replay one session against its corpus's vocabulary. */
  vocabulary?: ReadonlySet<string>;
}

/** What a run produced. */
export interface ReplayOutcome {
  report: ReplayReport;
  runs: SessionRun[];
  meta: {
    generated_at: string;
    emulator: string;
    gateway: string | null;
    sluice: SluiceMode;
    strategy_sources: Record<string, string>;
    session_notes: Record<string, string[]>;
  };
}

/** Runs the replay; see the module header. */
export async function runReplay(opts: RunReplayOptions): Promise<ReplayOutcome> {
  const cleanup: (() => unknown)[] = [];
  try {
    const emulator = opts.emulator !== null ? { url: opts.emulator } : await startEmulator({ port: 0, host: "127.0.0.1" });
    if ("close" in emulator) cleanup.push(() => emulator.close());
    let sluice: SluiceStrategy | GatewayStrategy | null = null;
    let gatewayUrl: string | null = null;
    /** The in-process `sluice` run's cache-breaker report per session (src/observers/cache-diagnostics.ts), when there is one. */
    let cacheBreaksOf: ((session_id: string) => Promise<CacheReport | null>) | null = null;
    switch (opts.sluice) {
      case "in-process": {
        const host = createInProcessSluice({ env: { SLUICE_COMPACTION: "1", ...opts.sluiceEnv } });
        cleanup.push(() => host.close());
        sluice = createSluiceStrategy(host.transform);
        cacheBreaksOf = host.cacheBreaks;
        break;
      }
      case "http": {
        if (opts.gateway !== null) gatewayUrl = opts.gateway;
        else {
          opts.onStatus?.("starting the gateway (wrangler dev)…");
          const gw = await startGateway({ upstreamUrl: emulator.url, vars: opts.sluiceEnv });
          cleanup.push(() => gw.close());
          gatewayUrl = gw.url;
          opts.onStatus?.(`gateway at ${gw.url}, emulator at ${emulator.url}`);
        }
        sluice = createGatewayStrategy(createGatewaySender(gatewayUrl, emulator.url));
        break;
      }
      case "off":
        break;
      default: {
        const never: never = opts.sluice;
        throw new Error(`--sluice: unknown mode ${String(never)}`);
      }
    }
    // Per-mechanism and per-level runs (in-process, each with its own session stores): sluice-splice,
    // sluice-native, sluice-strict, sluice-placeholders, sluice-rewrite.
    const variants: Record<string, SluiceStrategy> = {};
    for (const name of opts.strategies ?? []) {
      if (!Object.hasOwn(VARIANT_OF, name) || opts.sluice !== "in-process") continue;
      const v = name as VariantStrategy;
      const host = createInProcessSluice({ env: envWithConfig({ SLUICE_COMPACTION: "1", ...opts.sluiceEnv }, VARIANT_OF[v].key, VARIANT_OF[v].value) });
      cleanup.push(() => host.close());
      variants[v] = createSluiceStrategy(host.transform, v);
    }
    const strategies = resolveStrategies(opts.strategies ?? defaultStrategyNames(sluice !== null), sluice, variants);
    const runs = await driveReplay({
      sessions: opts.sessions,
      strategies,
      send: createHttpSender(emulator.url),
      run_id: Date.now().toString(36),
      concurrency: opts.concurrency,
      onCall: opts.onCall,
      ...(opts.vocabulary ? { vocabulary: opts.vocabulary } : {}),
      ...(opts.saveForwarded ? { onForwarded: createForwardedWriter(opts.saveForwarded) } : {}),
    });
    return {
      report: await withCacheBreaks(summarizeReport(runs), opts.sessions, strategies.some((s) => s.name === "sluice") ? cacheBreaksOf : null),
      runs,
      meta: {
        generated_at: new Date().toISOString(),
        emulator: emulator.url,
        gateway: gatewayUrl,
        sluice: opts.sluice,
        strategy_sources: Object.fromEntries(strategies.map((s) => [s.name, s.source])),
        session_notes: Object.fromEntries(opts.sessions.map((s) => [s.id, s.notes])),
      },
    };
  } finally {
    for (const c of cleanup.reverse()) await c();
  }
}

/** `report` with the `sluice` run's cache-breaker report of every session that has one. */
async function withCacheBreaks(report: ReplayReport, sessions: readonly { id: string }[], of: ((id: string) => Promise<CacheReport | null>) | null): Promise<ReplayReport> {
  if (of === null) return report;
  const cache_breaks: Record<string, CacheReport> = {};
  for (const s of sessions) {
    const r = await of(s.id);
    if (r !== null) cache_breaks[s.id] = r;
  }
  return { ...report, cache_breaks };
}
