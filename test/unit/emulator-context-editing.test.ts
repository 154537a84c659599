import { describe, expect, it } from "vitest";
import { applyContextEdits, CLEARED_TOOL_RESULT_TEXT } from "../../tools/emulator/anthropic/apply-context-edits";
import { validateMessagesRequest } from "../../tools/emulator/anthropic/validate-messages";
import { handleRequest } from "../../tools/emulator/handle-request";
import { parseSse } from "../../tools/emulator/shared/sse";
import { createState } from "../../tools/emulator/state";

// Server-side context editing (platform.claude.com/docs/en/build-with-claude/context-editing).
const T0 = 1_800_000_000_000;
const BETA = { "anthropic-beta": "context-management-2025-06-27" };
const tools = [{ name: "read", input_schema: { type: "object" } }, { name: "memory", input_schema: { type: "object" } }];
const big = (n: number) => `line ${n}: ${"content of the file ".repeat(60)}`;

/** A session of `n` tool uses: read(file i) → result i; the memory tool is used at step 1. */
function history(n: number): any[] {
  const messages: any[] = [{ role: "user", content: "Read the files." }];
  for (let i = 0; i < n; i++) {
    const name = i === 1 ? "memory" : "read";
    messages.push({ role: "assistant", content: [{ type: "text", text: `Step ${i}.` }, { type: "tool_use", id: `toolu_${i}`, name, input: { path: `f${i}.ts` } }] });
    messages.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_${i}`, content: big(i) }] });
  }
  return messages;
}

const request = (edit: object, n = 6) => ({ model: "claude-opus-5-5", max_tokens: 64, tools, messages: history(n), context_management: { edits: [edit] } });
const clearTools = (extra: object = {}) => ({ type: "clear_tool_uses_20250919", trigger: { type: "input_tokens", value: 1000 }, ...extra });

describe("applyContextEdits: clear_tool_uses_20250919", () => {
  it("clears the oldest tool results first, keeps the last `keep`, never an excluded tool; replaces the content with the placeholder", () => {
    const out: any = applyContextEdits(request(clearTools({ keep: { type: "tool_uses", value: 2 }, exclude_tools: ["memory"] })) as any);
    const results = out.body.messages.flatMap((m: any) => m.content).filter((b: any) => b.type === "tool_result").map((b: any) => b.content);
    expect(results).toEqual([CLEARED_TOOL_RESULT_TEXT, big(1), CLEARED_TOOL_RESULT_TEXT, CLEARED_TOOL_RESULT_TEXT, big(4), big(5)]);
    expect(out.applied_edits).toMatchObject([{ type: "clear_tool_uses_20250919", cleared_tool_uses: 3 }]);
  });

  it("clear_tool_inputs empties the calls' input (true, or only the tools it names)", () => {
    const all: any = applyContextEdits(request(clearTools({ keep: { type: "tool_uses", value: 4 }, clear_tool_inputs: true })) as any);
    expect(all.body.messages.filter((m: any) => m.role === "assistant").map((m: any) => m.content[1].input)).toEqual([{}, {}, { path: "f2.ts" }, { path: "f3.ts" }, { path: "f4.ts" }, { path: "f5.ts" }]);
    const named: any = applyContextEdits(request(clearTools({ keep: { type: "tool_uses", value: 4 }, clear_tool_inputs: ["memory"] })) as any);
    expect(named.body.messages.filter((m: any) => m.role === "assistant").map((m: any) => m.content[1].input)).toEqual([{ path: "f0.ts" }, {}, { path: "f2.ts" }, { path: "f3.ts" }, { path: "f4.ts" }, { path: "f5.ts" }]);
  });

  it("below the trigger, or when less than clear_at_least would go, nothing is cleared", () => {
    expect(applyContextEdits(request(clearTools({ trigger: { type: "input_tokens", value: 100_000 } })) as any).applied_edits).toEqual([]);
    expect(applyContextEdits(request(clearTools({ trigger: { type: "tool_uses", value: 6 } })) as any).applied_edits).toEqual([]);
    expect(applyContextEdits(request(clearTools({ trigger: { type: "tool_uses", value: 5 } })) as any).applied_edits).toMatchObject([{ cleared_tool_uses: 3 }]);
    expect(applyContextEdits(request(clearTools({ clear_at_least: { type: "input_tokens", value: 1_000_000 } })) as any).applied_edits).toEqual([]);
  });

  it("leaves the client's body as sent", () => {
    const req = request(clearTools());
    const before = JSON.stringify(req);
    applyContextEdits(req as any);
    expect(JSON.stringify(req)).toBe(before);
  });
});

describe("applyContextEdits: clear_thinking_20251015", () => {
  it("removes thinking of all but the last `keep` assistant turns", () => {
    const th = (t: string) => ({ type: "thinking", thinking: t, signature: "s" + t });
    const messages = [
      { role: "user", content: "q1" },
      { role: "assistant", content: [th("a"), { type: "text", text: "A" }] },
      { role: "user", content: "q2" },
      { role: "assistant", content: [th("b"), { type: "text", text: "B" }] },
      { role: "user", content: "q3" },
    ];
    const out: any = applyContextEdits({ model: "m", messages, context_management: { edits: [{ type: "clear_thinking_20251015", keep: { type: "thinking_turns", value: 1 } }] } } as any);
    expect(out.body.messages.map((m: any) => (Array.isArray(m.content) ? m.content.map((b: any) => b.type) : m.content))).toEqual([["text"], ["text"], ["text"], ["thinking", "text"], ["text"]]);
    expect(out.applied_edits).toMatchObject([{ type: "clear_thinking_20251015", cleared_thinking_turns: 1 }]);
    expect(applyContextEdits({ model: "m", messages, context_management: { edits: [{ type: "clear_thinking_20251015", keep: "all" }] } } as any).applied_edits).toEqual([]);
  });
});

describe("context_management validation (400 naming the field)", () => {
  const err = (body: object, headers: Record<string, string> = BETA) => {
    const v = validateMessagesRequest(body, headers);
    return v.ok ? null : v.rejection.message;
  };
  it("requires the beta", () => {
    expect(err(request(clearTools()), {})).toBe("context_management: Extra inputs are not permitted");
    expect(err(request(clearTools()))).toBeNull();
  });
  it("clear_thinking_20251015 must come first", () => {
    const body = { ...request(clearTools()), context_management: { edits: [clearTools(), { type: "clear_thinking_20251015", keep: "all" }] } };
    expect(err(body)).toBe("context_management.edits.1.type: `clear_thinking_20251015` must be the first edit in `context_management.edits`");
  });
  it("parameters have the SDK's shapes", () => {
    expect(err(request(clearTools({ keep: { type: "input_tokens", value: 3 } })))).toBe("context_management.edits.0.keep.type: Input should be 'tool_uses'");
    expect(err(request(clearTools({ trigger: { type: "input_tokens", value: 0 } })))).toBe("context_management.edits.0.trigger.value: Input should be greater than or equal to 1");
    expect(err(request(clearTools({ exclude_tools: "memory" })))).toBe("context_management.edits.0.exclude_tools: Input should be a valid list of strings");
    expect(err(request(clearTools({ clear_tool_inputs: "yes" })))).toBe("context_management.edits.0.clear_tool_inputs: Input should be a valid boolean or a list of strings");
    expect(err(request(clearTools({ keeps: 1 })))).toBe("context_management.edits.0.keeps: Extra inputs are not permitted");
    expect(err(request({ type: "clear_everything" }))).toBe(
      "context_management.edits.0.type: Input tag 'clear_everything' found using 'type' does not match any of the expected tags: 'clear_tool_uses_20250919', 'clear_thinking_20251015', 'compact_20260112'",
    );
  });
});

describe("over the emulator: billing, applied_edits and the cache", () => {
  const send = (state: ReturnType<typeof createState>, body: object, key: string) =>
    handleRequest(state, { method: "POST", path: "/v1/messages", headers: { "x-api-key": key, "x-emulator-time": String(T0), ...BETA }, body: JSON.stringify(body) }, T0);

  it("bills the cleared copy: input drops by exactly cleared_input_tokens; applied_edits in the body", () => {
    const state = createState();
    const plain = JSON.parse(send(state, { ...request(clearTools()), context_management: { edits: [] } }, "k-plain").body);
    const cleared = JSON.parse(send(state, request(clearTools()), "k-cleared").body);
    expect(plain.context_management).toEqual({ applied_edits: [] });
    expect(cleared.context_management.applied_edits).toHaveLength(1);
    const edit = cleared.context_management.applied_edits[0];
    expect(edit.cleared_tool_uses).toBe(3);
    expect(plain.usage.input_tokens - cleared.usage.input_tokens).toBe(edit.cleared_input_tokens);
    expect(edit.cleared_input_tokens).toBeGreaterThan(3 * 200); // three results of ~230 tokens each
  });

  it("streams applied_edits in the final message_delta", () => {
    const r = send(createState(), { ...request(clearTools()), stream: true }, "k-stream");
    const events = parseSse(r.body);
    const delta = JSON.parse(events.find((e) => e.event === "message_delta")!.data);
    expect(delta.context_management.applied_edits).toMatchObject([{ type: "clear_tool_uses_20250919", cleared_tool_uses: 3 }]);
    expect(JSON.parse(events[0]!.data).message.context_management).toBeUndefined();
  });

  it("clearing invalidates the cache from the first cleared block: the prefix before it is still read", () => {
    const state = createState();
    const system = "You review TypeScript code for a payments team. ".repeat(60); // over Opus 5.5's 512-token minimum
    const messages = history(6);
    messages[1].content[1] = { ...messages[1].content[1], cache_control: { type: "ephemeral" } }; // breakpoint before the first cleared result
    const withEdits = (edits: object[]) => ({ ...request(clearTools()), system, messages, cache_control: { type: "ephemeral" }, context_management: { edits } });
    const warm = JSON.parse(send(state, withEdits([]), "k-cache").body).usage;
    const after = JSON.parse(send(state, withEdits([clearTools()]), "k-cache").body).usage;
    expect(warm.cache_read_input_tokens).toBe(0);
    const prefix = JSON.parse(send(createState(), { ...withEdits([]), cache_control: undefined, messages: messages.slice(0, 2) }, "k-prefix").body).usage;
    expect(after.cache_read_input_tokens).toBe(prefix.input_tokens + prefix.cache_creation_input_tokens);
    expect(after.cache_creation_input_tokens).toBeGreaterThan(0);
  });
});
