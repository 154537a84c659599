/**
 * Valid conversations for the three chat routes, from fast-check generators (pure; runs in
 * Node and workerd). Anthropic reuses ../anthropic-arbitrary.ts; OpenAI Chat and Responses are
 * built here with the same shape rules the providers document: every tool call is answered
 * (Chat: `tool` messages right after the assistant message with `tool_calls`; Responses: a
 * `function_call_output` / `custom_tool_call_output` per `call_id`), reasoning items precede the
 * calls they belong to, and the history ends with a user message. `inflate` repeats tool-result
 * text so the requests are large enough for the tiers to act under aggressive settings.
 */
import fc from "fast-check";
import type { Provider } from "../../../src/core/view/types";
import { arbRequest, arbText } from "../anthropic-arbitrary";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

const call = fc.record({ custom: fc.boolean(), args: arbText, result: arbText, error: fc.boolean() });

const chatTurn = fc.oneof(
  fc.record({ kind: fc.constant("say" as const), text: arbText }),
  fc.record({ kind: fc.constant("calls" as const), calls: fc.array(call, { minLength: 1, maxLength: 3 }), content: fc.constantFrom(null, "Let me check.", undefined) }),
);

/** OpenAI Chat Completions request bodies. */
export const arbChatBody = fc.record({ system: fc.option(arbText), first: arbText, turns: fc.array(chatTurn, { minLength: 1, maxLength: 10 }) }).map(({ system, first, turns }) => {
  const messages: Obj[] = system === null ? [] : [{ role: "system", content: system }];
  messages.push({ role: "user", content: first });
  let n = 0;
  for (const t of turns) {
    if (t.kind === "say") {
      messages.push({ role: "assistant", content: t.text }, { role: "user", content: "go on" });
      continue;
    }
    const ids = t.calls.map(() => `call_${n++}`);
    const a: Obj = { role: "assistant" };
    if (t.content !== undefined) a.content = t.content;
    a.tool_calls = t.calls.map((c, k): Obj => (c.custom ? { id: ids[k]!, type: "custom", custom: { name: "apply_patch", input: c.args } } : { id: ids[k]!, type: "function", function: { name: "shell", arguments: JSON.stringify({ cmd: c.args }) } }));
    messages.push(a);
    t.calls.forEach((c, k) => messages.push({ role: "tool", tool_call_id: ids[k]!, content: c.result }));
  }
  if (messages[messages.length - 1]!.role !== "user") messages.push({ role: "user", content: "continue" });
  return { model: "gpt-4o", messages, tools: [{ type: "function", function: { name: "shell", parameters: { type: "object" } } }] } as Obj;
});

const respTurn = fc.record({ reasoning: fc.boolean(), say: fc.option(arbText), calls: fc.array(call, { maxLength: 3 }) });

/** OpenAI Responses request bodies (stateless: `store: false`, the whole history in `input`). */
export const arbResponsesBody = fc.record({ instructions: fc.option(arbText), first: arbText, turns: fc.array(respTurn, { minLength: 1, maxLength: 8 }) }).map(({ instructions, first, turns }) => {
  const input: Obj[] = [{ type: "message", role: "user", content: first }];
  let n = 0;
  for (const t of turns) {
    // A reasoning item is always followed by the output it reasoned about (a call or a message).
    if (t.reasoning && (t.calls.length > 0 || t.say !== null)) input.push({ type: "reasoning", id: `rs_${n++}`, summary: [], encrypted_content: "gAAAAB" + "x".repeat(40) });
    for (const c of t.calls) {
      const id = `call_${n++}`;
      if (c.custom) input.push({ type: "custom_tool_call", call_id: id, name: "apply_patch", input: c.args });
      else input.push({ type: "function_call", call_id: id, name: "shell", arguments: JSON.stringify({ cmd: c.args }) });
    }
    for (const [k, c] of t.calls.entries()) {
      const id = `call_${n - t.calls.length + k}`;
      input.push({ type: c.custom ? "custom_tool_call_output" : "function_call_output", call_id: id, output: c.result });
    }
    if (t.say !== null) input.push({ type: "message", role: "assistant", content: [{ type: "output_text", text: t.say }] });
    input.push({ type: "message", role: "user", content: [{ type: "input_text", text: "go on" }] });
  }
  const body: Obj = { model: "gpt-5.1-codex-max" };
  if (instructions !== null) body.instructions = instructions;
  body.input = input;
  body.store = false;
  return body;
});

/** Anthropic Messages request bodies. */
export const arbAnthropicBody = arbRequest.map(({ body }) => body as Obj);

/** Repeats every tool-result text (string values only) `times` times, so the tiers have something to cut. */
export function inflate(body: Obj, provider: Provider, times: number): Obj {
  const grow = (s: string) => `${s}\n`.repeat(times);
  const walk = (v: Json): void => {
    if (Array.isArray(v)) { v.forEach(walk); return; }
    if (v === null || typeof v !== "object") return;
    if (provider === "anthropic" && v.type === "tool_result" && typeof v.content === "string") v.content = grow(v.content);
    if (provider === "openai-chat" && v.role === "tool" && typeof v.content === "string") v.content = grow(v.content);
    if (provider === "openai-responses" && typeof v.type === "string" && v.type.endsWith("_output") && typeof v.output === "string") v.output = grow(v.output);
    Object.values(v).forEach(walk);
  };
  walk(body);
  return body;
}

/** The arbitrary for `provider`. */
export const ARB_BODY: Record<Provider, fc.Arbitrary<Obj>> = {
  anthropic: arbAnthropicBody,
  "openai-chat": arbChatBody,
  "openai-responses": arbResponsesBody,
};

/** `count` valid bodies for `provider` from `seed` (deterministic). */
export function sampleValid(provider: Provider, seed: number, count: number): Obj[] {
  return fc.sample(ARB_BODY[provider], { seed, numRuns: count });
}
