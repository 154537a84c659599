/**
 * The Sluice strategy, in one of two forms:
 * - in-process (`createSluiceStrategy`): a SluiceTransform over the gateway's own code
 *   (tools/replay/sluice/run-in-process.ts) — virtual time, one SQLite session store per session;
 * - end to end (`createGatewayStrategy`): the original body goes through the gateway under
 *   `wrangler dev` (tools/replay/send-gateway.ts, tools/replay/sluice/start-gateway.ts).
 *
 * Contract of a SluiceTransform (types.ts): given the agent's original body bytes, the headers
 * the agent sends (content-type, anthropic-version, x-api-key | authorization, x-sluice-session)
 * and the call (provider, session id, call index, virtual time), resolve to the body bytes the
 * gateway would forward upstream, plus info (engine cost in USD, a note). It must be
 * deterministic for a given session history so the provider cache behaves as in production.
 */
import type { GatewayStrategy, SendFn, SluiceStrategy, SluiceTransform } from "../types";

/** Where the rule comes from (both forms). */
const SOURCE = "Sluice default config (DESIGN.md §3–§5, src/config/defaults.ts): the gateway's pipeline and session step";

/** Wraps an in-process transform as the `sluice` strategy (or, with `mechanism`, as `sluice-<mechanism>`: config key `mechanism` forced). */
export function createSluiceStrategy(transform: SluiceTransform, mechanism?: MechanismStrategy): SluiceStrategy {
  if (mechanism === undefined) return { kind: "sluice", name: "sluice", source: `${SOURCE}, in-process (virtual time)`, transform };
  const m = MECHANISM_OF[mechanism];
  return { kind: "sluice", name: mechanism, source: `${SOURCE} with "mechanism": "${m}" (docs/how-it-works.md "Mechanisms"), in-process (virtual time)`, transform };
}

/** The per-mechanism Sluice strategies (in-process only) and the config value each forces. */
export const MECHANISM_OF = { "sluice-splice": "splice", "sluice-native": "native" } as const;
export type MechanismStrategy = keyof typeof MECHANISM_OF;

/**
 * `env` (the gateway's vars) with `mechanism` set in its COMPACTION_CONFIG block (created when
 * absent). Throws naming COMPACTION_CONFIG when the block is not a JSON object.
 */
export function envWithMechanism(env: Record<string, string>, mechanism: string): Record<string, string> {
  let block: unknown = {};
  if (env.COMPACTION_CONFIG !== undefined && env.COMPACTION_CONFIG.trim() !== "") {
    try {
      block = JSON.parse(env.COMPACTION_CONFIG);
    } catch {
      throw new Error("COMPACTION_CONFIG: not JSON");
    }
  }
  if (typeof block !== "object" || block === null || Array.isArray(block)) throw new Error("COMPACTION_CONFIG must be a JSON object");
  return { ...env, COMPACTION_CONFIG: JSON.stringify({ ...block, mechanism }) };
}

/** Wraps a sender through the gateway as the `sluice` strategy. */
export function createGatewayStrategy(send: SendFn): GatewayStrategy {
  return { kind: "gateway", name: "sluice", source: `${SOURCE}, end to end through wrangler dev (real time in the session DO)`, send };
}
