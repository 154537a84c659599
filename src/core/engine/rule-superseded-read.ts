/**
 * Rule: a file read that a complete newer view of the file supersedes (./file-views.ts: a later
 * read covering the same lines, a later full read, or a later whole write of the file). A later
 * edit that carries only the changed lines does not: the read plus the edit is what the agent
 * knows of the file. Verdict drop_pair (DESIGN §2 note: remove the whole pair for superseded calls
 * rather than truncate), confidence 0.9 (above the default decision_threshold 0.6). A reference
 * reply (./reference-replies.ts: "file unchanged … refer to that earlier tool_result") holds no
 * content and supersedes nothing; it points at the earlier result, which ./referenced-results.ts
 * locks.
 */
import type { CallFacts, PairFacts } from "../facts/step-facts";
import type { FileViews } from "./file-views";
import type { Verdict, Verdicts } from "./verdict";

/** Confidence of a read superseded by a complete newer view of its lines. */
export const SUPERSEDED_BY_READ_CONFIDENCE = 0.9;

const DROP_PAIR: Verdict = Object.freeze({ kind: "drop_pair", confidence: SUPERSEDED_BY_READ_CONFIDENCE, rule: "superseded_read" });

/** Verdicts for superseded reads. `pairs` and `infos` are parallel arrays in call order; `views` their file views. */
export function ruleSupersededRead(pairs: readonly PairFacts[], infos: readonly CallFacts[], views: FileViews): Verdicts {
  const out: Verdicts = {};
  for (let i = 0; i < pairs.length; i++) if (infos[i]!.kind === "read" && views.superseded.has(pairs[i]!.id)) out[pairs[i]!.id] = DROP_PAIR;
  return out;
}
