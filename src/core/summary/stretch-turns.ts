/**
 * The closed stretch a `summarize` action stands for, as the summariser reads it (pure; level
 * `rewrite`, src/core/plan/types.ts, ./types.ts). From a parsed request and the covered pair ids:
 * the covered calls (name, input text) and results (text, is_error) as the view gives them, and
 * the assistant prose of the messages holding those calls, read from the bytes. Turns are in body
 * order (oldest first); neighbouring messages of the same role merge into one turn (a Responses
 * assistant message and its function_call items read as one assistant turn).
 *
 * Assistant prose: the history messages with role `assistant` in the turn of a covered call, up to
 * the call's own message (Anthropic and Chat: the message holding the call; Responses: the
 * assistant message items of the run before the function_call item). Their text is the `content`
 * string, or the `text` members of its `text` / `output_text` parts; other parts (thinking,
 * refusal, media, server tools) are not prose. Prose the user wrote is never part of a stretch.
 */
import type { ParsedRequest } from "../../providers/types";
import { getMember } from "../../providers/shared/json-scan";
import { messageProse } from "../../providers/shared/message-prose";
import type { ToolPair } from "../view/types";
import type { SummaryPart, SummaryTurn } from "./types";

/**
 * The stretch of `covers` (pair ids; unknown ids are skipped) in `parsed`, whose history is the
 * top-level array `historyKey` (the adapter's). Results sit in a `user` turn for Anthropic and a
 * `tool` turn for the OpenAI formats. [] when no id is a pair of the view.
 */
export function stretchTurns(parsed: ParsedRequest, historyKey: string, covers: readonly string[]): SummaryTurn[] {
  const { view } = parsed;
  const wanted = new Set(covers);
  const pairs = view.pairs.filter((p) => wanted.has(p.id));
  if (pairs.length === 0) return [];
  const resultRole = view.provider === "anthropic" ? "user" : "tool";
  const history = getMember(parsed.root, historyKey);
  const items = history?.type === "array" ? history.items : [];

  // Message index → its parts in the stretch, each with its block position for ordering.
  const at = new Map<number, { role: SummaryTurn["role"]; parts: { block: number; part: SummaryPart }[] }>();
  const add = (mi: number, role: SummaryTurn["role"], block: number, part: SummaryPart) => {
    let m = at.get(mi);
    if (!m) at.set(mi, (m = { role, parts: [] }));
    m.parts.push({ block, part });
  };
  for (const p of pairs) {
    add(p.call.message_index, "assistant", p.call.block_index, { type: "tool_call", id: p.id, name: p.tool_name, input: p.input_text });
    add(p.result.message_index, resultRole, p.result.block_index, { type: "tool_result", id: p.id, text: p.result_text, is_error: p.result_is_error });
  }
  for (const mi of proseMessages(parsed, pairs)) {
    const node = items[mi];
    const text = node ? messageProse(parsed.bytes, node) : "";
    // Prose leads its message's calls (block -1 sorts first).
    if (text !== "") add(mi, "assistant", -1, { type: "text", text });
  }

  const turns: SummaryTurn[] = [];
  for (const mi of [...at.keys()].sort((a, b) => a - b)) {
    const m = at.get(mi)!;
    const parts = m.parts.sort((a, b) => a.block - b.block).map((x) => x.part);
    const last = turns[turns.length - 1];
    if (last && last.role === m.role) last.parts.push(...parts);
    else turns.push({ role: m.role, parts });
  }
  return turns;
}

/** Indices of the assistant messages whose prose belongs to the stretch (see the module comment). */
function proseMessages(parsed: ParsedRequest, pairs: readonly ToolPair[]): number[] {
  const upTo = new Map<number, number>();
  for (const p of pairs) upTo.set(p.turn_index, Math.max(upTo.get(p.turn_index) ?? -1, p.call.message_index));
  return parsed.view.messages.filter((m) => m.role === "assistant" && m.index <= (upTo.get(m.turn_index) ?? -1)).map((m) => m.index);
}
