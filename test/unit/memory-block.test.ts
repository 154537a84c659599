/**
 * `memory_inject`, the pure parts: the archival summaries taken from a ledger
 * (src/core/memory/archival-summaries.ts), the block's exact text and its bound
 * (src/core/memory/render-memory-block.ts), its element and place for each wire format
 * (src/providers/shared/memory-message.ts), the guarantee checker's `inserted` option
 * (src/core/plan/check-guarantee.ts) and the gateway's decision (src/gateway/decide-forward.ts).
 */
import { describe, expect, it } from "vitest";
import type { TierMap } from "../../src/core/memory/build-tier-map";
import { ledgerSummaries, withArchivalSummaries } from "../../src/core/memory/archival-summaries";
import { MEMORY_BLOCK_MAX_CHARS, REFERENCE_MAX_LINES, renderMemoryBlock } from "../../src/core/memory/render-memory-block";
import type { LedgerEntry } from "../../src/core/policy/ledger";
import { checkGuarantee } from "../../src/core/plan/check-guarantee";
import { memoryInsertion, memoryMessageBytes, memoryPlaceable } from "../../src/providers/shared/memory-message";
import { spliceOut } from "../../src/providers/shared/splice";
import { anthropicAdapter } from "../../src/providers/anthropic-messages";
import { openaiChatAdapter } from "../../src/providers/openai-chat";
import { openaiResponsesAdapter } from "../../src/providers/openai-responses";
import type { ProviderAdapter } from "../../src/providers/types";
import type { Provider } from "../../src/core/view/types";
import { prepareCompaction } from "../../src/gateway/prepare-compaction";
import { decideForward } from "../../src/gateway/decide-forward";
import type { StepOutput } from "../../src/session/contract";
import { estimateTokens } from "../../src/core/tokens/estimate";
import { validateAnthropicRequest } from "../../tools/emulator/anthropic/validate-request";
import { validateChatRequest } from "../../tools/emulator/openai-chat/validate-request";
import { validateResponsesRequest } from "../../tools/emulator/openai-responses/validate-request";
import { newCoreCaches } from "../../src/core/caches";

const utf8 = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);

const MAP: TierMap = {
  working: { from_message: 40, from_turn: 20, turns: 4 },
  reference: {
    "error:Exit code 2": { kind: "error", key: "Exit code 2", pair_ids: ["t3"], first_message: 6, last_message: 6, count: 1 },
    "tool:Bash": { kind: "tool", key: "Bash", pair_ids: ["t1", "t3"], first_message: 1, last_message: 5, count: 2 },
    "tool:Read": { kind: "tool", key: "Read", pair_ids: ["t2"], first_message: 3, last_message: 3, count: 1 },
    "path:0255de88e6d23649": { kind: "path", key: "0255de88e6d23649", pair_ids: ["t2", "t4"], first_message: 3, last_message: 17, count: 5 },
    "command:9f1c2a7b3d4e5f60": { kind: "command", key: "9f1c2a7b3d4e5f60", pair_ids: ["t1"], first_message: 1, last_message: 1, count: 1 },
  },
  archival: [
    { from_turn: 0, to_turn: 19, from_message: 0, to_message: 39, tool_calls: 2, tool_counts: { Bash: 1, Read: 1 }, errors: 0, est_tokens: 1200, pair_ids: ["t1", "t2"] },
    { from_turn: 20, to_turn: 21, from_message: 40, to_message: 44, tool_calls: 1, tool_counts: { Bash: 1 }, errors: 1, est_tokens: 300, pair_ids: ["t3"] },
  ],
};
const entry = (pair_id: string, step: number, action: LedgerEntry["action"]): LedgerEntry => ({ pair_id, result_hash: `h-${pair_id}`, action, step, first_seen_ms: 0 });

