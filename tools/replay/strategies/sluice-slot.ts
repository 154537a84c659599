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

/** Wraps an in-process transform as the `sluice` strategy. */
export function createSluiceStrategy(transform: SluiceTransform): SluiceStrategy {
  return { kind: "sluice", name: "sluice", source: `${SOURCE}, in-process (virtual time)`, transform };
}

/** Wraps a sender through the gateway as the `sluice` strategy. */
export function createGatewayStrategy(send: SendFn): GatewayStrategy {
  return { kind: "gateway", name: "sluice", source: `${SOURCE}, end to end through wrangler dev (real time in the session DO)`, send };
}
