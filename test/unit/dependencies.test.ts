/**
 * One test per row of the dependency table (src/providers/dependencies.ts): for each "kept X
 * requires Y" rule, an edit that would break it is refused or never produced by the edit rules
 * (compile, applyPlan), and where the rule is checked, a hand-made output that breaks it fails
 * the independent checker (checkGuarantee) naming the rule. A row without a test fails the
 * first test here.
 */
import { describe, expect, it } from "vitest";
import { ANTHROPIC_SERVER_TOOL_RESULTS, DEPENDENCIES, codeOf, type DependencyId } from "../../src/providers/dependencies";
import { KNOWN_TYPES } from "../../src/providers/known-types";
import { anthropicAdapter } from "../../src/providers/anthropic-messages";
import { openaiChatAdapter } from "../../src/providers/openai-chat";
import { openaiResponsesAdapter } from "../../src/providers/openai-responses";
import { applyPlan } from "../../src/core/plan/apply-plan";
import { checkGuarantee } from "../../src/core/plan/check-guarantee";
import type { PairAction } from "../../src/core/plan/types";
import type { ProviderAdapter } from "../../src/providers/types";
import { newCoreCaches } from "../../src/core/caches";
import { REFERENCED_LOCK } from "../../src/core/engine/referenced-results";
import { assistant, result, text, use, user } from "../support/anthropic-bodies";

type Obj = Record<string, unknown>;
const enc = new TextEncoder();
const dec = new TextDecoder();
const DROP: PairAction = { kind: "drop_pair" };
const LONG = "L".repeat(400);

/** read → applyPlan → checkGuarantee of `body` with `actions`: the refusals, the output and the checker's verdict. */
function edit(adapter: ProviderAdapter, body: Obj, actions: Record<string, PairAction>) {
  const bytes = enc.encode(JSON.stringify(body));
  const parsed = adapter.read(bytes, newCoreCaches());
  const compiled = adapter.compile(parsed, { actions });
  const out = applyPlan(adapter, parsed, { actions });
  return { parsed, refused: compiled.refused, out: JSON.parse(dec.decode(out.bytes)) as Obj, check: checkGuarantee(adapter, bytes, out.bytes) };
}

/** The checker's violations for the hand-made output `after` of `before` (both serialised compactly). */
function violations(adapter: ProviderAdapter, before: Obj, after: Obj): string[] {
  return checkGuarantee(adapter, enc.encode(JSON.stringify(before)), enc.encode(JSON.stringify(after))).violations;
}

/** `body` with its history (`key`) replaced by `f(history)`. */
const withHistory = (body: Obj, key: "messages" | "input", f: (h: Obj[]) => Obj[]): Obj => ({ ...body, [key]: f(structuredClone(body[key]) as Obj[]) });

const ANTHROPIC_MODEL = "claude-sonnet-4-5"; // runs no thinking prefix check
const anthropic = (messages: unknown[], model = ANTHROPIC_MODEL): Obj => ({ model, max_tokens: 1024, messages });
const chat = (messages: unknown[]): Obj => ({ model: "gemini-3-pro-preview", messages });
const responses = (input: unknown[], extra: Obj = {}): Obj => ({ model: "gpt-5.5-codex", input, store: false, ...extra });
const call = (id: string, extra: Obj = {}) => ({ id, type: "function", function: { name: "read", arguments: `{"p":"${id}"}` }, ...extra });
const SIGNED = { extra_content: { google: { thought_signature: "CrICAdHt" } } };
/** Two more turns after the edited one, so its pairs are not in the last assistant turn. */
const CHAT_TAIL = [{ role: "assistant", content: "ok" }, { role: "user", content: "more" }, { role: "assistant", content: "ok 2" }, { role: "user", content: "next" }];
const RESPONSES_TAIL = [{ type: "message", role: "assistant", content: [{ type: "output_text", text: "ok" }] }, { type: "message", role: "user", content: "more" }, { type: "message", role: "assistant", content: [{ type: "output_text", text: "ok 2" }] }, { type: "message", role: "user", content: "next" }];