describe("archival summaries from the ledger", () => {
  const ledger = [
    entry("t9", 3, { kind: "summarize", covers: ["t9"], text: "Later: ran the linter." }),
    entry("t1", 2, { kind: "summarize", covers: ["t1", "t2"], text: "Built the project; read src/a.ts." }),
    entry("t2", 2, { kind: "drop_pair" }),
    entry("t5", 4, { kind: "summarize", covers: ["t5"], text: null }),
  ];

  it("every summarize entry with a written text, oldest step first; unwritten ones and other actions are left out", () => {
    expect(ledgerSummaries(ledger)).toEqual([
      { covers: 2, text: "Built the project; read src/a.ts.", covered_ids: ["t1", "t2"] },
      { covers: 1, text: "Later: ran the linter.", covered_ids: ["t9"] },
    ]);
  });

  it("a stretch every call of which a summary covers gives way to it; the others keep their counts", () => {
    const map = withArchivalSummaries(MAP, ledgerSummaries(ledger));
    expect(map.archival).toEqual([MAP.archival[1]]);
    expect(map.summaries).toEqual([{ covers: 2, text: "Built the project; read src/a.ts." }, { covers: 1, text: "Later: ran the linter." }]);
    expect(withArchivalSummaries(MAP, [])).toBe(MAP);
  });
});

describe("renderMemoryBlock", () => {
  it("the header, the working set, the tools and errors (most used first) and the archival summaries, exactly; no hashed path or command keys, no message or turn numbers of the previous session", () => {
    const map = withArchivalSummaries(MAP, [{ covers: 2, text: "Built the project; read src/a.ts.", covered_ids: ["t1", "t2"] }]);
    expect(renderMemoryBlock(map)).toBe([
      "[sluice: memory of this project's previous session]",
      "Working set: the last 4 turns of the previous session.",
      "Tools and errors of the previous session (most used first):",
      "- tool Bash: 2 calls",
      '- error "Exit code 2": 1 time',
      "- tool Read: 1 call",
      "Archival summaries (oldest first):",
      "- summary of 2 tool calls:\nBuilt the project; read src/a.ts.",
      "- 2 turns: 1 tool call (Bash 1), 1 error, ~300 tokens",
    ].join("\n"));
  });

  it("an empty map, or one with only hashed path and command keys, is the header and the working set only", () => {
    const only = { "path:0255de88e6d23649": MAP.reference["path:0255de88e6d23649"]! };
    for (const reference of [{}, only]) {
      expect(renderMemoryBlock({ working: { from_message: 0, from_turn: 0, turns: 1 }, reference, archival: [] }))
        .toBe("[sluice: memory of this project's previous session]\nWorking set: the last 1 turn of the previous session.");
    }
  });

  it("bounded: at most REFERENCE_MAX_LINES reference lines, at most MEMORY_BLOCK_MAX_CHARS characters, and a last line counting what was left out", () => {
    const reference: TierMap["reference"] = {};
    for (let i = 0; i < 60; i++) reference[`error:e${i}`] = { kind: "error", key: `E${String(i).padStart(2, "0")} ${"x".repeat(150)}`, pair_ids: [`p${i}`], first_message: i, last_message: i, count: 1 };
    const block = renderMemoryBlock({ working: { from_message: 0, from_turn: 0, turns: 1 }, reference, archival: [] });
    const lines = block.split("\n");
    expect([block.length, MEMORY_BLOCK_MAX_CHARS]).toEqual([5_908, 6_000]);
    // Reference lines are 172 characters (+1 line break): after the 105 of the header and working set and the 59 of the title, 33 fit under 6,000 with room kept for the last line.
    const shown = lines.filter((l) => l.startsWith("- error "));
    expect(shown.length).toBe(33);
    expect(shown[0]!.startsWith('- error "E00 ')).toBe(true);
    expect(lines[lines.length - 1]).toBe(`[sluice: ${REFERENCE_MAX_LINES - 33} more entries left out]`);
  });

  it("a long summary text is cut to 2,000 characters ending with …", () => {
    const block = renderMemoryBlock({ working: { from_message: 0, from_turn: 0, turns: 1 }, reference: {}, archival: [], summaries: [{ covers: 3, text: "s".repeat(2_500) }] });
    expect(block.endsWith(`- summary of 3 tool calls:\n${"s".repeat(1_999)}…`)).toBe(true);
  });
});

const BLOCK = "[sluice: memory of this project's previous session]\nWorking set: the last 4 turns of the previous session.";

