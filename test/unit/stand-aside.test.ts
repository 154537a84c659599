/**
 * Standing aside (DESIGN §2 "What Sluice does not model", §6): an unknown type in each position
 * of each wire format, and each provider feature that hands the history to the provider, makes
 * `prepareCompaction` skip with the exact header value and the stand-aside facts the metrics
 * count (src/gateway/prepare-compaction.ts, src/providers/known-types.ts). That the client's exact
 * bytes then go upstream is asserted through the Worker in test/workers/stand-aside.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { Provider } from "../../src/core/view/types";
import { headerType, prepareCompaction } from "../../src/gateway/prepare-compaction";
import { assistant, bodyBytes, result, text, use, user } from "../support/anthropic-bodies";

const HEADERS = new Headers({ "x-sluice-session": "stand-aside" });

/** Anthropic: a history with one old pair, then the fields of `extra`. */
const anthropicBody = (messages: unknown[] = [user("go"), assistant([use("a")]), user([result("a", "A".repeat(200))]), assistant([text("ok")]), user("next")], extra: object = {}) =>
  ({ model: "claude-opus-4-8", max_tokens: 1024, ...extra, messages });

const chatBody = (messages: unknown[], extra: object = {}) => ({ model: "gpt-4o", ...extra, messages });
const CHAT_HISTORY = [
  { role: "user", content: "go" },
  { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "read", arguments: "{}" } }] },
  { role: "tool", tool_call_id: "c1", content: "A".repeat(200) },
  { role: "assistant", content: "ok" },
  { role: "user", content: "next" },
];

const responsesBody = (input: unknown[], extra: object = {}) => ({ model: "gpt-5.5-codex", ...extra, input, store: false });
const RESPONSES_HISTORY = [
  { type: "message", role: "user", content: [{ type: "input_text", text: "go" }] },
  { type: "function_call", call_id: "c1", name: "read", arguments: "{}" },
  { type: "function_call_output", call_id: "c1", output: "A".repeat(200) },
  { type: "message", role: "assistant", content: [{ type: "output_text", text: "ok" }] },
  { type: "message", role: "user", content: [{ type: "input_text", text: "next" }] },
];

/** [note, stand_aside.reason, stand_aside.type, session id] of a skip; throws when the request is ready. */
function skipped(provider: Provider, body: object): [string, string, string, string | null] {
  const r = prepareCompaction(provider, HEADERS, bodyBytes(body));
  if (r.kind !== "skip" || !("stand_aside" in r)) throw new Error(`not a stand-aside: ${r.kind === "skip" ? r.note : "ready"}`);
  return [r.note, r.stand_aside.reason, r.stand_aside.type, r.stand_aside.session?.id ?? null];
}

const unknown = (type: string): [string, string, string, string] => [`skipped; reason=unknown_type; type=${type}`, "unknown_type", type, "stand-aside"];
const managed = (type: string): [string, string, string, string] => ["skipped; reason=server_managed", "server_managed", type, "stand-aside"];

