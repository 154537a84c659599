/**
 * TEST FIXTURE (not product code): maps OpenAI Chat Completions messages of a corpus session
 * (MANIFEST.md: tool_calls of type function/custom, role `tool` results) to the summariser's
 * provider-neutral turns. Codex results carry no error flag: `is_error` is false and the exit
 * status stays in the text, as the summariser reads it.
 */
import type { SummaryPart, SummaryTurn } from "../../src/core/summary/types";

type ChatMessage = {
  role: string;
  content?: string | null | { type: string; text?: string }[];
  tool_call_id?: string;
  tool_calls?: { id: string; type: string; function?: { name: string; arguments: string }; custom?: { name: string; input: string } }[];
};

/** Turns of `messages` (system and developer messages left out). */
export function chatSummaryTurns(messages: readonly ChatMessage[]): SummaryTurn[] {
  const turns: SummaryTurn[] = [];
  for (const m of messages) {
    const text = typeof m.content === "string" ? m.content : (m.content ?? []).map((p) => p.text ?? "").join("");
    if (m.role === "tool") {
      turns.push({ role: "tool", parts: [{ type: "tool_result", id: m.tool_call_id!, text, is_error: false }] });
      continue;
    }
    if (m.role !== "user" && m.role !== "assistant") continue;
    const parts: SummaryPart[] = text === "" ? [] : [{ type: "text", text }];
    for (const c of m.tool_calls ?? []) {
      parts.push(c.function
        ? { type: "tool_call", id: c.id, name: c.function.name, input: c.function.arguments }
        : { type: "tool_call", id: c.id, name: c.custom!.name, input: c.custom!.input });
    }
    turns.push({ role: m.role, parts });
  }
  return turns;
}
