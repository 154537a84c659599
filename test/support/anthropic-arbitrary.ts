/**
 * fast-check generators of valid Anthropic Messages requests with tool pairs, and of plans over
 * them. Conversations alternate user/assistant from a user message; every tool_use of a
 * non-final assistant message is answered first thing in the next user message. A turn may put
 * a mid-conversation `role: "system"` message (Claude Code with Opus 4.8+) between its user
 * message and its assistant message — the one place the API accepts it besides the end.
 */
import fc from "fast-check";
import type { EditPlan, PairAction } from "../../src/core/plan/types";

/** Text with the awkward bits: multi-byte characters, emoji, quotes, backslashes, newlines. */
export const arbText = fc
  .array(fc.constantFrom("a", "b", "word ", "é", "ж", "中", "😀", "👍🏽", '"', "\\", "\n", "\t", " ", "{", "}", "/", "x"), { minLength: 1, maxLength: 60 })
  .map((parts) => parts.join(""))
  .filter((t) => t.trim() !== "");

const cc = { cache_control: { type: "ephemeral" } };
const image = { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } };

const arbResultContent = fc.oneof(
  arbText,
  fc.array(fc.oneof({ weight: 4, arbitrary: arbText.map((t) => ({ type: "text", text: t })) }, { weight: 1, arbitrary: fc.constant(image) }), { minLength: 1, maxLength: 4 }),
);

interface Shape {
  system: "none" | "string" | "blocks";
  model: string | null;
  indent: number | undefined;
  turns: {
    userText: string | null;
    userImage: boolean;
    thinking: boolean;
    assistantText: string | null;
    calls: { input: string; content: string | unknown[]; isError: boolean; cache: boolean }[];
    trailingUserText: string | null;
    /** A mid-conversation system message after this turn's user message: string or block content. */
    system: "none" | "string" | "blocks";
  }[];
  endsWithAssistant: boolean;
}

const arbShape: fc.Arbitrary<Shape> = fc.record({
  system: fc.constantFrom("none", "string", "blocks"),
  model: fc.constantFrom("claude-sonnet-4-5", "claude-opus-4-1-20250805", null, "claude-fable-5-1"),
  indent: fc.constantFrom(undefined, 1, 2),
  turns: fc.array(
    fc.record({
      userText: fc.option(arbText, { nil: null }),
      userImage: fc.boolean(),
      thinking: fc.integer({ min: 0, max: 3 }).map((x) => x === 0),
      assistantText: fc.option(arbText, { nil: null }),
      calls: fc.array(fc.record({ input: arbText, content: arbResultContent, isError: fc.boolean(), cache: fc.integer({ min: 0, max: 7 }).map((x) => x === 0) }), { maxLength: 4 }),
      trailingUserText: fc.option(arbText, { nil: null }),
      system: fc.constantFrom("none", "none", "none", "string", "blocks"),
    }),
    { minLength: 2, maxLength: 7 },
  ),
  endsWithAssistant: fc.boolean(),
});

/** Builds the request body object from a shape. */
function build(shape: Shape): Record<string, unknown> {
  const messages: { role: string; content: unknown }[] = [];
  let n = 0;
  let pending: { id: string; content: unknown; isError: boolean; cache: boolean }[] = [];
  let breakpoints = 0; // at most 4 cache_control markers (the API's limit, B05)
  shape.turns.forEach((t, k) => {
    const user: unknown[] = pending.map((c) => ({ type: "tool_result", tool_use_id: c.id, content: c.content, ...(c.isError ? { is_error: true } : {}), ...(c.cache ? cc : {}) }));
    if (t.userText !== null) user.push({ type: "text", text: t.userText });
    if (t.userImage) user.push(image);
    if (k > 0 && t.trailingUserText !== null && pending.length === 0 && user.length === 0) user.push({ type: "text", text: t.trailingUserText });
    if (user.length === 0) user.push({ type: "text", text: "go" });
    messages.push({ role: "user", content: user.length === 1 && (user[0] as { type: string }).type === "text" && k % 2 === 0 ? (user[0] as { text: string }).text : user });
    pending = [];
    if (t.system !== "none") {
      const note = `Reminder ${k}: stay on task.`;
      messages.push({ role: "system", content: t.system === "string" ? note : [{ type: "text", text: note }] });
    }
    const asst: unknown[] = [];
    if (t.thinking) asst.push({ type: "thinking", thinking: "reasoning " + k, signature: "sig" + k });
    if (t.assistantText !== null) asst.push({ type: "text", text: t.assistantText });
    for (const c of t.calls) {
      const id = `toolu_${String(n++).padStart(4, "0")}`;
      asst.push({ type: "tool_use", id, name: "tool", input: { arg: c.input } });
      const cache = c.cache && breakpoints < 4;
      if (cache) breakpoints++;
      pending.push({ id, content: c.content, isError: c.isError, cache });
    }
    if (asst.length === 0) asst.push({ type: "text", text: "ok" });
    messages.push({ role: "assistant", content: asst });
  });
  if (!shape.endsWithAssistant || pending.length > 0) {
    const user: unknown[] = pending.map((c) => ({ type: "tool_result", tool_use_id: c.id, content: c.content }));
    if (user.length === 0) user.push({ type: "text", text: "next" });
    messages.push({ role: "user", content: user });
  }
  const body: Record<string, unknown> = {};
  if (shape.model !== null) body.model = shape.model;
  body.max_tokens = 1024;
  if (shape.system === "string") body.system = "Be terse. «Toujours» répondre.";
  if (shape.system === "blocks") body.system = [{ type: "text", text: "Be terse." }];
  body.tools = [{ name: "tool", input_schema: { type: "object" } }];
  body.messages = messages;
  return body;
}

/** A random request: its body object and its bytes (compact or pretty-printed). */
export const arbRequest = arbShape.map((shape) => {
  const body = build(shape);
  return { body, bytes: new TextEncoder().encode(JSON.stringify(body, null, shape.indent)) };
});

const arbAction: fc.Arbitrary<PairAction> = fc.oneof(
  fc.constant<PairAction>({ kind: "keep" }),
  fc.constant<PairAction>({ kind: "drop_pair" }),
  fc.constant<PairAction>({ kind: "drop_result" }),
  fc.constant<PairAction>({ kind: "strip_media" }),
  fc.record({ head_bytes: fc.integer({ min: 0, max: 80 }), tail_bytes: fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }) }).map(
    (r): PairAction => (r.tail_bytes === undefined ? { kind: "truncate_result", head_bytes: r.head_bytes } : { kind: "truncate_result", head_bytes: r.head_bytes, tail_bytes: r.tail_bytes }),
  ),
);

/** A random request with a plan over its own tool ids (and two ids that are not pairs). */
export const arbCase = arbRequest.chain(({ body, bytes }) => {
  const ids = JSON.stringify(body).match(/toolu_\d{4}/g) ?? [];
  const pool = [...new Set(ids), "toolu_9998", "toolu_9999"];
  return fc
    .array(fc.tuple(fc.constantFrom(...pool), arbAction), { maxLength: pool.length + 2 })
    .map((entries): { body: Record<string, unknown>; bytes: Uint8Array; plan: EditPlan } => ({ body, bytes, plan: { actions: Object.fromEntries(entries) } }));
});
