/**
 * The Sluice strategy slot. The replay does not import the gateway or the compaction core (they
 * are built in parallel); the lead fills `loadSluiceTransform` at merge with a transform that
 * runs the real core in-process (virtual time, a session store) or posts to `wrangler dev`.
 *
 * Contract of a SluiceTransform (types.ts): given the agent's original body bytes, the headers
 * the agent sends (content-type, anthropic-version, x-api-key | authorization, x-sluice-session)
 * and the call (provider, session id, call index, virtual time), resolve to the body bytes the
 * gateway would forward upstream, plus info (engine cost in USD, a note). It must be
 * deterministic for a given session history so the provider cache behaves as in production.
 */
import type { SluiceStrategy, SluiceTransform } from "../types";

/** The wired Sluice transform, or null while the core is not merged. */
export async function loadSluiceTransform(): Promise<SluiceTransform | null> {
  return null;
}

/** Wraps a transform as the `sluice` strategy. */
export function createSluiceStrategy(transform: SluiceTransform): SluiceStrategy {
  return { kind: "sluice", name: "sluice", source: "Sluice default config (DESIGN.md §3–§5): gateway core in the loop", transform };
}