/** A two-turn request for each wire format: the first user message, a tool round trip, a second user message. */
const BODIES: Record<Provider, string> = {
  anthropic: JSON.stringify({
    model: "claude-sonnet-4-5", max_tokens: 100, system: "You are Claude Code.", tools: [{ name: "Read", input_schema: { type: "object" } }],
    messages: [
      { role: "user", content: "read a" },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Read", input: { p: "a" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "0123456789\nabcdefghij\n" }] },
      { role: "assistant", content: "ok" },
      { role: "user", content: "next" },
    ],
  }),
  "openai-chat": JSON.stringify({
    model: "gpt-4.1",
    messages: [
      { role: "system", content: "You are a coding agent." },
      { role: "user", content: "read a" },
      { role: "assistant", content: null, tool_calls: [{ id: "t1", type: "function", function: { name: "read", arguments: "{\"p\":\"a\"}" } }] },
      { role: "tool", tool_call_id: "t1", content: "0123456789\nabcdefghij\n" },
      { role: "assistant", content: "ok" },
      { role: "user", content: "next" },
    ],
  }),
  "openai-responses": JSON.stringify({
    model: "gpt-5", instructions: "You are Codex.",
    input: [
      { type: "message", role: "user", content: [{ type: "input_text", text: "read a" }] },
      { type: "function_call", call_id: "t1", name: "read", arguments: "{\"p\":\"a\"}" },
      { type: "function_call_output", call_id: "t1", output: "0123456789\nabcdefghij\n" },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "ok" }] },
      { type: "message", role: "user", content: [{ type: "input_text", text: "next" }] },
    ],
  }),
};
const ADAPTERS: Record<Provider, ProviderAdapter> = { anthropic: anthropicAdapter, "openai-chat": openaiChatAdapter, "openai-responses": openaiResponsesAdapter };
/** The emulator's validation of each format (tools/emulator: the rules the real APIs enforce); null = accepted. */
const EMULATOR: Record<Provider, (body: unknown) => unknown> = {
  anthropic: (b) => validateAnthropicRequest(b, { issuedThinking: new Map() }),
  "openai-chat": (b) => validateChatRequest(b),
  "openai-responses": (b) => validateResponsesRequest(b, { requiredReasoning: new Map(), reasoningFollower: new Map() }),
};
/** The element each format gets, as text. */
const ELEMENTS: Record<Provider, string> = {
  anthropic: `{"role":"system","content":${JSON.stringify(BLOCK)}}`,
  "openai-chat": `{"role":"developer","content":${JSON.stringify(BLOCK)}}`,
  "openai-responses": `{"type":"message","role":"developer","content":${JSON.stringify(BLOCK)}}`,
};
/** The first user message's text, after which the element goes. */
const FIRST_USER: Record<Provider, string> = {
  anthropic: `{"role":"user","content":"read a"}`,
  "openai-chat": `{"role":"user","content":"read a"}`,
  "openai-responses": `{"type":"message","role":"user","content":[{"type":"input_text","text":"read a"}]}`,
};

describe.each(Object.keys(BODIES) as Provider[])("memory block in %s", (provider) => {
  const adapter = ADAPTERS[provider];
  const input = utf8(BODIES[provider]);
  const element = memoryMessageBytes(provider, BLOCK);
  const withBlockAfter = (anchor: string, el = ELEMENTS[provider]) => {
    const at = BODIES[provider].indexOf(anchor) + anchor.length;
    return utf8(BODIES[provider].slice(0, at) + "," + el + BODIES[provider].slice(at));
  };
  const expected = withBlockAfter(FIRST_USER[provider]);

  it("its element, placed directly after the first user message: the exact bytes", () => {
    expect(text(element)).toBe(ELEMENTS[provider]);
    const root = adapter.read(input, newCoreCaches()).root;
    const ins = memoryInsertion(provider, input, root, adapter.historyKey, element)!;
    expect(text(spliceOut(input, [], [ins]))).toBe(text(expected));
    expect(EMULATOR[provider](JSON.parse(text(expected)))).toBeNull();
  });

  it("the checker accepts exactly that element there, and the provider's rules hold", () => {
    const r = checkGuarantee(adapter, input, expected, { inserted: element });
    expect([r.ok, r.violations]).toEqual([true, []]);
    expect(r.output!.view.messages.length).toBe(adapter.read(input, newCoreCaches()).view.messages.length + 1);
  });

  it("the checker rejects a changed byte, another place, a second block, and any block at strict", () => {
    const changed = utf8(text(expected).replace("the last 4 turns", "the last 5 turns"));
    expect(checkGuarantee(adapter, input, changed, { inserted: element }).violations).toEqual(["the message after the first user message is not the inserted message's exact bytes"]);
    const elsewhere = withBlockAfter(provider === "anthropic" ? `{"role":"assistant","content":"ok"}` : provider === "openai-chat" ? `{"role":"assistant","content":"ok"}` : `"text":"ok"}]}`);
    expect(checkGuarantee(adapter, input, elsewhere, { inserted: element }).ok).toBe(false);
    const at = text(expected).indexOf(ELEMENTS[provider]) + ELEMENTS[provider].length;
    const twice = utf8(text(expected).slice(0, at) + "," + ELEMENTS[provider] + text(expected).slice(at));
    expect(checkGuarantee(adapter, input, twice, { inserted: element }).ok).toBe(false);
    expect(checkGuarantee(adapter, input, expected).ok).toBe(false);
    expect(checkGuarantee(adapter, input, input, { inserted: element }).violations).toEqual(["the message after the first user message is not the inserted message's exact bytes"]);
  });
});

