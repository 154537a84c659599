/**
 * Property tests (fast-check): random valid Chat and Responses conversations × random plans →
 * the edited body passes the audit (JSON, provider rules, subsequence, identities, pairs,
 * reasoning adjacency); hand-mutated bodies (a dropped result, a moved result, a changed prose
 * character, a dropped reasoning item) are rejected.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { openaiChatAdapter as chat } from "../../src/providers/openai-chat/index";
import { openaiResponsesAdapter as resp } from "../../src/providers/openai-responses/index";
import { scanJson } from "../../src/providers/shared/json-scan";
import type { EditPlan, PairAction } from "../../src/core/plan/types";
import { apply, audit, enc } from "./openai-helpers";
import { newCoreCaches } from "../../src/core/caches";

type Obj = Record<string, unknown>;
type Infer<A> = A extends fc.Arbitrary<infer T> ? T : never;

const text = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 400 }),
  fc.constantFrom("😀 emoji 👨‍👩‍👧", 'a"b\\c\nd\te', "é\u2028\u0000x", "line\n".repeat(60), ""),
);
const nonEmpty = text.filter((t) => t.length > 0);
const IMAGE = "data:image/png;base64,iVBORw0KGgo=";

const action: fc.Arbitrary<PairAction> = fc.oneof(
  { arbitrary: fc.constant({ kind: "keep" as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: "drop_pair" as const }), weight: 4 },
  { arbitrary: fc.constant({ kind: "drop_result" as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: "strip_media" as const }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("truncate_result" as const), head_bytes: fc.nat(500) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("truncate_result" as const), head_bytes: fc.nat(500), tail_bytes: fc.nat(200) }), weight: 1 },
);
/** Mostly null: runs without commentary, so whole reasoning groups can go. */
const rarely = <T,>(a: fc.Arbitrary<T>) => fc.oneof({ arbitrary: fc.constant(null), weight: 3 }, { arbitrary: a, weight: 1 });
/** A plan from a list of actions, assigned to the pairs in order (shorter lists leave the rest out). */
const planFor = (ids: string[], actions: PairAction[]): EditPlan => ({ actions: Object.fromEntries(ids.flatMap((id, i) => (actions[i] ? [[id, actions[i]!]] : []))) });

// ---------- Chat ----------
const chatParts = fc.array(fc.oneof(text.map((t) => ({ type: "text", text: t })), fc.constant({ type: "image_url", image_url: { url: IMAGE } })), { minLength: 1, maxLength: 3 });
const chatBlock = fc.oneof(
  fc.record({ kind: fc.constant("user" as const), content: fc.oneof(nonEmpty, chatParts) }),
  fc.record({ kind: fc.constant("say" as const), content: fc.oneof(nonEmpty, chatParts) }),
  fc.record({
    kind: fc.constant("calls" as const),
    calls: fc.array(fc.record({ custom: fc.boolean(), args: text, result: fc.oneof(text, chatParts) }), { minLength: 1, maxLength: 3 }),
    content: fc.constantFrom(null, "", undefined, "Let me check."),
    reasoning: fc.option(nonEmpty),
    refusal: fc.boolean(),
    reuse: fc.boolean(),
    order: fc.array(fc.nat(), { minLength: 3, maxLength: 3 }),
  }),
  fc.record({ kind: fc.constant("legacy" as const), args: text, result: text }),
);

function buildChat(system: string | null, blocks: Infer<typeof chatBlock>[]): Obj[] {
  const msgs: Obj[] = system === null ? [] : [{ role: "system", content: system }];
  const used: string[] = [];
  let n = 0;
  for (const b of blocks) {
    if (b.kind === "user") msgs.push({ role: "user", content: b.content });
    else if (b.kind === "say") msgs.push({ role: "assistant", content: b.content });
    else if (b.kind === "legacy") {
      msgs.push({ role: "assistant", content: null, function_call: { name: "legacy_fn", arguments: b.args } });
      msgs.push({ role: "function", name: "legacy_fn", content: b.result });
    } else {
      const ids = b.calls.map((_, k) => (b.reuse && k === 0 && used.length > 0 ? used[0]! : `call_${n++}`));
      used.push(...ids);
      const a: Obj = { role: "assistant" };
      if (b.content !== undefined) a.content = b.content;
      if (b.refusal) a.refusal = "no";
      a.tool_calls = b.calls.map((c, k) => (c.custom ? { id: ids[k], type: "custom", custom: { name: "apply_patch", input: c.args } } : { id: ids[k], type: "function", function: { name: "shell", arguments: c.args } }));
      if (b.reasoning !== null) a.reasoning_content = b.reasoning;
      msgs.push(a);
      const order = b.calls.map((_, k) => k).sort((x, y) => (b.order[x]! % 7) - (b.order[y]! % 7) || x - y);
      for (const k of order) msgs.push({ role: "tool", tool_call_id: ids[k], content: b.calls[k]!.result });
    }
  }
  msgs.push({ role: "user", content: "continue" });
  return msgs;
}