describe("an unknown type in each position stands aside", () => {
  const toolResult = (content: unknown) => [user("go"), assistant([use("a")]), user([result("a", content)]), assistant([text("ok")]), user("next")];
  it.each([
    ["anthropic: a top-level field", anthropicBody(undefined, { memory_bank: { id: "m1" } }), "memory_bank"],
    ["anthropic: a role", anthropicBody([user("go"), { role: "critic", content: "no" }, user("next")]), "critic"],
    ["anthropic: a content block", anthropicBody([user("go"), assistant([{ type: "hologram", data: "x" }, use("a")]), user([result("a", "A")]), user("next")]), "hologram"],
    ["anthropic: a tool_result part", anthropicBody(toolResult([text("A"), { type: "hologram_part", data: "x" }])), "hologram_part"],
    ["anthropic: a context_management edit", anthropicBody(undefined, { context_management: { edits: [{ type: "clear_thinking_20251015" }, { type: "clear_everything_20270101" }] } }), "clear_everything_20270101"],
  ])("%s", (_, body, type) => {
    expect(skipped("anthropic", body)).toEqual(unknown(type));
  });

  it.each([
    ["openai-chat: a top-level field", chatBody(CHAT_HISTORY, { transforms: ["middle-out"] }), "transforms"],
    ["openai-chat: a role", chatBody([...CHAT_HISTORY.slice(0, 4), { role: "critic", content: "no" }]), "critic"],
    ["openai-chat: a content part", chatBody([{ role: "user", content: [{ type: "text", text: "go" }, { type: "video_url", video_url: { url: "x" } }] }, ...CHAT_HISTORY.slice(1)]), "video_url"],
    ["openai-chat: a tool call type", chatBody([CHAT_HISTORY[0], { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "mcp", mcp: { name: "read" } }] }, ...CHAT_HISTORY.slice(2)]), "mcp"],
  ])("%s", (_, body, type) => {
    expect(skipped("openai-chat", body)).toEqual(unknown(type));
  });

  it.each([
    ["openai-responses: a top-level field", responsesBody(RESPONSES_HISTORY, { memory: { id: "m1" } }), "memory"],
    ["openai-responses: an item type", responsesBody([...RESPONSES_HISTORY.slice(0, 3), { type: "hologram_call", id: "h1" }, ...RESPONSES_HISTORY.slice(3)]), "hologram_call"],
    ["openai-responses: a message role", responsesBody([...RESPONSES_HISTORY, { type: "message", role: "critic", content: "no" }]), "critic"],
    ["openai-responses: a message content part", responsesBody([{ type: "message", role: "user", content: [{ type: "input_video", video_url: "x" }] }, ...RESPONSES_HISTORY.slice(1)]), "input_video"],
    ["openai-responses: a tool output part", responsesBody([...RESPONSES_HISTORY.slice(0, 2), { type: "function_call_output", call_id: "c1", output: [{ type: "input_text", text: "A" }, { type: "output_video" }] }, ...RESPONSES_HISTORY.slice(3)]), "output_video"],
  ])("%s", (_, body, type) => {
    expect(skipped("openai-responses", body)).toEqual(unknown(type));
  });

  it("the header carries any type as a valid header value: percent-encoded, at most 64 characters", () => {
    const r = skipped("anthropic", anthropicBody([user("go"), { role: "a;b=c d\n\u00e9", content: "no" }, user("next")]));
    expect(r[0]).toBe("skipped; reason=unknown_type; type=a%3Bb%3Dc%20d%0A%C3%A9");
    expect(r[2]).toBe("a;b=c d\n\u00e9");
    expect(headerType("x".repeat(70))).toBe("x".repeat(64));
    expect(headerType("\u{1F600}".repeat(65))).toBe("%F0%9F%98%80".repeat(64));
    expect(() => new Headers({ h: r[0] })).not.toThrow();
  });
});

describe("a feature that hands the history to the provider stands aside; Sluice adds no edit beside it", () => {
  it.each([
    ["anthropic on-demand compaction (beta compact-2026-09-04)", "anthropic", anthropicBody(undefined, { compaction: { type: "summarize" } }), "on_demand_compaction"],
    ["anthropic server-held thread", "anthropic", anthropicBody(undefined, { thread: { type: "create" } }), "thread"],
    ["anthropic clear_tool_uses edit", "anthropic", anthropicBody(undefined, { context_management: { edits: [{ type: "clear_tool_uses_20250919" }] } }), "clear_tool_uses_20250919"],
    ["openai-responses context_management compaction", "openai-responses", responsesBody(RESPONSES_HISTORY, { context_management: [{ type: "compaction", compact_threshold: 200000 }] }), "context_management"],
    ["openai-responses input ending with compaction_trigger", "openai-responses", responsesBody([...RESPONSES_HISTORY, { type: "compaction_trigger" }]), "compaction_trigger"],
    ["openai-responses previous_response_id", "openai-responses", responsesBody(RESPONSES_HISTORY.slice(4), { previous_response_id: "resp_1" }), "previous_response_id"],
  ] as const)("%s", (_, provider, body, type) => {
    expect(skipped(provider, body)).toEqual(managed(type));
  });

  it.each([
    ["anthropic compaction: null", "anthropic", anthropicBody(undefined, { compaction: null })],
    ["anthropic thread: null", "anthropic", anthropicBody(undefined, { thread: null })],
    ["openai-responses context_management: []", "openai-responses", responsesBody(RESPONSES_HISTORY, { context_management: [] })],
    ["openai-responses additional_tools item (Codex's default model)", "openai-responses", responsesBody([{ type: "additional_tools", role: "developer", tools: [] }, ...RESPONSES_HISTORY])],
    ["openai-chat DeepSeek thinking switch", "openai-chat", chatBody(CHAT_HISTORY, { thinking: { type: "enabled" } })],
  ] as const)("%s asks for nothing: the request is ready for its step", (_, provider, body) => {
    const r = prepareCompaction(provider, HEADERS, bodyBytes(body));
    expect([r.kind, r.kind === "ready" ? r.parsed.view.server_managed : r.note]).toEqual(["ready", null]);
  });
});
