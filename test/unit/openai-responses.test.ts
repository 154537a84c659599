import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { openaiResponsesAdapter as resp } from "../../src/providers/openai-responses/index";
import { ResponsesWireError } from "../../src/providers/openai-responses/wire";
import { scanJson } from "../../src/providers/shared/json-scan";
import { EMPTY_PLAN } from "../../src/core/plan/types";
import { apply, audit, enc, planAll } from "./openai-helpers";
import { CASES_PATH } from "../support/shared-dir";
import { newCoreCaches } from "../../src/core/caches";

type Item = Record<string, unknown>;
const user = (text: string): Item => ({ type: "message", role: "user", content: [{ type: "input_text", text }] });
const said = (text: string): Item => ({ type: "message", role: "assistant", content: [{ type: "output_text", text }] });
const rs = (id: string): Item => ({ type: "reasoning", id, summary: [], encrypted_content: `gAAAA${id}==` });
const fc = (id: string, args = "{}"): Item => ({ type: "function_call", call_id: id, name: "shell", arguments: args });
const fo = (id: string, output: unknown): Item => ({ type: "function_call_output", call_id: id, output });
const body = (input: Item[] | string, extra: Item = {}) => JSON.stringify({ model: "gpt-5.1-codex-max", instructions: "be brief", input, tools: [], ...extra });
const without = (items: Item[], drop: number[]) => items.filter((_, i) => !drop.includes(i));

const BASE: Item[] = [
  user("u1"), // 0
  rs("rs_1"), // 1
  fc("f1"), // 2
  fo("f1", "AAAA"), // 3
  { type: "custom_tool_call", status: "completed", call_id: "c2", name: "apply_patch", input: "*** Begin Patch" }, // 4
  { type: "custom_tool_call_output", call_id: "c2", output: "Success" }, // 5
  { role: "user", content: "u2" }, // 6 (EasyInputMessage: no type)
  rs("rs_3"), // 7
  fc("f3a"), // 8
  fc("f3b"), // 9
  fo("f3a", "a"), // 10
  fo("f3b", "b"), // 11
  rs("rs_4"), // 12
  said("Done."), // 13
  user("u3"), // 14
  rs("rs_5"), // 15
  fc("f5"), // 16
  fo("f5", [
    { type: "input_text", text: "ab😀cd\nef" },
    { type: "input_image", image_url: "data:image/png;base64,AAAA" },
  ]), // 17
  said("ok"), // 18
  user("more"), // 19
  said("fine"), // 20
  user("go"), // 21
];

