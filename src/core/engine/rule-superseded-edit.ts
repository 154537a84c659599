/**
 * Rule: an applied edit (Codex `apply_patch`, Claude Code Edit/MultiEdit/Write, write_file, …:
 * ./read-tool-call.ts kind "edit") whose every file was read again or edited again by a later
 * call that did not fail. The edit's effect is in the file, and the later call is the newer
 * record of that file in context, so the edit's text (its input: the patch, the written content)
 * is no longer needed: the whole pair goes, input included (in the Codex corpus sessions the
 * patch inputs hold about twice the tokens of their results). Verdict drop_pair, confidence 0.8
 * after a later read (the file's content is in context), 0.75 after a later edit only (only the
 * changed lines are). A reference reply ("file unchanged … refer to that earlier tool_result":
 * ./reference-replies.ts) carries no content and supersedes nothing. A failed edit is the
 * concern of ./rule-failed-retried.ts; it is judged here too, since a failed edit changed nothing.
 *
 * Evidence: the hashed paths of the calls (CallFacts.paths), their order, and the failure flags —
 * no text.
 */
import type { CallFacts, PairFacts } from "../facts/step-facts";
import type { Verdict, Verdicts } from "./verdict";

/** Confidence of an edit whose files were all read again later. */
export const SUPERSEDED_EDIT_BY_READ_CONFIDENCE = 0.8;
/** Confidence of an edit whose files were all touched again later, some only by edits. */
export const SUPERSEDED_EDIT_BY_EDIT_CONFIDENCE = 0.75;

const BY_READ: Verdict = Object.freeze({ kind: "drop_pair", confidence: SUPERSEDED_EDIT_BY_READ_CONFIDENCE, rule: "superseded_edit" });
const BY_EDIT: Verdict = Object.freeze({ kind: "drop_pair", confidence: SUPERSEDED_EDIT_BY_EDIT_CONFIDENCE, rule: "superseded_edit" });

/** Verdicts for superseded edits. Parallel arrays in call order; `failed[i]` marks failed calls (they supersede nothing). */
export function ruleSupersededEdit(pairs: PairFacts[], infos: CallFacts[], failed: boolean[]): Verdicts {
  const out: Verdicts = {};
  // Walk backwards remembering, per path hash, the strongest later touch: "read" beats "edit".
  const later = new Map<string, "read" | "edit">();
  for (let i = pairs.length - 1; i >= 0; i--) {
    const c = infos[i]!;
    if (c.kind === "other") continue;
    if (c.kind === "edit" && c.paths.length > 0) {
      let all = true;
      let allRead = true;
      for (const p of c.paths) {
        const t = later.get(p);
        if (t === undefined) all = allRead = false;
        else if (t !== "read") allRead = false;
      }
      if (all) out[pairs[i]!.id] = allRead ? BY_READ : BY_EDIT;
    }
    if (failed[i] || pairs[i]!.reference_reply) continue;
    for (const p of c.paths) if (c.kind === "read" || later.get(p) !== "read") later.set(p, c.kind);
  }
  return out;
}
