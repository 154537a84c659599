/**
 * A JSON.parse-based oracle of the Anthropic request rules an edit can break (independent of
 * src/: written from the case files' `checks`). Returns the failed checks, [] when valid.
 */
type Block = { type: string; id?: string; tool_use_id?: string; text?: string; content?: unknown };
type Msg = { role: string; content: string | Block[] };

export function anthropicInvariants(body: { messages: { role: string; content: unknown }[] }): string[] {
  const out: string[] = [];
  const ms = body.messages as Msg[];
  const blocks = (m: Msg | undefined): Block[] => (m && Array.isArray(m.content) ? m.content : []);
  if (ms[0]?.role !== "user") out.push("messages[0].role == 'user'");
  ms.forEach((m, i) => {
    if (i > 0 && ms[i - 1]!.role === m.role && m.role !== "system") out.push(`messages[${i}] has the same role as messages[${i - 1}]`);
    // Mid-conversation system messages: right after a user message, right before an assistant message or the end.
    if (m.role === "system" && ms[i - 1]?.role !== "user" && ms[i - 1]?.role !== "system") out.push(`messages[${i}]: system message not after a user message`);
    if (m.role === "system" && i + 1 < ms.length && ms[i + 1]!.role !== "assistant" && ms[i + 1]!.role !== "system") out.push(`messages[${i}]: system message not before an assistant message`);
    if (Array.isArray(m.content) && m.content.length === 0) out.push(`messages[${i}].content is empty`);
    let seenOther = false;
    for (const b of blocks(m)) {
      if (b.type === "text" && (b.text ?? "").trim() === "") out.push(`messages[${i}]: blank text block`);
      if (b.type === "tool_result") {
        if (seenOther) out.push(`messages[${i}]: tool_result after another block`);
        const prev = ms[i - 1];
        if (prev?.role !== "assistant" || !blocks(prev).some((u) => u.type === "tool_use" && u.id === b.tool_use_id)) out.push(`messages[${i}]: tool_result ${b.tool_use_id} has no tool_use in messages[${i - 1}]`);
        if (Array.isArray(b.content)) {
          if (b.content.length === 0) out.push(`messages[${i}]: tool_result with empty content`);
          for (const p of b.content as Block[]) if (p.type === "text" && (p.text ?? "").trim() === "") out.push(`messages[${i}]: blank text inside tool_result`);
        }
      } else seenOther = true;
      if (b.type === "tool_use" && i + 1 < ms.length && !blocks(ms[i + 1]).some((r) => r.type === "tool_result" && r.tool_use_id === b.id)) out.push(`messages[${i}]: tool_use ${b.id} unanswered in messages[${i + 1}]`);
    }
  });
  return out;
}

/** Non-null cache_control markers anywhere in a parsed body. */
export function countCacheControl(v: unknown): number {
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + countCacheControl(x), 0);
  if (v && typeof v === "object") return Object.entries(v).reduce((n, [k, x]) => n + (k === "cache_control" && x !== null ? 1 : 0) + countCacheControl(x), 0);
  return 0;
}