const chatConversation = fc.record({ system: fc.option(nonEmpty), blocks: fc.array(chatBlock, { minLength: 1, maxLength: 16 }), indent: fc.constantFrom(0, 1, 2) });
const chatBody = (c: Infer<typeof chatConversation>, msgs = buildChat(c.system, c.blocks)) => JSON.stringify({ model: "gpt-4o", messages: msgs, tools: [{ type: "function", function: { name: "shell" } }] }, null, c.indent);

describe("openai-chat properties", () => {
  it("random conversations × random plans keep every property", () => {
    let edited = 0;
    let removedMessages = 0;
    fc.assert(
      fc.property(chatConversation, fc.array(action, { minLength: 10, maxLength: 40 }), (c, actions) => {
        const bytes = enc(chatBody(c));
        const plan = planFor(chat.read(bytes, newCoreCaches()).view.pairs.map((p) => p.id), actions);
        const a = apply(chat, bytes, plan);
        expect(audit(chat, bytes, a.out, plan, "messages")).toEqual([]);
        if (a.compiled.deletions.length > 0) edited++;
        if (chat.read(a.out, newCoreCaches()).view.messages.length < a.parsed.view.messages.length) removedMessages++;
      }),
      { numRuns: 400, seed: 20260101 },
    );
    // The generator must reach the edits (a property over untouched bodies proves nothing).
    expect(edited).toBeGreaterThan(80);
    expect(removedMessages).toBeGreaterThan(40);
  });
  it("a dropped or moved tool message, or a changed prose character, is rejected", () => {
    fc.assert(
      fc.property(chatConversation, fc.nat(), (c, pick) => {
        const msgs = buildChat(c.system, c.blocks);
        const rules = (m: Obj[]) => {
          const b = enc(chatBody(c, m));
          return chat.checkRules(b, scanJson(b), newCoreCaches());
        };
        expect(rules(msgs)).toEqual([]);
        const tools = msgs.flatMap((m, i) => (m.role === "tool" ? [i] : []));
        if (tools.length > 0) {
          const t = tools[pick % tools.length]!;
          expect(rules(msgs.filter((_, i) => i !== t)).length).toBeGreaterThan(0);
          expect(rules([...msgs.filter((_, i) => i !== t), msgs[t]!]).length).toBeGreaterThan(0);
        }
        const prose = msgs.flatMap((m, i) => (m.role === "user" && typeof m.content === "string" ? [i] : []));
        const u = prose[pick % prose.length]!;
        const changed = msgs.map((m, i) => (i === u ? { ...m, content: `${m.content as string}!` } : m));
        const before = chat.read(enc(chatBody(c, msgs)), newCoreCaches()).view.messages[u]!.identity_hash;
        expect(chat.read(enc(chatBody(c, changed)), newCoreCaches()).view.messages[u]!.identity_hash).not.toBe(before);
      }),
      { numRuns: 200 },
    );
  });
});

// ---------- Responses ----------
const respParts = fc.array(fc.oneof(text.map((t) => ({ type: "input_text", text: t })), fc.constant({ type: "input_image", image_url: IMAGE })), { minLength: 1, maxLength: 3 });
const respBlock = fc.oneof(
  fc.record({ kind: fc.constant("user" as const), easy: fc.boolean(), content: fc.oneof(nonEmpty, respParts) }),
  fc.record({
    kind: fc.constant("run" as const),
    reasoning: fc.nat(2),
    pre: rarely(nonEmpty),
    calls: fc.array(fc.record({ custom: fc.boolean(), args: text, output: fc.oneof(text, respParts) }), { maxLength: 3 }),
    post: rarely(nonEmpty),
    reference: fc.constantFrom(false, false, false, true),
  }),
);

