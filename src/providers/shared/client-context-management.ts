/**
 * Classifies a client's own context management (pure; DESIGN §6 "never fight the provider's own
 * mechanisms, and never stand aside more than they need"). Sluice stands aside (the view's
 * `server_managed`) only when the client asked the provider to do what Sluice does: clear tool
 * uses, compact the history on the server, or hold the history itself. A thinking-only edit
 * (`clear_thinking_*`, which Claude Code sends whenever thinking is on) never stops compaction.
 * Whatever is decided, the client's `context_management` is forwarded as it came.
 *
 * Which Anthropic edit types stand aside is the `context_edit` rows of ../known-types.ts (with
 * their sources); an edit type the table does not list is a feature Sluice cannot reason about
 * (it may do what Sluice does): the request stands aside as `unknown_type`. OpenAI Responses
 * `context_management[]` entries, whose only type is `compaction` (openai ResponseCreateParams),
 * always stand aside.
 */
import { getMember, stringValue, type JsonNode } from "./json-scan";
import { requireKnown } from "./unknown-type";

/**
 * Why Sluice stands aside for an Anthropic request's `context_management` member (`node`, as
 * scanned from `bytes`), or null when it may compact. Returns the first edit `type` whose row
 * stands aside (`"clear_tool_uses_20250919"`, `"compact_20260112"`), or `"context_management"`
 * for a shape that is not an object with an `edits` array of typed objects (surprising input:
 * forwarded as it came, never edited). Absent, `null`, `{}` and `{"edits":[]}` ask for nothing.
 * Throws UnknownTypeError (./unknown-type.ts) on an edit type the table does not list.
 */
export function anthropicContextManagementReason(bytes: Uint8Array, node: JsonNode | undefined): string | null {
  if (node === undefined || node.type === "null") return null;
  if (node.type !== "object") return "context_management";
  const edits = getMember(node, "edits");
  if (edits === undefined || edits.type === "null") return null;
  if (edits.type !== "array") return "context_management";
  let reason: string | null = null;
  for (const [k, edit] of edits.items.entries()) {
    const type = edit.type === "object" ? getMember(edit, "type") : undefined;
    if (type?.type !== "string") return reason ?? "context_management";
    const row = requireKnown("anthropic", "context_edit", stringValue(bytes, type), `context_management.edits[${k}].type`);
    reason ??= row.stands_aside_as;
  }
  return reason;
}

/**
 * Why Sluice stands aside for an OpenAI Responses request's `context_management` member, or
 * null: any entry (the only documented type is `compaction`, server-side compaction) means the
 * provider manages the history. Absent, `null` and `[]` ask for nothing; any other shape is
 * surprising input and stands aside too.
 */
export function responsesContextManagementReason(node: JsonNode | undefined): string | null {
  if (node === undefined || node.type === "null") return null;
  if (node.type === "array" && node.items.length === 0) return null;
  return "context_management";
}
