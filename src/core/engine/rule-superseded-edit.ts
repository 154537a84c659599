/**
 * Rule: an edit (Codex `apply_patch`, Claude Code Edit/MultiEdit/Write, write_file, …:
 * ./read-tool-call.ts kind "edit") whose every file has a complete newer view later in the
 * history (./file-views.ts): a full read of the file, or a whole write of it, by a later call that
 * did not fail. The edit's effect is in that view, so its text (its input: the patch, the written
 * content) is no longer needed: the whole pair goes, input included (in the Codex corpus sessions
 * the patch inputs hold about twice the tokens of their results). Verdict drop_pair, confidence
 * 0.8.
 *
 * A later edit does not supersede an edit (a diff carries only the changed lines, and
 * `apply_patch` needs exact context lines the agent took from the earlier ones), nor does a
 * partial read (offset/limit, `sed -n`, `head`): a file the agent keeps patching keeps its
 * patches until it reads the whole file. A reference reply ("file unchanged … refer to that
 * earlier tool_result": ./reference-replies.ts) carries no content and supersedes nothing. A
 * failed edit is the concern of ./rule-failed-retried.ts; it is judged here too, since a failed
 * edit changed nothing.
 *
 * Evidence: the hashed paths of the calls (CallFacts.paths), their order, and the failure flags —
 * no text.
 */
import type { CallFacts, PairFacts } from "../facts/step-facts";
import type { FileViews } from "./file-views";
import type { Verdict, Verdicts } from "./verdict";

/** Confidence of an edit whose files all have a complete newer view. */
export const SUPERSEDED_EDIT_CONFIDENCE = 0.8;

const DROP_PAIR: Verdict = Object.freeze({ kind: "drop_pair", confidence: SUPERSEDED_EDIT_CONFIDENCE, rule: "superseded_edit" });

/** Verdicts for superseded edits. Parallel arrays in call order; `views` their file views. */
export function ruleSupersededEdit(pairs: readonly PairFacts[], infos: readonly CallFacts[], views: FileViews): Verdicts {
  const out: Verdicts = {};
  for (let i = 0; i < pairs.length; i++) if (infos[i]!.kind === "edit" && views.superseded.has(pairs[i]!.id)) out[pairs[i]!.id] = DROP_PAIR;
  return out;
}