function buildResponses(blocks: Infer<typeof respBlock>[]): Obj[] {
  const items: Obj[] = [];
  let n = 0;
  const say = (t: string) => ({ type: "message", role: "assistant", content: [{ type: "output_text", text: t }] });
  for (const b of blocks) {
    if (b.kind === "user") {
      items.push(b.easy ? { role: "user", content: b.content } : { type: "message", role: "user", content: typeof b.content === "string" ? [{ type: "input_text", text: b.content }] : b.content });
      continue;
    }
    for (let r = 0; r < b.reasoning; r++) items.push({ type: "reasoning", id: `rs_${n++}`, summary: [], encrypted_content: `gAAAA${"x".repeat(n % 50)}==` });
    if (b.pre !== null) items.push(say(b.pre));
    const ids = b.calls.map(() => `call_${n++}`);
    b.calls.forEach((c, k) => items.push(c.custom ? { type: "custom_tool_call", call_id: ids[k], name: "apply_patch", input: c.args } : { type: "function_call", call_id: ids[k], name: "shell", arguments: c.args }));
    if (b.reference) items.push({ type: "item_reference", id: `msg_${n++}` });
    if (b.post !== null || (b.pre === null && b.calls.length === 0 && !b.reference)) items.push(say(b.post ?? "ok"));
    b.calls.forEach((c, k) => items.push({ type: c.custom ? "custom_tool_call_output" : "function_call_output", call_id: ids[k], output: c.output }));
  }
  items.push({ role: "user", content: "continue" });
  return items;
}

const respConversation = fc.record({ blocks: fc.array(respBlock, { minLength: 1, maxLength: 16 }), indent: fc.constantFrom(0, 2) });
const respBody = (c: Infer<typeof respConversation>, items = buildResponses(c.blocks)) => JSON.stringify({ model: "gpt-5", instructions: "be brief", input: items, store: false }, null, c.indent);

describe("openai-responses properties", () => {
  it("random conversations × random plans keep every property (reasoning stays with its calls)", () => {
    let edited = 0;
    let reasoningDropped = 0;
    let linkRefused = 0;
    fc.assert(
      fc.property(respConversation, fc.array(action, { minLength: 10, maxLength: 40 }), (c, actions) => {
        const bytes = enc(respBody(c));
        const plan = planFor(resp.read(bytes, newCoreCaches()).view.pairs.map((p) => p.id), actions);
        const a = apply(resp, bytes, plan);
        expect(audit(resp, bytes, a.out, plan, "input")).toEqual([]);
        if (a.compiled.deletions.length > 0) edited++;
        const count = (v: ReturnType<typeof resp.read>["view"]) => v.messages.filter((m) => m.role === "reasoning").length;
        if (count(resp.read(a.out, newCoreCaches()).view) < count(a.parsed.view)) reasoningDropped++;
        if (Object.values(a.compiled.refused).includes("reasoning_link")) linkRefused++;
      }),
      { numRuns: 400, seed: 20260101 },
    );
    // The generator must reach the edits; fixed seed, so these counts are reproducible.
    expect(edited).toBeGreaterThan(80);
    expect(reasoningDropped).toBeGreaterThan(20);
    expect(linkRefused).toBeGreaterThan(20);
  });
  it("a dropped output or a dropped reasoning item before a kept call is rejected", () => {
    fc.assert(
      fc.property(respConversation, fc.nat(), (c, pick) => {
        const items = buildResponses(c.blocks);
        const bytes = enc(respBody(c, items));
        expect(resp.checkRules(bytes, scanJson(bytes), newCoreCaches())).toEqual([]);
        const outputs = items.flatMap((it, i) => (String(it.type).endsWith("_output") ? [i] : []));
        if (outputs.length > 0) {
          const b = enc(respBody(c, items.filter((_, i) => i !== outputs[pick % outputs.length])));
          expect(resp.checkRules(b, scanJson(b), newCoreCaches()).length).toBeGreaterThan(0);
        }
        const linked = items.flatMap((it, i) => (it.type === "reasoning" && String(items[i + 1]?.type).endsWith("call") ? [i] : []));
        if (linked.length > 0) {
          const b = enc(respBody(c, items.filter((_, i) => i !== linked[pick % linked.length])));
          expect(audit(resp, bytes, b, { actions: {} }, "input")).toContain(`input[${linked[pick % linked.length]! + 1}] kept without the reasoning item before it`);
        }
      }),
      { numRuns: 200 },
    );
  });
});