describe("openai-responses read", () => {
  it("builds the view: runs as turns, reasoning bindings, custom calls, easy messages", () => {
    const { view } = resp.read(enc(body(BASE)), newCoreCaches());
    expect(view.provider).toBe("openai-responses");
    expect(view.turn_count).toBe(7);
    expect(view.messages.map((m) => [m.role, m.turn_index, m.removable_with ?? null])).toEqual([
      ["user", 0, null],
      ["reasoning", 0, ["f1"]],
      ["function_call", 0, null],
      ["function_call_output", 1, null],
      ["custom_tool_call", 1, null],
      ["custom_tool_call_output", 2, null],
      ["user", 2, null],
      ["reasoning", 2, ["f3a", "f3b"]],
      ["function_call", 2, null],
      ["function_call", 2, null],
      ["function_call_output", 3, null],
      ["function_call_output", 3, null],
      ["reasoning", 3, null],
      ["assistant", 3, null],
      ["user", 4, null],
      ["reasoning", 4, ["f5"]],
      ["function_call", 4, null],
      ["function_call_output", 5, null],
      ["assistant", 5, null],
      ["user", 6, null],
      ["assistant", 6, null],
      ["user", 7, null],
    ]);
    expect(view.pairs.map((p) => [p.id, p.tool_name, p.input_text, p.call.message_index, p.result.message_index, p.turn_index, p.result_text, p.result_media_count, p.locked])).toEqual([
      ["f1", "shell", "{}", 2, 3, 0, "AAAA", 0, null],
      ["c2", "apply_patch", "*** Begin Patch", 4, 5, 1, "Success", 0, null],
      ["f3a", "shell", "{}", 8, 10, 2, "a", 0, null],
      ["f3b", "shell", "{}", 9, 11, 2, "b", 0, null],
      ["f5", "shell", "{}", 16, 17, 4, "ab😀cd\nef", 1, null],
    ]);
    expect(view.orphans).toEqual([]);
    expect(view.server_managed).toBe(null);
  });
  it("reads string input as one user message with nothing to edit", () => {
    const a = apply(resp, body("hello"), planAll(["x"], { kind: "drop_pair" }));
    expect(a.parsed.view.messages.map((m) => [m.role, m.prose_blocks])).toEqual([["user", 1]]);
    expect(a.compiled).toEqual({ deletions: [], refused: { x: "unknown_pair" } });
  });
  it("treats an item with only an id as an item_reference; a call behind a reference is an orphan output", () => {
    const items = [user("u"), { id: "fc_stored" }, fo("stored", "x"), ...BASE.slice(18)];
    const { view } = resp.read(enc(body(items)), newCoreCaches());
    expect(view.messages.map((m) => m.role)).toEqual(["user", "item_reference", "function_call_output", "assistant", "user", "assistant", "user"]);
    expect(view.orphans).toEqual([{ id: "stored", kind: "result_without_call", position: { message_index: 2, block_index: -1 } }]);
  });
  it.each([
    [{ previous_response_id: "resp_1" }, [], "previous_response_id"],
    [{ conversation: "conv_1" }, [], "conversation"],
    [{ context_management: [{ type: "compaction", compact_threshold: 200000 }] }, [], "context_management"],
    [{}, [{ type: "compaction", encrypted_content: "x" }], "compaction"],
    [{ context_management: "auto" }, [], "context_management"],
  ])("server-managed state %j %j → nothing edited", (extra, items, reason) => {
    const a = apply(resp, body([...(items as Item[]), ...BASE], extra), planAll(["f1", "c2"], { kind: "drop_pair" }));
    expect(a.parsed.view.server_managed).toBe(reason);
    expect(a.compiled).toEqual({ deletions: [], refused: { f1: "server_managed", c2: "server_managed" } });
  });
  it.each([[{ context_management: [] }], [{ context_management: null }]])("%j asks for no server-side compaction: pairs stay editable", (extra) => {
    const a = apply(resp, body(BASE, extra), planAll(["f1"], { kind: "drop_pair" }));
    expect(a.parsed.view.server_managed).toBeNull();
    expect(a.compiled.refused).toEqual({});
  });
  it("names the field of an unexpected shape", () => {
    expect(() => resp.read(enc('{"input":5}'), newCoreCaches())).toThrow(new ResponsesWireError("input", "expected a string or an array, got number"));
    expect(() => resp.read(enc('{"input":[{"type":"function_call","call_id":"a","name":"f"}]}'), newCoreCaches())).toThrow("input[0].arguments: expected a string, got nothing");
    expect(() => resp.read(enc('{"input":[{"content":"x"}]}'), newCoreCaches())).toThrow("input[0].type: missing");
  });
});

describe("openai-responses compile", () => {
  const run = (plan: Parameters<typeof apply>[2]) => {
    const a = apply(resp, body(BASE), plan);
    expect(audit(resp, enc(body(BASE)), a.out, plan, "input")).toEqual([]);
    return a;
  };
  it("empty plan → identical bytes", () => {
    expect(run(EMPTY_PLAN).text).toBe(body(BASE));
  });
  it("a call with its own reasoning item: reasoning, call and output go together", () => {
    expect(run(planAll(["f1"], { kind: "drop_pair" })).text).toBe(body(without(BASE, [1, 2, 3])));
  });
  it("a custom tool call without reasoning: call and output go", () => {
    expect(run(planAll(["c2"], { kind: "drop_pair" })).text).toBe(body(without(BASE, [4, 5])));
  });
  it("parallel calls after one reasoning item: a later call may go alone", () => {
    const a = run(planAll(["f3b"], { kind: "drop_pair" }));
    expect(a.text).toBe(body(without(BASE, [9, 11])));
    expect(a.compiled.refused).toEqual({});
  });
  it("parallel calls: the call right after the reasoning item stays unless the whole group goes", () => {
    const a = run(planAll(["f3a"], { kind: "drop_pair" }));
    expect(a.text).toBe(body(BASE));
    expect(a.compiled.refused).toEqual({ f3a: "reasoning_link" });
    expect(run(planAll(["f3a", "f3b"], { kind: "drop_pair" })).text).toBe(body(without(BASE, [7, 8, 9, 10, 11])));
  });
  it("result edits on an output: drop_result on a string, truncate across an emoji, strip_media", () => {
    expect(run(planAll(["f1"], { kind: "drop_result" })).compiled.refused).toEqual({ f1: "nothing_to_remove" });
    const t = run({ actions: { f5: { kind: "truncate_result", head_bytes: 4, tail_bytes: 3 } } });
    // text part raw bytes: ab(2) 😀(4) cd(2) \n(2) ef(2) = 12; head 4 → "ab"; tail 3 → "ef"; the image (offset 12) is in the tail region.
    const want = structuredClone(BASE);
    want[17] = fo("f5", [
      { type: "input_text", text: "abef" },
      { type: "input_image", image_url: "data:image/png;base64,AAAA" },
    ]);
    expect(t.text).toBe(body(want));
    const s = run(planAll(["f5"], { kind: "strip_media" }));
    want[17] = fo("f5", [{ type: "input_text", text: "ab😀cd\nef" }]);
    expect(s.text).toBe(body(want));
  });
  it("refuses pairs in the last assistant turn", () => {
    const items = [user("u"), rs("r"), fc("x"), fo("x", "1")];
    const a = apply(resp, body(items), planAll(["x"], { kind: "drop_pair" }));
    expect(a.compiled).toEqual({ deletions: [], refused: { x: "last_assistant_turn" } });
  });
});

