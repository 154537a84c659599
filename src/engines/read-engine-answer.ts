/**
 * Reads an engine's answer text into an EditPlan (pure). All-or-nothing (DESIGN invariant 5):
 * 1. The text must parse as JSON and match `engineAnswerSchema`.
 * 2. Every request id must appear exactly once; no id outside the request may appear.
 * 3. A verdict with confidence below `decision_threshold` counts as keep (not written in the plan).
 * 4. `cost_usd`, when present, must be a finite number ≥ 0 (USD); absent reads as 0.
 * Any failure → `{ok: false}` with a short detail (ids and field paths only, never text).
 */
import type { EditPlan, PairAction } from "../core/plan/types";
import { parseAnswer } from "./parse-answer";
import { engineAnswerSchema, type EngineVerdict, type Verdict } from "./protocol";

export type ReadAnswerResult =
  | { ok: true; plan: EditPlan; verdicts: EngineVerdict[]; /** The answer's `cost_usd`, 0 when absent. */ cost_usd: number }
  | { ok: false; detail: string };

/** Validates `text` against the ids that were sent. */
export function readEngineAnswer(text: string, requestIds: readonly string[], decisionThreshold: number): ReadAnswerResult {
  const parsed = parseAnswer(text, engineAnswerSchema, "the protocol");
  if (!parsed.ok) return parsed;
  const expected = new Set(requestIds);
  const seen = new Set<string>();
  for (const v of parsed.data.verdicts) {
    if (!expected.has(v.id)) return { ok: false, detail: `unknown id ${JSON.stringify(v.id.slice(0, 100))}` };
    if (seen.has(v.id)) return { ok: false, detail: `duplicate id ${JSON.stringify(v.id)}` };
    seen.add(v.id);
  }
  const missing = requestIds.filter((id) => !seen.has(id));
  if (missing.length > 0) return { ok: false, detail: `missing ${missing.length} id(s), first ${JSON.stringify(missing[0])}` };

  const actions: Record<string, PairAction> = {};
  for (const v of parsed.data.verdicts) {
    if (v.confidence < decisionThreshold) continue;
    const action = toAction(v.verdict);
    if (action.kind !== "keep") actions[v.id] = action;
  }
  return { ok: true, plan: { actions }, verdicts: parsed.data.verdicts, cost_usd: parsed.data.cost_usd ?? 0 };
}

function toAction(verdict: Verdict): PairAction {
  switch (verdict) {
    case "keep":
      return { kind: "keep" };
    case "drop_result":
      return { kind: "drop_result" };
    case "drop_pair":
      return { kind: "drop_pair" };
    default: {
      const never: never = verdict;
      return never;
    }
  }
}
