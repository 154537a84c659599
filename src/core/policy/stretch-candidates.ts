/**
 * The cut candidates of a step's proposals (pure): one per proposal, except that a `summarize`
 * host and the pairs it covers form ONE candidate, so a cut takes the whole stretch or none of
 * it (a summary standing for pairs that stayed would say they are gone when they are not).
 *
 * The stretch's candidate spans from its first call to its last result, keeps the host's id,
 * and saves the tokens of its actions (the covered pairs whole, the host's result minus the
 * block's header: ./estimate-savings.ts) minus the summary text's expected tokens; its
 * `summary_cost_usd` is what writing that summary is expected to cost (term ③). Both come
 * from ../cost/summary-estimate.ts. A stretch that saves nothing once its summary is counted
 * gives no candidate (its pairs stay as they are).
 */
import type { CutCandidate } from "../cost/enumerate-cut-points";
import { estimateSummary, type SummarizerBounds } from "../cost/summary-estimate";
import { callTokens, savedTokens } from "./estimate-savings";
import type { Proposal } from "./take-step";
import { firstEditedMessage } from "../plan/first-edited-message";

/** A cut candidate and, for a stretch, the pair ids it stands for and its summary's expected cost. */
export interface StepCandidate extends CutCandidate {
  /** The pair ids the candidate edits, in history order (one id except for a stretch). */
  members: string[];
  /** Expected USD of the summary it needs (0 without one). */
  summary_cost_usd: number;
}

/** True when `p` is a stretch member of `proposals` other than its host (a `summarize` covers it). */
export function coveredIds(proposals: readonly Proposal[]): Set<string> {
  const out = new Set<string>();
  for (const p of proposals) if (p.action.kind === "summarize") for (const id of p.action.covers.slice(1)) out.add(id);
  return out;
}

/** The candidates of `proposals`; `summarizer` bounds a stretch's summary (null: the extractive one). */
export function stepCandidates(proposals: readonly Proposal[], summarizer: SummarizerBounds): StepCandidate[] {
  const byId = new Map(proposals.map((p) => [p.pair.id, p]));
  const covered = coveredIds(proposals);
  const out: StepCandidate[] = [];
  for (const p of proposals) {
    if (covered.has(p.pair.id)) continue;
    const { pair, action } = p;
    if (action.kind !== "summarize") {
      out.push({
        pair_id: pair.id, call_message: pair.call.message_index, result_message: pair.result.message_index,
        first_edit_message: firstEditedMessage(pair, action.kind),
        saved_tokens: savedTokens(pair, action), members: [pair.id], summary_cost_usd: 0,
      });
      continue;
    }
    const others = action.covers.slice(1).map((id) => byId.get(id)).filter((m) => m !== undefined);
    const all = [p, ...others];
    const bytes = all.reduce((s, m) => s + m.pair.input_bytes + m.pair.result_bytes, 0);
    const tokens = all.reduce((s, m) => s + callTokens(m.pair) + m.pair.result_est_tokens, 0);
    const summary = estimateSummary(bytes, tokens, summarizer);
    const saved = all.reduce((s, m) => s + savedTokens(m.pair, m.action), 0) - summary.text_tokens;
    // A stretch that saves nothing once its summary is back in stays out (its pairs are kept).
    if (saved <= 0) continue;
    const messages = all.flatMap((m) => [m.pair.call.message_index, m.pair.result.message_index]);
    out.push({
      pair_id: pair.id, call_message: Math.min(...messages), result_message: Math.max(...messages),
      first_edit_message: Math.min(pair.result.message_index, ...others.map((m) => Math.min(m.pair.call.message_index, m.pair.result.message_index))),
      saved_tokens: saved,
      members: all.map((m) => m.pair.id), summary_cost_usd: summary.cost_usd,
    });
  }
  return out;
}
