/**
 * OpenAI Chat: compiles an EditPlan into byte deletions that keep the API's rules (pure).
 *
 * Rules kept (sources: OpenAI error texts quoted in test/fixtures/cases/B06.json and the
 * threads cited in wire.ts):
 * 1. drop_pair removes the `tool_calls` element and the tool message. A `tool_calls` array is
 *    never left empty ("Invalid 'messages[1].tool_calls': empty array", openai/openai-node#1341):
 *    when its last element goes the `tool_calls` member goes. An assistant message left with no
 *    content and no calls is removed; if it cannot be (content null with other non-tool
 *    members: "Invalid value for 'content': expected a string, got null", vercel/ai#14950),
 *    one of its calls is kept (refused "assistant_would_be_empty").
 * 2. Every remaining call keeps its tool message in the run right after its assistant message:
 *    tool messages are only ever removed with their call.
 * 3. drop_result / truncate_result / strip_media edit only the tool message's `content` value
 *    (src/providers/shared/edit-result-content.ts); never to an empty string or array.
 * 4. A call that an unsigned parallel call of its message requires (Gemini's thought signature
 *    on the first call: ../dependencies.ts `openai-chat.thought_signature`) is not dropped while
 *    that call stays (refused "thought_signature").
 * 5. Locked pairs (last assistant turn, non-adjacent) and unknown ids are refused; system,
 *    developer and user messages, prose and tool definitions are never touched.
 * No role-order rule applies to what is left: the API accepts system and developer messages at
 * any position and same-role neighbours, so the removal of an assistant message with its tool
 * messages needs no refusal of the kind Anthropic's mid-conversation system messages need.
 */
import type { ByteRange } from "../../core/view/types";
import type { EditPlan } from "../../core/plan/types";
import type { CompiledPlan, ParsedRequest } from "../types";
import { mergeRanges } from "../shared/splice";
import { removeArrayItems, removeObjectMembers } from "../shared/remove-json-items";
import { editResultContent, partType } from "../shared/edit-result-content";
import { refuseRequired, screenPlan } from "../shared/screen-plan";
import { codeOf, type DependencyId } from "../dependencies";
import { chatIndexOf, type ChatPairLoc } from "./locate-pairs";
import { hasNoContent, isRemovableWithCalls } from "./read-view";
import { CHAT_PART_KINDS } from "./wire";

/** Compiles `plan` against a parsed Chat request. Never throws for plans over known or unknown ids. */
export function compileChat(parsed: ParsedRequest, plan: EditPlan): CompiledPlan {
  const { bytes, view } = parsed;
  // A request Sluice stands aside on is not located again (a type it does not know would throw there): every action is refused.
  if (view.server_managed !== null) return { deletions: [], refused: screenPlan(plan, new Map(), true).refused };
  const index = chatIndexOf(parsed);
  const byId = new Map(index.pairs.map((p) => [p.id, p]));
  const deletions: ByteRange[] = [];
  const anchors: Record<string, number> = {};

  // 1. Sort requested actions; refuse unknown and locked pairs (shared screening).
  const screened = screenPlan(plan, byId, view.server_managed !== null);
  const { refused, resultEdits } = screened;
  const drops = new Map<number, ChatPairLoc[]>();
  // A signed call stays while an unsigned call of its message stays (../dependencies.ts openai-chat.thought_signature).
  for (const pair of refuseRequired(screened.drops, index.pairs, refused, (rule) => codeOf(rule as DependencyId))) drops.set(pair.call.message, [...(drops.get(pair.call.message) ?? []), pair]);

  // 2. Dropped pairs, per assistant message.
  const removeMessages = new Set<number>();
  for (const [mi, dropped] of drops) {
    const m = index.messages[mi]!;
    const total = (m.toolCalls?.items.length ?? 0) + (m.functionCall ? 1 : 0);
    dropped.sort((a, b) => a.call.item - b.call.item);
    const removable = isRemovableWithCalls(m);
    if (dropped.length === total && !removable && hasNoContent(m)) {
      const kept = dropped.pop()!;
      refused[kept.id] = "assistant_would_be_empty";
    }
    for (const p of dropped) removeMessages.add(p.result);
    if (dropped.length === total && removable) {
      removeMessages.add(mi);
      continue;
    }
    const items = new Set(dropped.filter((p) => p.call.item >= 0).map((p) => p.call.item));
    const members = new Set<string>();
    if (dropped.some((p) => p.call.item < 0)) members.add("function_call");
    if (m.toolCalls && items.size > 0) {
      if (items.size === m.toolCalls.items.length) members.add("tool_calls");
      else deletions.push(...removeArrayItems(m.toolCalls, items));
    }
    deletions.push(...removeObjectMembers(m.node, members));
  }

  // 3. Result-side edits on tool message content.
  for (const [pair, action] of resultEdits) {
    const content = index.messages[pair.result]!.content;
    if (!content || content.type === "null") {
      refused[pair.id] = "no_content";
      continue;
    }
    const edit = editResultContent(bytes, content, action, CHAT_PART_KINDS, (n) => partType(bytes, n));
    if ("refused" in edit) refused[pair.id] = edit.refused;
    else {
      deletions.push(...edit.deletions);
      if (edit.anchor !== undefined) anchors[pair.id] = edit.anchor;
    }
  }

  deletions.push(...removeArrayItems(index.messagesNode, removeMessages));
  return { deletions: mergeRanges(deletions, bytes.length), refused, ...(Object.keys(anchors).length > 0 ? { anchors } : {}) };
}