describe("decideForward with a memory block", () => {
  const bytes = utf8(BODIES.anthropic);
  const ready = prepareCompaction("anthropic", new Headers({ "x-sluice-session": "s-m" }), bytes);
  if (ready.kind !== "ready") throw new Error("not ready");
  const step = (over: Partial<StepOutput>): StepOutput => ({
    disabled: false, tier: "none", plan: { actions: {} }, step: null, skipped: null, tokens_original: 100, tokens_after: 100, pairs_removed: 0, cost_estimate: 0, new_pair_ids: [], warnings: [], ...over,
  });
  const withBlock = BODIES.anthropic.replace(FIRST_USER.anthropic, `${FIRST_USER.anthropic},${ELEMENTS.anthropic}`);

  it("inserts the block with an empty plan, and in the same splice as the plan's cuts", () => {
    const d = decideForward(ready, bytes, step({ memory_block: BLOCK }), "compact", "c");
    expect([d.kind, text(d.body), d.report.outcome, d.report.memory_block_tokens]).toEqual(["edited", withBlock, "compacted", estimateTokens(BLOCK)]);
    const plan = { actions: { t1: { kind: "truncate_result" as const, head_bytes: 10 } } };
    const cut = decideForward(ready, bytes, step({ memory_block: BLOCK, plan, step: 1, tier: "micro" }), "compact", "c");
    expect([cut.kind, text(cut.body), cut.report.pairs_removed]).toEqual(["edited", withBlock.replace("0123456789\\nabcdefghij\\n", "0123456789"), 1]);
    expect(cut.report.tokens_sent).toBe(anthropicAdapter.read(cut.body, newCoreCaches()).view.est_tokens);
  });

  it("a block the provider's rules refuse at its place (a system message before a user message) is left out; the plan still goes", () => {
    const twoUsers = BODIES.anthropic.replace(FIRST_USER.anthropic, `${FIRST_USER.anthropic},{"role":"user","content":"and b"}`);
    const r = prepareCompaction("anthropic", new Headers({ "x-sluice-session": "s-m2" }), utf8(twoUsers));
    if (r.kind !== "ready") throw new Error("not ready");
    const inserted = utf8(twoUsers.replace(FIRST_USER.anthropic, `${FIRST_USER.anthropic},${ELEMENTS.anthropic}`));
    expect(checkGuarantee(anthropicAdapter, utf8(twoUsers), inserted, { inserted: memoryMessageBytes("anthropic", BLOCK) }).violations)
      .toEqual(["rule: messages[1]: system message before messages[2] (user), not before an assistant message or the end"]);
    const plan = { actions: { t1: { kind: "truncate_result" as const, head_bytes: 10 } } };
    const d = decideForward(r, r.parsed.bytes, step({ memory_block: BLOCK, plan, step: 1, tier: "micro" }), "compact", "c");
    expect([d.kind, text(d.body), d.report.rollback_step, d.report.memory_block_tokens]).toEqual(["edited", twoUsers.replace("0123456789\\nabcdefghij\\n", "0123456789"), null, undefined]);
    const alone = decideForward(r, r.parsed.bytes, step({ memory_block: BLOCK }), "compact", "c");
    expect([alone.kind, alone.body === r.parsed.bytes, alone.report.outcome]).toEqual(["original", true, "unchanged"]);
  });

  it("without a block, or in measurement mode, nothing is inserted", () => {
    expect(decideForward(ready, bytes, step({}), "compact", "c").body).toBe(bytes);
    const m = decideForward(ready, bytes, step({ memory_block: BLOCK }), "measure", "c");
    expect([m.kind, m.body === bytes, m.report.memory_block_tokens]).toEqual(["original", true, undefined]);
  });
});

