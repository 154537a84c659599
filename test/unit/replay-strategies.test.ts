import { describe, expect, it } from "vitest";
import { findRemovedResults } from "../../tools/replay/find-removed";
import { createAnthropicClear } from "../../tools/replay/strategies/anthropic-clear";
import { createIdleMicrocompact } from "../../tools/replay/strategies/idle-microcompact";
import { noneStrategy } from "../../tools/replay/strategies/none";
import { countLines, createObservationMask } from "../../tools/replay/strategies/observation-mask";
import { resolveStrategies } from "../../tools/replay/strategies/registry";
import { createSluiceStrategy } from "../../tools/replay/strategies/sluice-slot";
import type { JsonObject, Provider, StrategyContext } from "../../tools/replay/types";

const ctx = (provider: Provider, time_ms = 0, call_index = 0): StrategyContext => ({ provider, session_id: "s", call_index, time_ms });
const EPH = { type: "ephemeral" };

/** Anthropic: four tool uses (t2 and t3 in parallel), breakpoint on the last result. */
const anthropicBody = (): JsonObject => ({
  model: "claude-sonnet-4-5-20250929",
  max_tokens: 32000,
  messages: [
    { role: "user", content: "go" },
    { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Read", input: { p: "a" } }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "A1\nA2\n" }] },
    { role: "assistant", content: [{ type: "tool_use", id: "t2", name: "Read", input: { p: "b" } }, { type: "tool_use", id: "t3", name: "Bash", input: { c: "ls" } }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "t2", content: [{ type: "text", text: "B" }] }, { type: "tool_result", tool_use_id: "t3", content: "x\ny\nz", is_error: true }] },
    { role: "assistant", content: [{ type: "text", text: "ok" }, { type: "tool_use", id: "t4", name: "Read", input: { p: "c" } }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "t4", content: "C", cache_control: EPH }] },
  ],
});

const chatBody = (): JsonObject => ({
  model: "gpt-4o",
  messages: [
    { role: "system", content: "sys" },
    { role: "user", content: "hi" },
    { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "get", arguments: '{"id":1}' } }] },
    { role: "tool", tool_call_id: "c1", content: "one\ntwo" },
    { role: "assistant", content: "next", tool_calls: [{ id: "c2", type: "custom", custom: { name: "apply_patch", input: "*** Begin Patch" } }] },
    { role: "tool", tool_call_id: "c2", content: "done" },
  ],
});

const fc = (n: number) => ({ type: "function_call", name: "shell", arguments: `{"cmd":"c${n}"}`, call_id: `r${n}` });
const fco = (n: number) => ({ type: "function_call_output", call_id: `r${n}`, output: `out ${n}` });
const responsesBody = (n: number): JsonObject => ({
  model: "gpt-5-codex",
  input: [{ type: "message", role: "user", content: [{ type: "input_text", text: "go" }] }, ...Array.from({ length: n }, (_, i) => [fc(i + 1), fco(i + 1)]).flat()],
  store: false,
});

describe("none", () => {
  it("returns the very body it was given", () => {
    const b = anthropicBody();
    expect(noneStrategy.apply(b, ctx("anthropic"), null).body).toBe(b);
  });
});

