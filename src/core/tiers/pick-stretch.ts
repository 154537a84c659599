/**
 * The stretch the auto tier summarises at level `rewrite` (pure; DESIGN §3 auto tier): one
 * closed run of old tool pairs replaced by one summary block.
 *
 * Rule: walk the view's pairs in history order; a pair is in a run when it is eligible (the
 * caller's list: old — outside `preserve_recent_turns` —, unlocked, tool not excluded, not
 * decided by the ledger) and not in the last turn (even with `preserve_recent_turns` 0); any
 * other pair ends the run. The run starts at its first pair whose result has text
 * (`result_bytes` > 0 — the host, whose result text the block replaces; a media-only result
 * has none, and a run's leading textless pairs stay out of it). The oldest run with at least
 * MIN_STRETCH_PAIRS pairs is the stretch, closed after MAX_STRETCH_PAIRS pairs (a later step
 * summarises the next stretch). Only pairs go: the prose between them (the user's
 * and the assistant's text) stays where it is.
 *
 * Plan: the host gets `{ kind: "summarize", covers: [host, …the others oldest first], text: null }`
 * (the gateway's summariser writes the text), every other pair `drop_pair`.
 */
import type { PairFacts, StepFacts } from "../facts/step-facts";
import { pairIsOld } from "../policy/locate-boundaries";
import type { Proposal } from "../policy/take-step";

/**
 * Fewest pairs a stretch holds. Below 4 a summary (a fixed header plus its text) is rarely
 * shorter than what it replaces, and the micro collapse already handles a lone long result:
 * our bound, not a provider's.
 */
export const MIN_STRETCH_PAIRS = 4;

/**
 * Most pairs one summary stands for: the seed's archival summaries cover ~20 turns each, and a
 * summary bounded to a few thousand characters says less per pair the more pairs it covers; it
 * also bounds what one summariser call reads. Our bound.
 */
export const MAX_STRETCH_PAIRS = 20;

/**
 * The stretch's proposals (host first, then the others in history order), or [] when no run
 * is long enough. `eligible` are the pairs a new step may edit (../policy/take-step.ts eligiblePairs).
 */
export function pickStretch(view: StepFacts, eligible: readonly PairFacts[], bounds: { min: number; max: number } = { min: MIN_STRETCH_PAIRS, max: MAX_STRETCH_PAIRS }): Proposal[] {
  const minPairs = bounds.min;
  const ok = new Set(eligible.map((p) => p.id));
  let run: PairFacts[] = [];
  for (const pair of view.pairs) {
    const inRun = ok.has(pair.id) && pairIsOld(view, pair, 1);
    if (inRun && (run.length > 0 || pair.result_bytes > 0)) run.push(pair);
    if (run.length === bounds.max) break;
    if (!inRun) {
      if (run.length >= minPairs) break;
      run = [];
    }
  }
  if (run.length < minPairs) return [];
  const covers = run.map((p) => p.id);
  return run.map((pair, i) => ({ pair, action: i === 0 ? { kind: "summarize", covers, text: null } : { kind: "drop_pair" }, rule: "stretch_summary" }));
}

/**
 * Every stretch of `eligible`, oldest first: pickStretch, then again over the pairs it left,
 * until no run is long enough (session_memory at level `rewrite`, which keeps summaries of the
 * whole old history: DESIGN §3, §7 archival summaries of closed stretches, ~20 turns each).
 */
export function pickStretches(view: StepFacts, eligible: readonly PairFacts[], bounds: { min: number; max: number } = { min: MIN_STRETCH_PAIRS, max: MAX_STRETCH_PAIRS }): Proposal[] {
  const out: Proposal[] = [];
  let left = [...eligible];
  for (;;) {
    const stretch = pickStretch(view, left, bounds);
    if (stretch.length === 0) return out;
    out.push(...stretch);
    const taken = new Set(stretch.map((p) => p.pair.id));
    left = left.filter((p) => !taken.has(p.id));
  }
}
