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
const SOURCE = "Sluice default config (docs/design.md §3–§5, src/config/defaults.ts): the gateway's pipeline and session step";

/** Wraps an in-process transform as the `sluice` strategy (or, with a variant name, as that variant: ./sluice-slot.ts VARIANT_OF). */
export function createSluiceStrategy(transform: SluiceTransform, variant?: VariantStrategy): SluiceStrategy {
  if (variant === undefined) return { kind: "sluice", name: "sluice", source: `${SOURCE}, in-process (virtual time)`, transform };
  const v = VARIANT_OF[variant];
  return { kind: "sluice", name: variant, source: `${SOURCE} with "${v.key}": "${v.value}" (${v.doc}), in-process (virtual time)`, transform };
}

/** The per-mechanism Sluice strategies (in-process only) and the config value each forces. */
export const MECHANISM_OF = { "sluice-splice": "splice", "sluice-native": "native" } as const;
export type MechanismStrategy = keyof typeof MECHANISM_OF;

/** The per-guarantee-level Sluice strategies (in-process only) and the level each forces. */
export const LEVEL_OF = { "sluice-strict": "strict", "sluice-placeholders": "placeholders", "sluice-rewrite": "rewrite" } as const;
export type LevelStrategy = keyof typeof LEVEL_OF;

/** Every in-process Sluice variant: the config key it forces, the value, and where the setting is documented. */
export const VARIANT_OF: Readonly<Record<MechanismStrategy | LevelStrategy, { key: "mechanism" | "guarantee_level"; value: string; doc: string }>> = {
  ...(Object.fromEntries(Object.entries(MECHANISM_OF).map(([n, v]) => [n, { key: "mechanism", value: v, doc: 'docs/how-it-works.md "Mechanisms"' }])) as Record<MechanismStrategy, { key: "mechanism"; value: string; doc: string }>),
  ...(Object.fromEntries(Object.entries(LEVEL_OF).map(([n, v]) => [n, { key: "guarantee_level", value: v, doc: "docs/configuration.md guarantee_level" }])) as Record<LevelStrategy, { key: "guarantee_level"; value: string; doc: string }>),
};
export type VariantStrategy = keyof typeof VARIANT_OF;

/** `env` with `mechanism` set in its COMPACTION_CONFIG block (./sluice-slot.ts envWithConfig). */
export function envWithMechanism(env: Record<string, string>, mechanism: string): Record<string, string> {
  return envWithConfig(env, "mechanism", mechanism);
}

/**
 * `env` (the gateway's vars) with `key` set to `value` in its COMPACTION_CONFIG block (created
 * when absent). Throws naming COMPACTION_CONFIG when the block is not a JSON object.
 */
export function envWithConfig(env: Record<string, string>, key: string, value: string): Record<string, string> {
  let block: unknown = {};
  if (env.COMPACTION_CONFIG !== undefined && env.COMPACTION_CONFIG.trim() !== "") {
    try {
      block = JSON.parse(env.COMPACTION_CONFIG);
    } catch {
      throw new Error("COMPACTION_CONFIG: not JSON");
    }
  }
  if (typeof block !== "object" || block === null || Array.isArray(block)) throw new Error("COMPACTION_CONFIG must be a JSON object");
  return { ...env, COMPACTION_CONFIG: JSON.stringify({ ...block, [key]: value }) };
}

/** Wraps a sender through the gateway as the `sluice` strategy. */
export function createGatewayStrategy(send: SendFn): GatewayStrategy {
  return { kind: "gateway", name: "sluice", source: `${SOURCE}, end to end through wrangler dev (real time in the session DO)`, send };
}
