/**
 * Picks the decision engine named by the config (shell). `heuristic` is the built-in pure
 * engine of src/core/engine, run by the caller on the view; `local` and `remote` are the same
 * HTTP client with different config (DESIGN §5). The config must have passed loadConfig, which
 * already enforced the locality, consent and credential-name rules.
 */
import type { CompactionConfig } from "../config/schema";
import { createHttpEngine, type HttpEngine, type HttpEngineDeps } from "./http-engine";

/** The engine to consult: the built-in heuristic (no network) or an HTTP engine. */
export type EngineHandle = { kind: "heuristic" } | HttpEngine;

/** Builds the engine for `config`. Cheap: safe to call per request. */
export function createEngine(config: CompactionConfig, deps: HttpEngineDeps): EngineHandle {
  switch (config.engine) {
    case "heuristic":
      return { kind: "heuristic" };
    case "local":
    case "remote":
      if (config.endpoint === null) throw new Error(`endpoint is required when engine is "${config.engine}"`);
      return createHttpEngine({
        kind: config.engine,
        endpoint: config.endpoint,
        model: config.model,
        api_key_env: config.api_key_env,
        timeout_ms: config.timeout_ms,
        decision_threshold: config.decision_threshold,
        head_chars: config.head_chars,
      }, deps);
    default: {
      const never: never = config.engine;
      return never;
    }
  }
}
