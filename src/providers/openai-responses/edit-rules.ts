/**
 * OpenAI Responses: compiles an EditPlan into byte deletions that keep the API's rules (pure).
 *
 * The reasoning rule (researched; OpenAI documents no formal statement of it):
 * - the API answers 400 when a reasoning item is not followed by an item of its own response
 *   ("Item 'rs_…' of type 'reasoning' was provided without its required following item":
 *   continuedev/continue#8933, vercel/ai#7099; a reasoning item last in `input` triggers it,
 *   community.openai.com/t/1236046) and when a call item whose reasoning item is missing is sent
 *   ("Item 'fc_…' of type 'function_call' was provided without its required 'reasoning' item":
 *   mastra-ai/mastra#8738, case B08). Items are linked by their `id`s when present; without ids
 *   (store=false clients such as Codex) the check cannot be done by id, so we keep the stricter
 *   positional form, case B08's expectation: a kept reasoning item is followed by the very item
 *   that followed it originally, and a kept call still has its reasoning item before it.
 * - OpenAI's own Agents SDK drops reasoning items orphaned by dropped calls
 *   (openai/openai-agents-python#3207), and the API discards reasoning whose prefix was edited
 *   anyway (developers.openai.com/api/docs/guides/preserved-reasoning).
 * So, per reasoning group (./locate-items.ts: a reasoning block + the model items after it in
 * its run): when every member is a paired call whose pair is dropped, the reasoning block goes
 * with them; otherwise a drop_pair of the group's FIRST member is refused ("reasoning_link"),
 * while later members may go (the block is still followed by its original first member).
 * A group with an assistant message or another kind of item is never emptied.
 *
 * Other rules: no role order applies (system/developer message items may stand anywhere);
 * a call never loses its output (both go, or neither); result edits touch only
 * the output value (never to an empty string or array); instructions, tools, messages, and
 * everything with server-side state (`previous_response_id`, `conversation`,
 * `context_management`, compaction items) are never touched.
 */
import type { ByteRange } from "../../core/view/types";
import type { EditPlan } from "../../core/plan/types";
import type { CompiledPlan, ParsedRequest } from "../types";
import { mergeRanges } from "../shared/splice";
import { removeArrayItems } from "../shared/remove-json-items";
import { editResultContent, partType } from "../shared/edit-result-content";
import { screenPlan } from "../shared/screen-plan";
import { responsesIndexOf, type ResponsesPairLoc } from "./locate-items";
import { RESPONSES_PART_KINDS } from "./wire";

/** Compiles `plan` against a parsed Responses request. Never throws for plans over known or unknown ids. */
export function compileResponses(parsed: ParsedRequest, plan: EditPlan): CompiledPlan {
  const { bytes } = parsed;
  // A request Sluice stands aside on is not located again (a type it does not know would throw there): every action is refused.
  if (parsed.view.server_managed !== null) return { deletions: [], refused: screenPlan(plan, new Map(), true).refused };
  const index = responsesIndexOf(parsed);
  const byId = new Map(index.pairs.map((p) => [p.id, p]));
  // 1. Sort requested actions; refuse unknown and locked pairs (shared screening).
  const screened = screenPlan(plan, byId, index.serverManaged !== null);
  const { refused, resultEdits } = screened;
  const drops = new Map<number, ResponsesPairLoc>(screened.drops.map((p) => [p.call, p]));

  // 2. Reasoning groups: all members dropped → the block goes too; else the first member stays.
  const remove = new Set<number>();
  for (const g of index.groups) {
    if (g.members.length === 0) continue;
    if (g.members.every((m) => drops.has(m))) {
      for (const r of g.reasoning) remove.add(r);
      continue;
    }
    const first = drops.get(g.members[0]!);
    if (first) {
      refused[first.id] = "reasoning_link";
      drops.delete(first.call);
    }
  }
  for (const p of drops.values()) {
    remove.add(p.call);
    remove.add(p.result);
  }

  // 3. Result-side edits on the output value.
  const deletions: ByteRange[] = [];
  const anchors: Record<string, number> = {};
  for (const [pair, action] of resultEdits) {
    const edit = editResultContent(bytes, index.items[pair.result]!.value!, action, RESPONSES_PART_KINDS, (n) => partType(bytes, n));
    if ("refused" in edit) refused[pair.id] = edit.refused;
    else {
      deletions.push(...edit.deletions);
      if (edit.anchor !== undefined) anchors[pair.id] = edit.anchor;
    }
  }

  if (index.inputNode) deletions.push(...removeArrayItems(index.inputNode, remove));
  return { deletions: mergeRanges(deletions, bytes.length), refused, ...(Object.keys(anchors).length > 0 ? { anchors } : {}) };
}
