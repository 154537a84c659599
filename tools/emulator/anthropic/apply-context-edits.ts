/**
 * Server-side context editing on the emulator's copy of a request (pure), before caching and
 * billing (platform.claude.com/docs/en/build-with-claude/context-editing):
 *
 * 1. Edits run in the order listed (`clear_thinking_20251015` is first when present).
 * 2. `clear_thinking_20251015`: thinking blocks of assistant turns older than the last `keep`
 *    (default 1 turn; `"all"` keeps every one) are removed.
 * 3. `clear_tool_uses_20250919`: when the prompt exceeds `trigger` (default 100,000 input tokens;
 *    or a count of tool uses), the oldest tool uses are cleared first, all but the most recent
 *    `keep` (default 3), never those named in `exclude_tools`: each result's content becomes
 *    CLEARED_TOOL_RESULT_TEXT and, with `clear_tool_inputs` (true, or a list naming the tool), the
 *    call's `input` becomes `{}`. Nothing is cleared when the clearing would remove fewer than
 *    `clear_at_least` tokens.
 * 4. Each edit that removed something is reported in `applied_edits` with the SDK's field names
 *    (`cleared_tool_uses` / `cleared_thinking_turns`, `cleared_input_tokens`).
 *
 * Token counts are the emulator's estimate (./segment-prompt.ts), so `cleared_input_tokens` is
 * exactly the drop in the billed prompt. The copy is what the cache sees, so clearing invalidates
 * the cache from the first cleared block onward, like any other change.
 */
import { countTokens, MEDIA_TOKENS } from "../shared/count-tokens";
import { isObject, prop, str, type Json, type JsonObject } from "../shared/json";
import { asBlocks, BLOCK_OVERHEAD, renderBlock, segmentAnthropicPrompt } from "./segment-prompt";
import { CLEAR_THINKING, CLEAR_TOOL_USES } from "./validate-context-management";

/**
 * Text a cleared tool result is replaced with. The docs say only "placeholder text"; this
 * wording is the emulator's own.
 */
export const CLEARED_TOOL_RESULT_TEXT = "[tool result cleared by context management]";

/** Defaults of `clear_tool_uses_20250919` (context-editing doc): trigger 100,000 input tokens, keep 3 tool uses. */
export const DEFAULT_TRIGGER_INPUT_TOKENS = 100_000;
export const DEFAULT_KEEP_TOOL_USES = 3;

/** One `applied_edits` entry. */
export type AppliedEdit =
  | { type: typeof CLEAR_TOOL_USES; cleared_tool_uses: number; cleared_input_tokens: number }
  | { type: typeof CLEAR_THINKING; cleared_thinking_turns: number; cleared_input_tokens: number };

const blockTokens = (b: Json) => {
  const r = renderBlock(b);
  return BLOCK_OVERHEAD + countTokens(r.text) + r.media * MEDIA_TOKENS;
};

/** Message content as a fresh block array, for editing. */
function editableMessages(body: JsonObject): JsonObject[] {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  return messages.map((m) => ({ ...(m as JsonObject), content: [...asBlocks(prop(m, "content"))] }));
}

function clearThinking(messages: JsonObject[], edit: JsonObject): AppliedEdit | null {
  const keep = edit.keep === "all" || (isObject(edit.keep) && edit.keep.type === "all") ? Infinity : isObject(edit.keep) ? Number(edit.keep.value) : 1;
  const assistants = messages.filter((m) => m.role === "assistant");
  let turns = 0;
  let tokens = 0;
  for (const m of assistants.slice(0, Math.max(0, assistants.length - keep))) {
    const blocks = m.content as Json[];
    const kept = blocks.filter((b) => !["thinking", "redacted_thinking"].includes(str(b, "type") ?? ""));
    if (kept.length === blocks.length) continue;
    turns++;
    tokens += blocks.reduce<number>((n, b) => n + blockTokens(b), 0) - kept.reduce<number>((n, b) => n + blockTokens(b), 0);
    m.content = kept;
  }
  return turns > 0 ? { type: CLEAR_THINKING, cleared_thinking_turns: turns, cleared_input_tokens: tokens } : null;
}

