import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { openaiChatAdapter as chat } from "../../src/providers/openai-chat/index";
import { ChatWireError } from "../../src/providers/openai-chat/wire";
import { scanJson } from "../../src/providers/shared/json-scan";
import { EMPTY_PLAN } from "../../src/core/plan/types";
import { hashText } from "../../src/core/hash";
import { apply, audit, enc, planAll } from "./openai-helpers";
import { CASES_PATH } from "../support/shared-dir";
import { newCoreCaches } from "../../src/core/caches";

type Msg = Record<string, unknown>;
const call = (id: string, name: string, args: string) => ({ id, type: "function", function: { name, arguments: args } });
const tool = (id: string, content: unknown) => ({ role: "tool", tool_call_id: id, content });
const body = (messages: Msg[]) => JSON.stringify({ model: "gpt-4o", messages, tools: [] });
/**
 * Two closing assistant turns, so that earlier pairs are outside the last assistant turn (which,
 * by src/core/view/types.ts, also holds the results answered just before the last assistant message).
 */
const TAIL: Msg[] = [
  { role: "user", content: "next" },
  { role: "assistant", content: "ok" },
  { role: "user", content: "more" },
  { role: "assistant", content: "fine" },
  { role: "user", content: "go on" },
];

const BASE: Msg[] = [
  { role: "system", content: "sys" },
  { role: "user", content: "u1" },
  { role: "assistant", content: null, tool_calls: [call("c1", "read", '{"p":"a"}'), call("c2", "read", '{"p":"b"}')] },
  tool("c1", "AAAA"),
  tool("c2", "BBBB"),
  { role: "assistant", content: "Let me patch.", tool_calls: [{ id: "c3", type: "custom", custom: { name: "apply_patch", input: "*** Begin" } }] },
  tool("c3", [
    { type: "text", text: "ok 😀 done" },
    { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
  ]),
  ...TAIL,
];

const without = (msgs: Msg[], drop: number[]) => msgs.filter((_, i) => !drop.includes(i));

describe("openai-chat read", () => {
  it("builds the neutral view: parallel and custom calls, parts content, turns, locks", () => {
    const { view } = chat.read(enc(body(BASE)), newCoreCaches());
    expect(view.provider).toBe("openai-chat");
    expect(view.model).toBe("gpt-4o");
    expect(view.turn_count).toBe(4);
    expect(view.messages.map((m) => [m.role, m.turn_index, m.prose_blocks, m.media_blocks])).toEqual([
      ["system", 0, 1, 0],
      ["user", 0, 1, 0],
      ["assistant", 0, 0, 0],
      ["tool", 1, 0, 0],
      ["tool", 1, 0, 0],
      ["assistant", 1, 1, 0],
      ["tool", 2, 0, 0],
      ["user", 2, 1, 0],
      ["assistant", 2, 1, 0],
      ["user", 3, 1, 0],
      ["assistant", 3, 1, 0],
      ["user", 4, 1, 0],
    ]);
    expect(view.messages[2]!.removable_with).toEqual(["c1", "c2"]);
    expect(view.messages[5]!.removable_with).toBeUndefined();
    expect(view.pairs.map((p) => [p.id, p.tool_name, p.input_text, p.call, p.result, p.turn_index, p.result_text, p.result_media_count, p.locked])).toEqual([
      ["c1", "read", '{"p":"a"}', { message_index: 2, block_index: 0 }, { message_index: 3, block_index: -1 }, 0, "AAAA", 0, null],
      ["c2", "read", '{"p":"b"}', { message_index: 2, block_index: 1 }, { message_index: 4, block_index: -1 }, 0, "BBBB", 0, null],
      ["c3", "apply_patch", "*** Begin", { message_index: 5, block_index: 0 }, { message_index: 6, block_index: -1 }, 1, "ok 😀 done", 1, null],
    ]);
    expect(view.pairs[0]!.result_bytes).toBe(6);
    expect(view.orphans).toEqual([]);
    expect(view.server_managed).toBe(null);
  });
  it("names the field of an unexpected shape", () => {
    expect(() => chat.read(enc('{"messages":{}}'), newCoreCaches())).toThrow(new ChatWireError("messages", "expected an array, got object"));
    expect(() => chat.read(enc('{"messages":[{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"f"}}]}]}'), newCoreCaches())).toThrow(
      "messages[0].tool_calls[0].function.arguments: expected a string, got nothing",
    );
    expect(() => chat.read(enc('{"messages":[{"role":"user","role":"user","content":"x"}]}'), newCoreCaches())).toThrow("messages[0]: duplicate keys");
  });
  it("pairs positionally: a reused id in a later turn is a second, locked pair; orphans are recorded and never edited", () => {
    const msgs: Msg[] = [
      { role: "user", content: "u" },
      tool("ghost", "no call"),
      { role: "assistant", content: null, tool_calls: [call("d", "f", "{}"), call("lost", "f", "{}")] },
      tool("d", "1"),
      { role: "assistant", content: null, tool_calls: [call("d", "f", "{}")] },
      tool("d", "2"),
      { role: "assistant", content: null, tool_calls: [call("z", "f", "{}"), call("z", "f", "{}")] },
      tool("z", "z"),
      { role: "assistant", content: null, tool_calls: [call("w", "f", "{}")] },
      tool("w", "3"),
      tool("w", "4"),
      ...TAIL,
    ];
    const plan = planAll(["ghost", "d", "d#2", "lost", "z", "w"], { kind: "drop_pair" });
    const a = apply(chat, body(msgs), plan);
    expect(a.parsed.view.pairs.map((p) => [p.id, p.call.message_index, p.result.message_index, p.locked])).toEqual([
      ["d", 2, 3, "reused_id"],
      ["d#2", 4, 5, "reused_id"],
      ["w", 8, 9, null],
    ]);
    expect(a.parsed.view.orphans).toEqual([
      { id: "ghost", kind: "result_without_call", position: { message_index: 1, block_index: -1 } },
      { id: "lost", kind: "call_without_result", position: { message_index: 2, block_index: 1 } },
      { id: "z", kind: "duplicate_id", position: { message_index: 6, block_index: 0 } },
      { id: "z", kind: "duplicate_id", position: { message_index: 6, block_index: 1 } },
      { id: "z", kind: "duplicate_id", position: { message_index: 7, block_index: -1 } },
      { id: "w", kind: "duplicate_id", position: { message_index: 10, block_index: -1 } },
    ]);
    expect(a.compiled.refused).toEqual({ ghost: "unknown_pair", lost: "unknown_pair", z: "unknown_pair", d: "reused_id", "d#2": "reused_id" });
    expect(a.text).toBe(body(without(msgs, [8, 9])));
  });
});

describe("openai-chat compile", () => {
  it("empty plan → identical bytes", () => {
    const a = apply(chat, body(BASE), EMPTY_PLAN);
    expect(a.compiled).toEqual({ deletions: [], refused: {} });
    expect(a.text).toBe(body(BASE));
  });
  it("parallel calls: dropping one removes its tool_calls element and tool message only", () => {
    const a = apply(chat, body(BASE), planAll(["c1"], { kind: "drop_pair" }));
    const want = without(BASE, [3]);
    want[2] = { role: "assistant", content: null, tool_calls: [call("c2", "read", '{"p":"b"}')] };
    expect(a.text).toBe(body(want));
    expect(a.compiled.refused).toEqual({});
    expect(audit(chat, enc(body(BASE)), a.out, planAll(["c1"], { kind: "drop_pair" }), "messages")).toEqual([]);
    const b = apply(chat, body(BASE), planAll(["c2"], { kind: "drop_pair" }));
    const want2 = without(BASE, [4]);
    want2[2] = { role: "assistant", content: null, tool_calls: [call("c1", "read", '{"p":"a"}')] };
    expect(b.text).toBe(body(want2));
  });
  it("an assistant message left with no content and no calls is removed", () => {
    const a = apply(chat, body(BASE), planAll(["c1", "c2"], { kind: "drop_pair" }));
    expect(a.text).toBe(body(without(BASE, [2, 3, 4])));
  });
  it("an assistant message with prose keeps it and loses the tool_calls member", () => {
    const a = apply(chat, body(BASE), planAll(["c3"], { kind: "drop_pair" }));
    const want = without(BASE, [6]);
    want[5] = { role: "assistant", content: "Let me patch." };
    expect(a.text).toBe(body(want));
  });
  it("keeps the last call of an assistant message that would become invalid (content null + refusal)", () => {
    const msgs: Msg[] = [{ role: "user", content: "u" }, { role: "assistant", content: null, refusal: "r", tool_calls: [call("x", "f", "{}"), call("y", "f", "{}")] }, tool("x", "1"), tool("y", "2"), ...TAIL];
    const a = apply(chat, body(msgs), planAll(["x", "y"], { kind: "drop_pair" }));
    expect(a.compiled.refused).toEqual({ y: "assistant_would_be_empty" });
    const want = without(msgs, [2]);
    want[1] = { role: "assistant", content: null, refusal: "r", tool_calls: [call("y", "f", "{}")] };
    expect(a.text).toBe(body(want));
  });
  it("removes a Codex-style assistant (reasoning_content, content null) with its only call", () => {
    const msgs: Msg[] = [{ role: "user", content: "u" }, { role: "assistant", content: null, tool_calls: [call("x", "shell", '{"command":"ls"}')], reasoning_content: "**Inspecting**" }, tool("x", "a\nb"), ...TAIL];
    const a = apply(chat, body(msgs), planAll(["x"], { kind: "drop_pair" }));
    expect(a.parsed.view.messages[1]!.removable_with).toEqual(["x"]);
    expect(a.text).toBe(body(without(msgs, [1, 2])));
  });
  it("drop_result keeps an exact 64-byte head; string vs parts content", () => {
    const long = "line\n".repeat(100);
    const msgs: Msg[] = [{ role: "user", content: "u" }, { role: "assistant", content: null, tool_calls: [call("x", "f", "{}"), call("y", "f", "{}")] }, tool("x", long), tool("y", [{ type: "text", text: long }, { type: "text", text: "second" }]), ...TAIL];
    const a = apply(chat, body(msgs), planAll(["x", "y"], { kind: "drop_result" }));
    const want = structuredClone(msgs);
    // 64 bytes of JSON literal = 10 × "line\n" (6 bytes each as written: "line\\n") + "line".
    const head = "line\n".repeat(10) + "line";
    expect(JSON.stringify(head).length - 2).toBe(64);
    want[2] = tool("x", head);
    want[3] = tool("y", [{ type: "text", text: head }]);
    expect(a.text).toBe(body(want));
  });
  it("truncate_result never splits an emoji or an escape", () => {
    const msgs: Msg[] = [{ role: "user", content: "u" }, { role: "assistant", content: null, tool_calls: [call("x", "f", "{}"), call("y", "f", "{}")] }, tool("x", "ab😀cdef"), tool("y", 'q"r\nstuvw'), ...TAIL];
    // x: head 4 lands inside 😀 (bytes 2..5) → "ab"; tail 2 → "ef".
    // y: raw literal q\"r\nstuvw; head 2 lands inside \" → "q"; head 5 lands inside \n → q\"r.
    const a = apply(chat, body(msgs), { actions: { x: { kind: "truncate_result", head_bytes: 4, tail_bytes: 2 }, y: { kind: "truncate_result", head_bytes: 5 } } });
    const want = structuredClone(msgs);
    want[2] = tool("x", "abef");
    want[3] = tool("y", 'q"r');
    expect(a.text).toBe(body(want));
    const b = apply(chat, body(msgs), { actions: { y: { kind: "truncate_result", head_bytes: 2 } } });
    want[2] = tool("x", "ab😀cdef");
    want[3] = tool("y", "q");
    expect(b.text).toBe(body(want));
  });
  it("strip_media removes image parts from tool content; refused on string content", () => {
    const a = apply(chat, body(BASE), { actions: { c3: { kind: "strip_media" }, c1: { kind: "strip_media" } } });
    const want = structuredClone(BASE);
    want[6] = tool("c3", [{ type: "text", text: "ok 😀 done" }]);
    expect(a.text).toBe(body(want));
    expect(a.compiled.refused).toEqual({ c1: "no_media" });
  });
  it("refuses pairs in the last assistant turn; a result separated from its call is an orphan", () => {
    const msgs: Msg[] = [
      { role: "user", content: "u" },
      { role: "assistant", content: null, tool_calls: [call("far", "f", "{}")] },
      { role: "user", content: "interjection" },
      tool("far", "1"),
      ...TAIL,
      { role: "assistant", content: null, tool_calls: [call("late", "f", "{}")] },
      tool("late", "2"),
    ];
    const a = apply(chat, body(msgs), planAll(["far", "late"], { kind: "drop_pair" }));
    expect(a.parsed.view.pairs.map((p) => [p.id, p.locked])).toEqual([["late", "last_assistant_turn"]]);
    expect(a.parsed.view.orphans.map((o) => [o.id, o.kind])).toEqual([
      ["far", "call_without_result"],
      ["far", "result_without_call"],
    ]);
    expect(a.compiled).toEqual({ deletions: [], refused: { far: "unknown_pair", late: "last_assistant_turn" } });
  });
  it("legacy function_call pairs with the next function message of the same name; its id derives from name + arguments", () => {
    const msgs: Msg[] = [
      { role: "user", content: "u" },
      { role: "assistant", content: null, function_call: { name: "f", arguments: "{}" } },
      { role: "function", name: "f", content: "result" },
      { role: "assistant", content: null, function_call: { name: "g", arguments: "{}" } },
      { role: "function", name: "other", content: "mismatch" },
      ...TAIL,
    ];
    const F = "function_call:c3c15b8459d7dbb5"; // hashText("f\u0000{}")
    const G = "function_call:e8957f1fc3c6f1c8"; // hashText("g\u0000{}")
    expect([F, G]).toEqual([`function_call:${hashText("f\u0000{}")}`, `function_call:${hashText("g\u0000{}")}`]);
    const a = apply(chat, body(msgs), planAll([F, G], { kind: "drop_pair" }));
    expect(a.parsed.view.pairs.map((p) => [p.id, p.tool_name, p.call, p.result])).toEqual([[F, "f", { message_index: 1, block_index: -1 }, { message_index: 2, block_index: -1 }]]);
    expect(a.parsed.view.orphans.map((o) => [o.id, o.kind])).toEqual([
      [G, "result_without_call"],
      [G, "call_without_result"],
    ]);
    expect(a.text).toBe(body(without(msgs, [1, 2])));
    expect(a.compiled.refused).toEqual({ [G]: "unknown_pair" });
  });
});

describe("openai-chat checkRules", () => {
  const rules = (msgs: Msg[]) => {
    const b = enc(body(msgs));
    return chat.checkRules(b, scanJson(b), newCoreCaches());
  };
  it("accepts a valid history", () => {
    expect(rules(BASE)).toEqual([]);
  });
  it("rejects hand-mutated histories", () => {
    expect(rules(without(BASE, [2]))).toEqual([
      'messages[2]: tool message for "c1" does not answer the preceding assistant tool_calls',
      'messages[3]: tool message for "c2" does not answer the preceding assistant tool_calls',
    ]);
    expect(rules(without(BASE, [3]))).toEqual(["messages[2].tool_calls: no tool message answers c1"]);
    const moved = [...BASE];
    [moved[4], moved[5]] = [moved[5]!, moved[4]!];
    expect(rules(moved)).toEqual([
      "messages[2].tool_calls: no tool message answers c2",
      'messages[5]: tool message for "c2" does not answer the preceding assistant tool_calls',
    ]);
    const empty = structuredClone(BASE);
    empty[2] = { role: "assistant", content: null, tool_calls: [] };
    expect(rules(empty.slice(0, 3))).toEqual(["messages[2].tool_calls: empty or not an array", "messages[2].content: null without tool_calls"]);
    expect(rules([{ role: "user", content: [] }])).toEqual(["messages[0].content: empty array"]);
    expect(rules([{ role: "user", content: "u" }, { role: "function", name: "f", content: "x" }])).toEqual(["messages[1]: function message does not follow a function_call of the same name"]);
    expect(rules([{ role: "assistant", content: null, tool_calls: [call("a", "f", "{}"), call("a", "f", "{}")] }, tool("a", "x")])).toEqual(["messages[0].tool_calls[1].id: missing or duplicate"]);
  });
});

describe("B06 openai_chat.orphan_tool_message_after_window_trim", () => {
  const B06 = JSON.parse(readFileSync(`${CASES_PATH}/B06.json`, "utf8")) as { request: { messages: Msg[] }; provider_error_signature: string };
  it("the naive window trim is rejected by checkRules (the provider's error)", () => {
    const trimmed = { ...B06.request, messages: [B06.request.messages[0]!, ...B06.request.messages.slice(3)] };
    const b = enc(JSON.stringify(trimmed));
    expect(chat.checkRules(b, scanJson(b), newCoreCaches())).toEqual(['messages[1]: tool message for "call_aaaaaaaaaaaaaaaaaaaaaaaa" does not answer the preceding assistant tool_calls']);
    expect(B06.provider_error_signature).toContain("must be a response to a preceeding message with 'tool_calls'");
  });
  it("on the case itself every action keeps the rule (the pair is in the last turns: refused)", () => {
    for (const kind of ["drop_pair", "drop_result", "strip_media"] as const) {
      const a = apply(chat, JSON.stringify(B06.request), planAll(["call_aaaaaaaaaaaaaaaaaaaaaaaa"], { kind }));
      expect(a.text).toBe(JSON.stringify(B06.request));
      expect(a.compiled.refused).toEqual({ call_aaaaaaaaaaaaaaaaaaaaaaaa: "last_assistant_turn" });
    }
  });
  it("once older, the pair goes whole: messages[2] and messages[3] together; system stays first and unchanged", () => {
    const longer = { ...B06.request, messages: [...B06.request.messages, { role: "assistant", content: "She asked for a refund." }, { role: "user", content: "Thanks." }] };
    const a = apply(chat, JSON.stringify(longer), planAll(["call_aaaaaaaaaaaaaaaaaaaaaaaa"], { kind: "drop_pair" }));
    expect(a.text).toBe(JSON.stringify({ ...longer, messages: without(longer.messages, [2, 3]) }));
    expect(chat.checkRules(a.out, scanJson(a.out), newCoreCaches())).toEqual([]);
    expect(a.parsed.view.messages[0]!.identity_hash).toBe(chat.read(a.out, newCoreCaches()).view.messages[0]!.identity_hash);
  });
});
