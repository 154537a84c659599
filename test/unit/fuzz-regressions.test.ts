/**
 * Regression tests for what the fuzz suite found (npm run fuzz; test/support/fuzz). Each test
 * names its finding (F01, …) and the (seed, index) that reproduced it; docs/reliability.md
 * lists them.
 */
import { describe, expect, it } from "vitest";
import { applyPlan } from "../../src/core/plan/apply-plan";
import { checkGuarantee } from "../../src/core/plan/check-guarantee";
import { adapterFor } from "../../src/providers/registry";
import { newCoreCaches } from "../../src/core/caches";

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);
const chat = adapterFor("openai-chat")!;
const anthropic = adapterFor("anthropic")!;

const call = (id: string) => ({ id, type: "function", function: { name: "shell", arguments: '{"cmd":"ls"}' } });
const tool = (id: string, content: string) => ({ role: "tool", tool_call_id: id, content });
/** F01's shape: an assistant message with prose and two calls, both answered; then a later turn. */
const F01_MESSAGES = [
  { role: "user", content: "fix it" },
  { role: "assistant", content: "Let me check.", tool_calls: [call("call_2"), call("call_3")] },
  tool("call_2", "a.txt\nb.txt\n"),
  tool("call_3", "c.txt\n"),
  { role: "user", content: "go on" },
  { role: "assistant", content: "Noted." },
  { role: "user", content: "go on" },
  { role: "assistant", content: null, tool_calls: [call("call_9")] },
  tool("call_9", "done\n"),
  { role: "user", content: "continue" },
];
const body = (messages: unknown[]) => JSON.stringify({ model: "gpt-4o", messages, tools: [{ type: "function", function: { name: "shell" } }] });

describe("F01 (seed 1, index 2): OpenAI Chat drop_pair of every call of an assistant message with prose", () => {
  const input = enc(body(F01_MESSAGES));
  const plan = { actions: { call_2: { kind: "drop_pair" as const }, call_3: { kind: "drop_pair" as const } } };

  it("the compiler removes the tool_calls member (an empty array is refused by the API) and the checker now accepts it", () => {
    const out = applyPlan(chat, chat.read(input, newCoreCaches()), plan).bytes;
    const want = [F01_MESSAGES[0], { role: "assistant", content: "Let me check." }, ...F01_MESSAGES.slice(4)];
    expect(dec(out)).toBe(body(want));
    // Before the fix: ok false, '"messages" is not the input with whole elements or string middles removed'.
    expect(checkGuarantee(chat, input, out)).toMatchObject({ ok: true, violations: [] });
  });

  it("still rejected: tool_calls member removed but its tool messages kept", () => {
    const out = enc(body([F01_MESSAGES[0], { role: "assistant", content: "Let me check." }, ...F01_MESSAGES.slice(2)]));
    const r = checkGuarantee(chat, input, out);
    expect(r.ok).toBe(false);
    expect(r.violations.every((v) => v.startsWith("rule: "))).toBe(true);
  });

  it("still rejected: a member that is not removable (content) vanishes", () => {
    const out = enc(body([F01_MESSAGES[0], { role: "assistant", tool_calls: [call("call_2"), call("call_3")] }, ...F01_MESSAGES.slice(2)]));
    expect(checkGuarantee(chat, input, out)).toEqual({ ok: false, violations: ['"messages" is not the input with whole elements or string middles removed'] });
  });

  it("still rejected: the same member removal where the adapter declares none (Anthropic)", () => {
    const a = JSON.stringify({ model: "m", max_tokens: 8, messages: [{ role: "user", content: "hi", extra: [] }] });
    const b = JSON.stringify({ model: "m", max_tokens: 8, messages: [{ role: "user", content: "hi" }] });
    expect(checkGuarantee(anthropic, enc(a), enc(b)).ok).toBe(false);
  });

  it("still rejected: removable member removed from an object that is not a history message", () => {
    const nested = [F01_MESSAGES[0], { role: "assistant", content: "x", tool_calls: [{ ...call("call_2"), tool_calls: [] }] }, tool("call_2", "r"), ...F01_MESSAGES.slice(4)];
    const stripped = [F01_MESSAGES[0], { role: "assistant", content: "x", tool_calls: [call("call_2")] }, tool("call_2", "r"), ...F01_MESSAGES.slice(4)];
    expect(checkGuarantee(chat, enc(body(nested)), enc(body(stripped))).ok).toBe(false);
  });
});

describe("F03 (seed 11, index 160): Anthropic tool_result text part whose text is not a string", () => {
  const bad = (text: unknown) => enc(JSON.stringify({
    model: "claude-sonnet-4-5", max_tokens: 64,
    messages: [
      { role: "user", content: "go" },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "shell", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text", text: "ok" }, { type: "text", text }] }] },
      { role: "assistant", content: "done" },
      { role: "user", content: "next" },
    ],
  }));

  it("is refused at read (→ skipped; reason=parse, newCoreCaches()), not later when the lazy result text is decoded", () => {
    for (const [text, type] of [[{ a: 1 }, "object"], [7, "number"], [null, "null"], [["x"], "array"]] as const) {
      expect(() => anthropic.read(bad(text), newCoreCaches())).toThrow(`messages[2].content[0].content[1].text: expected a string, got ${type}`);
    }
    const good = anthropic.read(bad("fine"), newCoreCaches()).view.pairs[0]!;
    expect(good.result_text).toBe("ok\nfine");
  });
});