interface ToolUse {
  use: { m: number; j: number };
  result: { m: number; j: number };
  name: string;
}

function toolUses(messages: JsonObject[]): ToolUse[] {
  const byId = new Map<string, { m: number; j: number; name: string }>();
  const out: ToolUse[] = [];
  messages.forEach((msg, m) =>
    (msg.content as Json[]).forEach((b, j) => {
      const type = str(b, "type");
      if (type === "tool_use" && msg.role === "assistant") byId.set(str(b, "id") ?? "", { m, j, name: str(b, "name") ?? "" });
      const use = type === "tool_result" ? byId.get(str(b, "tool_use_id") ?? "") : undefined;
      if (use) out.push({ use, result: { m, j }, name: use.name });
    }),
  );
  return out.sort((a, b) => a.use.m - b.use.m || a.use.j - b.use.j);
}

function clearToolUses(body: JsonObject, messages: JsonObject[], edit: JsonObject): AppliedEdit | null {
  const all = toolUses(messages);
  const trigger = isObject(edit.trigger) ? edit.trigger : { type: "input_tokens", value: DEFAULT_TRIGGER_INPUT_TOKENS };
  const size = trigger.type === "tool_uses" ? all.length : segmentAnthropicPrompt({ ...body, messages }).reduce((n, b) => n + b.tokens, 0);
  if (size <= Number(trigger.value)) return null;
  const excluded = new Set(Array.isArray(edit.exclude_tools) ? edit.exclude_tools : []);
  const clearable = all.filter((t) => !excluded.has(t.name));
  const keep = isObject(edit.keep) ? Number(edit.keep.value) : DEFAULT_KEEP_TOOL_USES;
  const chosen = clearable.slice(0, Math.max(0, clearable.length - keep));
  const inputsFor = (name: string) => edit.clear_tool_inputs === true || (Array.isArray(edit.clear_tool_inputs) && edit.clear_tool_inputs.includes(name));

  const changes: { at: { m: number; j: number }; block: Json }[] = [];
  let tokens = 0;
  for (const t of chosen) {
    const result = (messages[t.result.m]!.content as Json[])[t.result.j]!;
    const cleared = { ...(result as JsonObject), content: CLEARED_TOOL_RESULT_TEXT };
    tokens += blockTokens(result) - blockTokens(cleared);
    changes.push({ at: t.result, block: cleared });
    if (inputsFor(t.name)) {
      const use = (messages[t.use.m]!.content as Json[])[t.use.j]!;
      const emptied = { ...(use as JsonObject), input: {} };
      tokens += blockTokens(use) - blockTokens(emptied);
      changes.push({ at: t.use, block: emptied });
    }
  }
  const atLeast = isObject(edit.clear_at_least) ? Number(edit.clear_at_least.value) : 0;
  if (chosen.length === 0 || tokens < atLeast) return null;
  for (const c of changes) (messages[c.at.m]!.content as Json[])[c.at.j] = c.block;
  return { type: CLEAR_TOOL_USES, cleared_tool_uses: chosen.length, cleared_input_tokens: tokens };
}

/**
 * Applies `body.context_management.edits` (already validated) to a copy of `body`. Returns the
 * edited copy and the applied edits; `body` itself is not changed.
 */
export function applyContextEdits(body: JsonObject): { body: JsonObject; applied_edits: AppliedEdit[] } {
  const edits = prop(body.context_management, "edits");
  if (!Array.isArray(edits) || edits.length === 0) return { body, applied_edits: [] };
  const messages = editableMessages(body);
  const applied: AppliedEdit[] = [];
  for (const edit of edits) {
    if (!isObject(edit)) continue;
    const done = edit.type === CLEAR_THINKING ? clearThinking(messages, edit) : edit.type === CLEAR_TOOL_USES ? clearToolUses(body, messages, edit) : null;
    if (done) applied.push(done);
  }
  return { body: { ...body, messages }, applied_edits: applied };
}