/** An Anthropic history whose pair `a` sits in message 1 (with `blocks` before the tool_use) and is old enough to edit. */
const anthropicPairIn = (blocks: unknown[], model = ANTHROPIC_MODEL) =>
  anthropic([user("go"), assistant([...blocks, use("a")]), user([result("a", LONG), text("x")]), assistant([text("ok")]), user("next")], model);

/** Frozen-message rows: a drop of the call in the message is refused with the row's code, and a hand-made edit of the message fails the checker. */
function frozenMessage(id: DependencyId, block: Obj) {
  const body = anthropicPairIn([block]);
  const r = edit(anthropicAdapter, body, { a: DROP });
  expect(r.refused).toEqual({ a: codeOf(id) });
  expect(r.check.ok).toBe(true);
  expect((r.out.messages as Obj[])[1]).toEqual((body.messages as Obj[])[1]);
  const broken = withHistory(body, "messages", (h) => {
    h[1]!.content = [block];
    h[2]!.content = [text("x")];
    return h;
  });
  expect(violations(anthropicAdapter, body, broken)).toContain(`message 1 (now 1): changed, but ${id} requires it sent back unchanged`);
}

const TESTS: Record<DependencyId, () => void> = {
  "anthropic.tool_result_needs_tool_use": () => {
    const body = anthropicPairIn([text("t")]);
    const r = edit(anthropicAdapter, body, { a: DROP });
    expect([r.check.ok, JSON.stringify(r.out).includes('"a"')]).toEqual([true, false]);
    const broken = withHistory(body, "messages", (h) => ((h[1]!.content = [text("t")]), h));
    expect(violations(anthropicAdapter, body, broken)).toContain("rule: messages[2].content[0]: tool_result a answers no tool_use of the previous assistant turn");
  },
  "anthropic.tool_use_needs_tool_result": () => {
    const body = anthropicPairIn([text("t")]);
    const r = edit(anthropicAdapter, body, { a: { kind: "drop_result" } });
    expect([r.check.ok, ((r.out.messages as Obj[])[2]!.content as Obj[])[0]!.tool_use_id]).toEqual([true, "a"]);
    const broken = withHistory(body, "messages", (h) => ((h[2]!.content = [text("x")]), h));
    expect(violations(anthropicAdapter, body, broken)).toContain("rule: messages[1]: tool_use a has no tool_result in the next turn");
  },
  "anthropic.user_first": () => {
    const body = anthropic([assistant([use("a")]), user([result("a", LONG), text("x")]), assistant([text("ok")]), user("next")]);
    expect(edit(anthropicAdapter, body, { a: DROP }).refused).toEqual({ a: codeOf("anthropic.user_first") });
  },
  "anthropic.system_after_user": () => {
    const body = anthropic([user("go"), assistant([text("t"), use("a")]), user([result("a", LONG)]), { role: "system", content: "note" }, assistant([text("ok")]), user("next")]);
    const r = edit(anthropicAdapter, body, { a: DROP });
    expect([r.refused, r.check.ok]).toEqual([{ a: codeOf("anthropic.system_after_user") }, true]);
    expect((r.out.messages as Obj[]).map((m) => m.role)).toEqual(["user", "assistant", "user", "system", "assistant", "user"]);
  },
  "anthropic.thinking_message_unchanged": () => frozenMessage("anthropic.thinking_message_unchanged", { type: "thinking", thinking: "", signature: "sig-1" }),
  "anthropic.fallback_message_unchanged": () => frozenMessage("anthropic.fallback_message_unchanged", { type: "fallback", from: { model: "claude-opus-5-5" }, to: { model: "claude-sonnet-5-5" } }),
  "anthropic.mcp_tool_listing_unchanged": () => frozenMessage("anthropic.mcp_tool_listing_unchanged", { type: "mcp_tool_listing", mcp_server_name: "docs", tools: [] }),
  "anthropic.thinking_prefix": () => {
    const body = anthropic([user("go"), assistant([use("a")]), user([result("a", LONG)]), assistant([{ type: "thinking", thinking: "", signature: "s" }, text("ok")]), user("next")], "claude-opus-5-5");
    const r = edit(anthropicAdapter, body, { a: { kind: "drop_result" } });
    expect([r.parsed.view.pairs[0]!.locked, r.refused]).toEqual([codeOf("anthropic.thinking_prefix"), { a: "thinking_prefix" }]);
  },
  "anthropic.server_tool_result_needs_use": () => {
    const server = [{ type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "q" } }, { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [] }];
    const body = anthropicPairIn(server);
    const r = edit(anthropicAdapter, body, { a: DROP });
    expect([r.check.ok, (r.out.messages as Obj[])[1]!.content]).toEqual([true, server]);
    const broken = withHistory(body, "messages", (h) => ((h[1]!.content = [server[0], use("a")]), h));
    expect(violations(anthropicAdapter, body, broken)).toContain("message 1 (now 1): non-tool content or role changed");
    // The list the system-message rule reads is every server result type of the known-types table.
    expect([...ANTHROPIC_SERVER_TOOL_RESULTS].sort()).toEqual(KNOWN_TYPES.filter((k) => k.provider === "anthropic" && k.position === "block" && k.type.endsWith("_tool_result") && k.type !== "tool_result").map((k) => k.type).sort());
  },
  "anthropic.tool_addition_before_use": () => {
    const addition = { role: "system", content: [{ type: "tool_addition", tool: { type: "tool_definition", definition: { name: "grep", input_schema: { type: "object" } } } }] };
    const body = anthropic([user("go"), addition, assistant([use("a", {}, "grep")]), user([result("a", LONG)]), assistant([text("ok")]), user("next")]);
    const r = edit(anthropicAdapter, body, { a: DROP });
    expect([r.check.ok, (r.out.messages as Obj[])[1]]).toEqual([true, addition]);
    const broken = withHistory(body, "messages", (h) => [h[0]!, ...h.slice(4)]);
    expect(violations(anthropicAdapter, body, broken)).toContain("message 1 removed but had 1 non-tool part(s)");
  },
  "anthropic.tool_reference_loads_tool": () => {
    const body = anthropic([user("go"), assistant([use("a", { query: "grep" }, "tool_search")]), user([result("a", [text("found"), { type: "tool_reference", tool_name: "grep" }])]), assistant([use("b", {}, "grep")]), user([result("b", LONG)]), assistant([text("ok")]), user("next")]);
    const r = edit(anthropicAdapter, body, { a: DROP, b: DROP });
    expect(r.parsed.view.pairs.map((p) => [p.id, p.locked])).toEqual([["a", codeOf("anthropic.tool_reference_loads_tool")], ["b", null]]);
    expect([r.refused.a, r.check.ok]).toEqual(["tool_reference", true]);
  },
  "anthropic.programmatic_call": () => {
    const caller = (type: string) => ({ ...use("a"), caller: type === "direct" ? { type } : { type, tool_id: "srvtoolu_1" } });
    const body = (type: string) => anthropic([user("go"), assistant([caller(type)]), user([result("a", LONG)]), assistant([text("ok")]), user("next")]);
    const locked = (type: string) => anthropicAdapter.read(enc.encode(JSON.stringify(body(type))), newCoreCaches()).view.pairs[0]!.locked;
    expect([locked("code_execution_20260120"), locked("code_execution_20250825"), locked("direct")]).toEqual([codeOf("anthropic.programmatic_call"), "programmatic_call", null]);
  },
  "anthropic.reference_reply": () => {
    const read = (id: string) => use(id, { file_path: "/repo/src/app.ts" }, "Read");
    const body = anthropic([user("go"), assistant([read("a")]), user([result("a", LONG)]), assistant([read("b")]), user([result("b", "Wasted call \u2014 file unchanged since your last Read. Refer to that earlier tool_result instead.")]), assistant([text("ok")]), user("next")]);
    const r = edit(anthropicAdapter, body, { a: DROP });
    expect([r.parsed.view.pairs[0]!.locked, r.refused, codeOf("anthropic.reference_reply")]).toEqual([REFERENCED_LOCK, { a: REFERENCED_LOCK }, REFERENCED_LOCK]);
  },
  "anthropic.compaction_block": () => {
    const body = anthropic([user("go"), assistant([{ type: "compaction", content: "summary" }]), user("more"), assistant([use("a")]), user([result("a", LONG)]), assistant([text("ok")]), user("next")]);
    const r = edit(anthropicAdapter, body, { a: DROP });
    expect([r.parsed.view.server_managed, r.refused, codeOf("anthropic.compaction_block")]).toEqual(["compaction", { a: "server_managed" }, "compaction"]);
    const broken = withHistory(body, "messages", (h) => [...h.slice(0, 3), ...h.slice(5)]);
    expect(violations(anthropicAdapter, body, broken)).toContain("history is server-managed (compaction) but was edited");
  },

  "openai-chat.tool_message_needs_call": () => {
    const body = chat([{ role: "user", content: "go" }, { role: "assistant", content: "t", tool_calls: [call("c1"), call("c2")] }, { role: "tool", tool_call_id: "c1", content: LONG }, { role: "tool", tool_call_id: "c2", content: LONG }, ...CHAT_TAIL]);
    const r = edit(openaiChatAdapter, body, { c1: DROP });
    expect([r.check.ok, (r.out.messages as Obj[]).length]).toEqual([true, 7]);
    const broken = withHistory(body, "messages", (h) => ((h[1]!.tool_calls = [call("c2")]), h));
    expect(violations(openaiChatAdapter, body, broken)).toContain('rule: messages[2]: tool message for "c1" does not answer the preceding assistant tool_calls');
  },
  "openai-chat.call_needs_tool_message": () => {
    const body = chat([{ role: "user", content: "go" }, { role: "assistant", content: "t", tool_calls: [call("c1"), call("c2")] }, { role: "tool", tool_call_id: "c1", content: LONG }, { role: "tool", tool_call_id: "c2", content: LONG }, ...CHAT_TAIL]);
    const broken = withHistory(body, "messages", (h) => [...h.slice(0, 2), ...h.slice(3)]);
    expect(violations(openaiChatAdapter, body, broken)).toContain("rule: messages[1].tool_calls: no tool message answers c1");
  },
  "openai-chat.function_message_needs_call": () => {
    const body = chat([{ role: "user", content: "go" }, { role: "assistant", content: "t", function_call: { name: "read", arguments: "{}" } }, { role: "function", name: "read", content: LONG }, ...CHAT_TAIL]);
    const id = edit(openaiChatAdapter, body, {}).parsed.view.pairs[0]!.id;
    const r = edit(openaiChatAdapter, body, { [id]: DROP });
    expect([r.check.ok, (r.out.messages as Obj[]).map((m) => m.role)]).toEqual([true, ["user", "assistant", "assistant", "user", "assistant", "user"]]);
    const broken = withHistory(body, "messages", (h) => ((h[1] = { role: "assistant", content: "t" }), h));
    expect(violations(openaiChatAdapter, body, broken)).toContain("rule: messages[2]: function message does not follow a function_call of the same name");
  },
  "openai-chat.content_or_calls": () => {
    const body = (extra: Obj) => chat([{ role: "user", content: "go" }, { role: "assistant", content: null, ...extra, tool_calls: [call("c1")] }, { role: "tool", tool_call_id: "c1", content: LONG }, ...CHAT_TAIL]);
    const gone = edit(openaiChatAdapter, body({}), { c1: DROP });
    expect([gone.check.ok, (gone.out.messages as Obj[]).map((m) => m.role)]).toEqual([true, ["user", "assistant", "user", "assistant", "user"]]);
    expect(edit(openaiChatAdapter, body({ refusal: null }), { c1: DROP }).refused).toEqual({ c1: "assistant_would_be_empty" });
  },
  "openai-chat.reasoning_content_with_calls": () => {
    const body = chat([{ role: "user", content: "go" }, { role: "assistant", content: null, reasoning_content: "think", tool_calls: [call("c1")] }, { role: "tool", tool_call_id: "c1", content: LONG }, ...CHAT_TAIL]);
    const r = edit(openaiChatAdapter, body, { c1: DROP });
    expect([r.check.ok, JSON.stringify(r.out).includes("reasoning_content")]).toEqual([true, false]);
    const broken = withHistory(body, "messages", (h) => [h[0]!, { role: "assistant", content: null, reasoning_content: "think" }, ...h.slice(3)]);
    expect(violations(openaiChatAdapter, body, broken)).toContain("rule: messages[1].content: null without tool_calls");
  },
  "openai-chat.thought_signature": () => {
    const body = chat([{ role: "user", content: "go" }, { role: "assistant", content: null, tool_calls: [call("c1", SIGNED), call("c2")] }, { role: "tool", tool_call_id: "c1", content: LONG }, { role: "tool", tool_call_id: "c2", content: LONG }, ...CHAT_TAIL]);
    const only = edit(openaiChatAdapter, body, { c1: DROP });
    expect([only.parsed.view.pairs.map((p) => p.requires ?? null), only.refused, only.check.ok]).toEqual([[null, { rule: "openai-chat.thought_signature", ids: ["c1"] }], { c1: codeOf("openai-chat.thought_signature") }, true]);
    const both = edit(openaiChatAdapter, body, { c1: DROP, c2: DROP });
    expect([both.refused, (both.out.messages as Obj[]).length, both.check.ok]).toEqual([{}, 5, true]);
    const broken = withHistory(body, "messages", (h) => ((h[1]!.tool_calls = [call("c2")]), [...h.slice(0, 2), ...h.slice(3)]));
    expect(violations(openaiChatAdapter, body, broken)).toContain("pair c2 kept without c1, which openai-chat.thought_signature requires");
  },

  "openai-responses.output_needs_call": () => {
    const body = responses([{ type: "message", role: "user", content: "go" }, { type: "function_call", call_id: "c1", name: "read", arguments: "{}" }, { type: "function_call_output", call_id: "c1", output: LONG }, ...RESPONSES_TAIL]);
    const r = edit(openaiResponsesAdapter, body, { c1: DROP });
    expect([r.check.ok, (r.out.input as Obj[]).length]).toEqual([true, 5]);
    const broken = withHistory(body, "input", (h) => [h[0]!, ...h.slice(2)]);
    expect(violations(openaiResponsesAdapter, body, broken)).toContain('rule: input[1]: function_call_output for "c1" answers no earlier function_call');
  },
  "openai-responses.reasoning_needs_following_item": () => {
    const body = responses([{ type: "message", role: "user", content: "go" }, { type: "reasoning", id: "rs_1", summary: [] }, { type: "function_call", call_id: "c1", name: "read", arguments: "{}" }, { type: "function_call", call_id: "c2", name: "read", arguments: "{}" }, { type: "function_call_output", call_id: "c1", output: LONG }, { type: "function_call_output", call_id: "c2", output: LONG }, ...RESPONSES_TAIL]);
    expect(edit(openaiResponsesAdapter, body, { c1: DROP }).refused).toEqual({ c1: codeOf("openai-responses.reasoning_needs_following_item") });
    const later = edit(openaiResponsesAdapter, body, { c2: DROP });
    expect([later.refused, (later.out.input as Obj[]).map((i) => i.type)]).toEqual([{}, ["message", "reasoning", "function_call", "function_call_output", "message", "message", "message", "message"]]);
    const broken = withHistory(body, "input", (h) => [h[0]!, h[1]!, ...h.slice(7)]);
    expect(violations(openaiResponsesAdapter, body, broken)).toContain("rule: input[1]: reasoning item without its required following item");
  },
  "openai-responses.call_needs_reasoning": () => {
    const body = responses([{ type: "message", role: "user", content: "go" }, { type: "reasoning", id: "rs_1", summary: [] }, { type: "function_call", call_id: "c1", name: "read", arguments: "{}" }, { type: "function_call_output", call_id: "c1", output: LONG }, ...RESPONSES_TAIL]);
    const r = edit(openaiResponsesAdapter, body, { c1: DROP });
    expect([r.check.ok, (r.out.input as Obj[]).map((i) => i.type)]).toEqual([true, ["message", "message", "message", "message", "message"]]);
    const broken = withHistory(body, "input", (h) => [h[0]!, ...h.slice(2)]);
    expect(violations(openaiResponsesAdapter, body, broken)).toContain("message 1 removed but its call(s) c1 remain");
  },
  "openai-responses.hosted_tool_pairs": () => {
    const body = responses([{ type: "message", role: "user", content: "go" }, { type: "computer_call", call_id: "k1", action: { type: "screenshot" } }, { type: "computer_call_output", call_id: "k1", output: { type: "computer_screenshot", image_url: "data:," } }, ...RESPONSES_TAIL]);
    const r = edit(openaiResponsesAdapter, body, { k1: DROP });
    expect([r.parsed.view.pairs, r.refused, r.parsed.view.messages.slice(1, 3).map((m) => m.non_tool_parts)]).toEqual([[], { k1: "unknown_pair" }, [1, 1]]);
    const broken = withHistory(body, "input", (h) => [h[0]!, h[1]!, ...h.slice(3)]);
    expect(violations(openaiResponsesAdapter, body, broken)).toContain("message 2 removed but had 1 non-tool part(s)");
  },
  "openai-responses.additional_tools": () => {
    const body = responses([{ type: "additional_tools", role: "developer", tools: [{ type: "function", name: "read", parameters: {} }] }, { type: "message", role: "user", content: "go" }, { type: "function_call", call_id: "c1", name: "read", arguments: "{}" }, { type: "function_call_output", call_id: "c1", output: LONG }, ...RESPONSES_TAIL]);
    const r = edit(openaiResponsesAdapter, body, { c1: DROP });
    expect([r.check.ok, (r.out.input as Obj[])[0]]).toEqual([true, (body.input as Obj[])[0]]);
    const broken = withHistory(body, "input", (h) => h.slice(1));
    expect(violations(openaiResponsesAdapter, body, broken)).toContain("message 0 removed but had 1 non-tool part(s)");
  },
  "openai-responses.item_reference": () => {
    const body = responses([{ type: "message", role: "user", content: "go" }, { type: "item_reference", id: "fc_stored" }, { type: "function_call_output", call_id: "c_stored", output: LONG }, ...RESPONSES_TAIL]);
    const r = edit(openaiResponsesAdapter, body, { c_stored: DROP });
    expect([r.parsed.view.orphans, r.refused]).toEqual([[{ id: "c_stored", kind: "result_without_call", position: { message_index: 2, block_index: -1 } }], { c_stored: "unknown_pair" }]);
  },
  "openai-responses.compaction_item": () => {
    const body = responses([{ type: "compaction", encrypted_content: "enc" }, { type: "function_call", call_id: "c1", name: "read", arguments: "{}" }, { type: "function_call_output", call_id: "c1", output: LONG }, ...RESPONSES_TAIL]);
    const r = edit(openaiResponsesAdapter, body, { c1: DROP });
    expect([r.parsed.view.server_managed, r.refused]).toEqual([codeOf("openai-responses.compaction_item"), { c1: "server_managed" }]);
  },
  "openai-responses.server_history": () => {
    const body = responses([{ type: "function_call_output", call_id: "c0", output: LONG }, { type: "message", role: "user", content: "next" }], { previous_response_id: "resp_1" });
    const r = edit(openaiResponsesAdapter, body, { c0: DROP });
    expect([r.parsed.view.server_managed, r.refused]).toEqual([codeOf("openai-responses.server_history"), { c0: "server_managed" }]);
  },
};

describe("the dependency table", () => {
  it("every row has a source and a test; every rule kept by name has a code", () => {
    expect(Object.keys(TESTS).sort()).toEqual(Object.keys(DEPENDENCIES).sort());
    for (const [id, rule] of Object.entries(DEPENDENCIES)) {
      expect([id, rule.source.trim().length > 0, id.startsWith(`${rule.provider}.`)]).toEqual([id, true, true]);
      if (["adjacency", "frozen_message", "requires_call", "lock", "stand_aside"].includes(rule.enforcement)) expect([id, rule.code]).not.toEqual([id, null]);
    }
  });

  it.each(Object.keys(DEPENDENCIES) as DependencyId[])("%s", (id) => TESTS[id]());
});