describe("anthropic-clear (clear_tool_uses_20250919)", () => {
  it("leaves a request under the 100k-token default trigger untouched", () => {
    const b = anthropicBody();
    expect(createAnthropicClear().apply(b, ctx("anthropic"), null).body).toBe(b);
  });

  it("over the trigger, keeps the 3 most recent tool uses and clears older results with the placeholder", () => {
    const b = anthropicBody();
    const out = createAnthropicClear({ trigger_tokens: 10, keep: 3, placeholder: "[cleared]" }).apply(b, ctx("anthropic"), null).body;
    const expected = anthropicBody();
    (expected.messages as JsonObject[])[2] = { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "[cleared]" }] };
    expect(out).toEqual(expected);
    expect(b).toEqual(anthropicBody()); // input not mutated
  });

  it("keep 1: clears parallel results too, keeps is_error and the breakpoint block intact", () => {
    const out = createAnthropicClear({ trigger_tokens: 10, keep: 1, placeholder: "[cleared]" }).apply(anthropicBody(), ctx("anthropic"), null).body;
    expect((out.messages as JsonObject[]).slice(2)).toEqual([
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "[cleared]" }] },
      { role: "assistant", content: [{ type: "tool_use", id: "t2", name: "Read", input: { p: "b" } }, { type: "tool_use", id: "t3", name: "Bash", input: { c: "ls" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t2", content: "[cleared]" }, { type: "tool_result", tool_use_id: "t3", content: "[cleared]", is_error: true }] },
      { role: "assistant", content: [{ type: "text", text: "ok" }, { type: "tool_use", id: "t4", name: "Read", input: { p: "c" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t4", content: "C", cache_control: EPH }] },
    ]);
  });

  it("applies the same rule to OpenAI Chat tool messages", () => {
    const out = createAnthropicClear({ trigger_tokens: 10, keep: 1, placeholder: "[cleared]" }).apply(chatBody(), ctx("openai-chat"), null).body;
    const expected = chatBody();
    (expected.messages as JsonObject[])[3] = { role: "tool", tool_call_id: "c1", content: "[cleared]" };
    expect(out).toEqual(expected);
  });
});

describe("observation-mask (SWE-agent LastNObservations)", () => {
  it("counts lines like Python splitlines", () => {
    expect([countLines(""), countLines("a"), countLines("a\n"), countLines("a\nb"), countLines("a\r\nb\rc\n")]).toEqual([0, 1, 1, 2, 3]);
  });

  it("keeps the last N results and elides older ones with their line count", () => {
    const out = createObservationMask({ keep: 2 }).apply(anthropicBody(), ctx("anthropic"), null).body;
    const expected = anthropicBody();
    const m = expected.messages as JsonObject[];
    m[2] = { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "Old environment output: (2 lines omitted)" }] };
    m[4] = { role: "user", content: [{ type: "tool_result", tool_use_id: "t2", content: "Old environment output: (1 lines omitted)" }, { type: "tool_result", tool_use_id: "t3", content: "x\ny\nz", is_error: true }] };
    expect(out).toEqual(expected);
  });

  it("with the default 5, a 4-result conversation is untouched; on Responses it masks function_call_output", () => {
    const b = anthropicBody();
    expect(createObservationMask().apply(b, ctx("anthropic"), null).body).toBe(b);
    const out = createObservationMask().apply(responsesBody(6), ctx("openai-responses"), null).body;
    const expected = responsesBody(6);
    (expected.input as JsonObject[])[2] = { type: "function_call_output", call_id: "r1", output: "Old environment output: (1 lines omitted)" };
    expect(out).toEqual(expected);
  });
});

describe("idle-microcompact (Claude Code time-based microcompact)", () => {
  const MIN = 60_000;
  const PH = "[Old tool result content cleared]";

  it("fires only after 60 min idle, keeps the newest N, and stays sticky afterwards", () => {
    const s = createIdleMicrocompact({ gap_ms: 60 * MIN, keep: 1, placeholder: PH });
    let state = s.initial();
    const step = (n: number, t: number) => {
      const r = s.apply(responsesBody(n), ctx("openai-responses", t), state);
      state = r.state;
      return r.body;
    };
    expect(step(2, 0)).toEqual(responsesBody(2));
    expect(step(3, 30 * MIN)).toEqual(responsesBody(3)); // 30 min: not idle
    const afterIdle = step(3, 91 * MIN); // 61 min since the previous call
    const e3 = responsesBody(3);
    (e3.input as JsonObject[])[2] = { ...fco(1), output: PH };
    (e3.input as JsonObject[])[4] = { ...fco(2), output: PH };
    expect(afterIdle).toEqual(e3);
    expect(state).toEqual({ last_time_ms: 91 * MIN, cleared: ["r1", "r2"] });
    const later = step(4, 92 * MIN); // not idle: r3 stays, r1/r2 stay cleared
    const e4 = responsesBody(4);
    (e4.input as JsonObject[])[2] = { ...fco(1), output: PH };
    (e4.input as JsonObject[])[4] = { ...fco(2), output: PH };
    expect(later).toEqual(e4);
  });

  it("uses Claude Code's numbers by default: 60 minutes, keep 5", () => {
    const s = createIdleMicrocompact();
    const first = s.apply(responsesBody(7), ctx("openai-responses", 0), s.initial());
    const idle = s.apply(responsesBody(7), ctx("openai-responses", 60 * MIN), first.state);
    expect(idle.state.cleared).toEqual(["r1", "r2"]);
  });
});

describe("strategy registry", () => {
  it("runs none first, rejects unknown names and an unwired sluice", () => {
    expect(resolveStrategies(["observation-mask", "none", "observation-mask"], null).map((s) => s.name)).toEqual(["none", "observation-mask"]);
    expect(() => resolveStrategies(["magic"], null)).toThrow('--strategies: unknown strategy "magic"');
    expect(() => resolveStrategies(["sluice"], null)).toThrow("strategy sluice: not wired in this run (--sluice off)");
    expect(resolveStrategies(["sluice"], createSluiceStrategy(async (body) => ({ body, info: {} }))).map((s) => s.kind)).toEqual(["pure", "sluice"]);
  });
});

describe("repeated tool call ids (tau-bench reuses tool_call_id)", () => {
  const dup = (): JsonObject => ({
    model: "gpt-4o",
    messages: [
      { role: "user", content: "hi" },
      { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "get", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "c1", content: "first" },
      { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "get", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "c1", content: "second" },
    ],
  });

  it("pairs results by position, so an unchanged body removes nothing and a mask removes only the older one", () => {
    expect(findRemovedResults("openai-chat", dup(), dup())).toEqual([]);
    const out = createObservationMask({ keep: 1 }).apply(dup(), ctx("openai-chat"), null).body;
    expect((out.messages as JsonObject[]).slice(2)).toEqual([
      { role: "tool", tool_call_id: "c1", content: "Old environment output: (1 lines omitted)" },
      { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "get", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "c1", content: "second" },
    ]);
    expect(findRemovedResults("openai-chat", dup(), out)).toEqual(["c1"]);
    const clear = createAnthropicClear({ trigger_tokens: 1, keep: 1, placeholder: "[cleared]" }).apply(dup(), ctx("openai-chat"), null).body;
    expect(findRemovedResults("openai-chat", dup(), clear)).toEqual(["c1"]);
    expect(findRemovedResults("openai-chat", out, dup())).toEqual(["c1"]);
  });
});
