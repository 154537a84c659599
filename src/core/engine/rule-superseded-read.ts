/**
 * Rule: a file read superseded by a later read of the same path that covers the same lines, or
 * by a later edit of that path (the read content is stale). Verdict drop_pair (DESIGN §2 note:
 * remove the whole pair for superseded calls rather than truncate). Confidence 0.9 for a
 * covering re-read (the newer content is in context), 0.7 after an edit (only the changed
 * lines are in context) — both above the default decision_threshold 0.6. Only a later full copy
 * supersedes: a reference reply (./reference-replies.ts: "file unchanged … refer to that earlier
 * tool_result") holds no content and supersedes nothing; it points at the earlier result, which
 * ./referenced-results.ts locks.
 */
import type { PairFacts } from "../facts/step-facts";
import type { CallFacts, LineRangeFacts } from "../facts/step-facts";
import type { Verdicts } from "./verdict";

/** Confidence of a read superseded by a covering later read. */
export const SUPERSEDED_BY_READ_CONFIDENCE = 0.9;
/** Confidence of a read superseded by a later edit of the same path. */
export const SUPERSEDED_BY_EDIT_CONFIDENCE = 0.7;

/** Verdicts for superseded reads. `pairs` and `infos` are parallel arrays in call order; `failed[i]` marks failed calls (they supersede nothing). */
export function ruleSupersededRead(pairs: PairFacts[], infos: CallFacts[], failed: boolean[]): Verdicts {
  const out: Verdicts = {};
  for (let i = 0; i < pairs.length; i++) {
    const a = infos[i]!;
    if (a.kind !== "read" || failed[i]) continue;
    for (let j = i + 1; j < pairs.length; j++) {
      const b = infos[j]!;
      if (failed[j]) continue;
      if (b.kind === "edit" && b.paths.some((p) => a.paths.includes(p))) {
        out[pairs[i]!.id] = { kind: "drop_pair", confidence: SUPERSEDED_BY_EDIT_CONFIDENCE, rule: "superseded_read" };
        break;
      }
      if (b.kind === "read" && a.paths.every((p) => b.paths.includes(p)) && covers(b.range, a.range) && !pairs[j]!.reference_reply) {
        out[pairs[i]!.id] = { kind: "drop_pair", confidence: SUPERSEDED_BY_READ_CONFIDENCE, rule: "superseded_read" };
        break;
      }
    }
  }
  return out;
}

/** Whether `later` covers `earlier` (`to` null = to the end of the file). */
function covers(later: LineRangeFacts | null, earlier: LineRangeFacts | null): boolean {
  if (later === null) return false;
  if (earlier === null) return later.from === 1 && later.to === null;
  return later.from <= earlier.from && (later.to === null || (earlier.to !== null && later.to >= earlier.to));
}
