/**
 * Where an HTTP decision engine sends tool-result excerpts (pure apart from the log sink). DESIGN §5
 * and §11: the destination is announced when the config is first loaded in an isolate — one
 * structured JSON line — not at the engine's first call, and written to the audit trail as the
 * dated `engine_destination` record (src/gateway/compaction-setup.ts). Host only: never the
 * path, a credential or prompt text.
 */
import type { CompactionConfig } from "../config/schema";

/** The engine kind and destination host (`URL.host`), or null for the built-in heuristic engine. */
export function engineDestination(config: CompactionConfig): { engine: "local" | "remote"; host: string } | null {
  if (config.engine === "heuristic" || config.endpoint === null) return null;
  return { engine: config.engine, host: new URL(config.endpoint).host };
}

/**
 * Logs `{"event":"engine_destination","engine","host","head_chars"}` once for an HTTP engine
 * (head_chars: the most characters of each tool result sent). Does nothing for the heuristic engine.
 */
export function announceEngineDestination(config: CompactionConfig, log: (line: string) => void = console.log): void {
  const d = engineDestination(config);
  if (d) log(JSON.stringify({ event: "engine_destination", ...d, head_chars: config.head_chars }));
}
