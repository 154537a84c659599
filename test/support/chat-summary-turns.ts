/**
 * TEST FIXTURE (not product code): maps OpenAI Chat Completions (and Anthropic) messages of a corpus session
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

type AnthropicBlock = { type: string; text?: string; id?: string; name?: string; input?: unknown; tool_use_id?: string; content?: string | { type: string; text?: string }[]; is_error?: boolean };

/** Turns of Anthropic Messages (text, tool_use, tool_result; thinking and media left out). */
export function anthropicSummaryTurns(messages: readonly { role: "user" | "assistant"; content: string | AnthropicBlock[] }[]): SummaryTurn[] {
  return messages.map((m) => ({
    role: m.role,
    parts: (typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content).flatMap((b): SummaryPart[] => {
      if (b.type === "text") return [{ type: "text", text: b.text ?? "" }];
      if (b.type === "tool_use") return [{ type: "tool_call", id: b.id!, name: b.name!, input: JSON.stringify(b.input) }];
      if (b.type !== "tool_result") return [];
      const text = typeof b.content === "string" ? b.content : (b.content ?? []).map((c) => c.text ?? "").join("");
      return [{ type: "tool_result", id: b.tool_use_id!, text, is_error: b.is_error === true }];
    }),
  }));
}
