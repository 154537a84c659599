/**
 * The engine verdicts a tier uses (pure): those the host fetched from an HTTP engine, else —
 * with engine "heuristic" — the heuristic engine's; with an HTTP engine and no verdicts (it
 * failed or timed out), none (fail open: no engine removals).
 */
import { runHeuristicEngine } from "../engine/run-heuristic-engine";
import type { Verdicts } from "../engine/verdict";
import type { TierContext } from "../policy/types";

/** Verdicts for this request. */
export function resolveVerdicts(ctx: TierContext): Verdicts {
  if (ctx.verdicts !== undefined) return ctx.verdicts;
  if (ctx.config.engine !== "heuristic") return {};
  return runHeuristicEngine(ctx.view, ctx.config).verdicts;
}