describe("openai-responses checkRules", () => {
  const rules = (items: Item[]) => {
    const b = enc(body(items));
    return resp.checkRules(b, scanJson(b), newCoreCaches());
  };
  it("accepts the valid history and string input", () => {
    expect(rules(BASE)).toEqual([]);
    const b = enc(body("hi"));
    expect(resp.checkRules(b, scanJson(b), newCoreCaches())).toEqual([]);
  });
  it("rejects hand-mutated histories", () => {
    expect(rules(without(BASE, [3]))).toEqual(['input[2]: function_call "f1" has no output']);
    expect(rules(without(BASE, [2]))).toEqual(["input[1]: reasoning item without its required following item", 'input[2]: function_call_output for "f1" answers no earlier function_call']);
    // rs_1 is now followed by the custom call, another model item: valid on its own; that it is
    // not its original follower is relational (edit-rules.ts / the audit helper), not a body rule.
    expect(rules(without(BASE, [2, 3]))).toEqual([]);
    expect(rules(without(BASE, [2, 3, 4, 5]))).toEqual(["input[1]: reasoning item without its required following item"]);
    expect(rules([user("u"), fo("a", "x"), fc("a")])).toEqual(['input[1]: function_call_output for "a" answers no earlier function_call', 'input[2]: function_call "a" has no output']);
    expect(rules([fc("a"), { type: "custom_tool_call_output", call_id: "a", output: "x" }])).toEqual([
      'input[1]: custom_tool_call_output for "a" answers no earlier custom_tool_call',
      'input[0]: function_call "a" has no output',
    ]);
    expect(rules([fc("a"), fc("a"), fo("a", "x")])).toEqual(['input[1].call_id: missing or duplicate "a"']);
    expect(rules([fc("a"), fo("a", [])])).toEqual(["input[1]: empty output array"]);
    expect(rules([user("u"), rs("r")])).toEqual(["input[1]: reasoning item without its required following item"]);
  });
});

describe("B08 openai_responses.function_call_without_reasoning_item", () => {
  const B08 = JSON.parse(readFileSync(`${CASES_PATH}/B08.json`, "utf8")) as { request: { input: Item[] } };
  const longer = { ...B08.request, input: [...B08.request.input, said("Tomorrow looks dry."), user("Thanks."), said("You're welcome."), user("Bye.")] };
  it("the naive edit (reasoning dropped, call kept) is caught; a reasoning item left alone is rejected by checkRules", () => {
    const naive = { ...longer, input: longer.input.filter((it) => it.type !== "reasoning") };
    const plan = { actions: {} };
    expect(audit(resp, enc(JSON.stringify(longer)), enc(JSON.stringify(naive)), plan, "input")).toEqual([
      "input message 1 (reasoning) vanished or changed",
      "input[2] kept without the reasoning item before it",
    ]);
    const orphaned = { ...longer, input: longer.input.filter((it) => it.type !== "function_call") };
    const b = enc(JSON.stringify(orphaned));
    expect(resp.checkRules(b, scanJson(b), newCoreCaches())).toEqual([
      "input[1]: reasoning item without its required following item",
      'input[2]: function_call_output for "call_wx1" answers no earlier function_call',
    ]);
  });
  it("on the case itself the pair is in the last turns: every action is refused, bytes unchanged", () => {
    for (const kind of ["drop_pair", "drop_result", "strip_media"] as const) {
      const a = apply(resp, JSON.stringify(B08.request), planAll(["call_wx1"], { kind }));
      expect(a.text).toBe(JSON.stringify(B08.request));
      expect(a.compiled.refused).toEqual({ call_wx1: "last_assistant_turn" });
    }
  });
  it("once older, reasoning, function_call and output go together; nothing else changes", () => {
    const plan = planAll(["call_wx1"], { kind: "drop_pair" });
    const a = apply(resp, JSON.stringify(longer), plan);
    expect(a.text).toBe(JSON.stringify({ ...longer, input: without(longer.input, [1, 2, 3]) }));
    expect(audit(resp, enc(JSON.stringify(longer)), a.out, plan, "input")).toEqual([]);
  });
});