describe("memoryPlaceable: where the block may go, per format", () => {
  const at = (provider: Provider, body: object) => {
    const bytes = utf8(JSON.stringify(body));
    return memoryPlaceable(provider, bytes, ADAPTERS[provider].read(bytes, newCoreCaches()).root, ADAPTERS[provider].historyKey);
  };
  const m = (role: string, content = "x") => ({ role, content });
  const item = (role: string) => ({ type: "message", role, content: [{ type: "input_text", text: "x" }] });
  const anthropic = (...messages: object[]) => ({ model: "claude-sonnet-4-5", max_tokens: 16, messages });

  it("Anthropic: only when an assistant message or nothing follows the first user message", () => {
    expect([
      at("anthropic", anthropic(m("user"))),
      at("anthropic", anthropic(m("user"), m("assistant"), m("user"))),
      at("anthropic", anthropic(m("user"), m("system", "Auto mode is on."), m("assistant"))),
      at("anthropic", anthropic(m("user"), m("user"), m("assistant"))),
      at("anthropic", anthropic(m("assistant"))),
    ]).toEqual([true, true, false, false, false]);
  });

  it("OpenAI Chat and Responses: after the first user message whatever follows (the APIs accept a developer message anywhere)", () => {
    expect([
      at("openai-chat", { model: "gpt-5", messages: [m("system"), m("user"), m("developer")] }),
      at("openai-chat", { model: "gpt-5", messages: [m("user"), m("user")] }),
      at("openai-chat", { model: "gpt-5", messages: [m("system")] }),
      at("openai-responses", { model: "gpt-5", input: [item("developer"), item("user"), item("developer")] }),
      at("openai-responses", { model: "gpt-5", input: [item("user"), item("user")] }),
    ]).toEqual([true, true, false, true, true]);
    const chat = `{"model":"gpt-5","messages":[{"role":"user","content":"x"},${ELEMENTS["openai-chat"]},{"role":"developer","content":"x"}]}`;
    expect(EMULATOR["openai-chat"](JSON.parse(chat))).toBeNull();
    const responses = `{"model":"gpt-5","input":[${JSON.stringify(item("user"))},${ELEMENTS["openai-responses"]},${JSON.stringify(item("developer"))}]}`;
    expect(EMULATOR["openai-responses"](JSON.parse(responses))).toBeNull();
  });

  it("Claude Code's shape (its system message right after the first user message): no insertion, the checker refuses the block there (rule A17) as the emulator does, and decideForward sends the original", () => {
    const cc = JSON.stringify(anthropic(m("user", "go"), m("system", "Auto mode is on."), m("assistant", "ok")));
    const withIt = cc.replace(`{"role":"user","content":"go"}`, `$&,${ELEMENTS.anthropic}`);
    expect(checkGuarantee(anthropicAdapter, utf8(cc), utf8(withIt), { inserted: memoryMessageBytes("anthropic", BLOCK) }).violations)
      .toEqual(["rule: messages[2]: system message after messages[1] (system), not after a user message"]);
    expect(EMULATOR.anthropic(JSON.parse(withIt))).toMatchObject({ status: 400, message: "messages.2: a `system` message must directly follow a `user` message" });
    const r = prepareCompaction("anthropic", new Headers({ "x-sluice-session": "s-cc" }), utf8(cc));
    if (r.kind !== "ready") throw new Error("not ready");
    expect(memoryInsertion("anthropic", r.parsed.bytes, r.parsed.root, anthropicAdapter.historyKey, memoryMessageBytes("anthropic", BLOCK))).toBeNull();
    const d = decideForward(r, r.parsed.bytes, { disabled: false, tier: "none", plan: { actions: {} }, step: null, skipped: null, tokens_original: 1, tokens_after: 1, pairs_removed: 0, cost_estimate: 0, new_pair_ids: [], warnings: [], memory_block: BLOCK }, "compact", "c");
    expect([d.kind, d.body === r.parsed.bytes, d.report.memory_block_tokens]).toEqual(["original", true, undefined]);
  });
});
