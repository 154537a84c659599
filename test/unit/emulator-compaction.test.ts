/**
 * The emulator's server-side compaction (tools/emulator/anthropic/apply-compaction.ts;
 * platform.claude.com build-with-claude/compaction): the edit fires at its trigger, the answer
 * starts with a deterministic compaction block, usage carries both iterations and bills both, the
 * stream carries the block as a compaction_delta, and a history holding a block is billed from it on.
 */
import { describe, expect, it } from "vitest";
import { segmentAnthropicPrompt } from "../../tools/emulator/anthropic/segment-prompt";
import { handleRequest } from "../../tools/emulator/handle-request";
import { parseSse } from "../../tools/emulator/shared/sse";
import { createState } from "../../tools/emulator/state";

const T0 = 1_800_000_000_000;
const BETA = { "anthropic-beta": "compact-2026-01-12" };
const para = (i: number) => `Paragraph ${i}: ${"the review found nothing unusual in this module ".repeat(40)}`;
/** 2n + 1 messages of prose, ≈ 330 tokens per message. */
function history(n: number): object[] {
  const m: object[] = [{ role: "user", content: "Review the modules." }];
  for (let i = 0; i < n; i++) m.push({ role: "assistant", content: para(i) }, { role: "user", content: `Next ${i}.` });
  return m;
}
const compact = (value: number) => ({ edits: [{ type: "compact_20260112", trigger: { type: "input_tokens", value } }] });
const body = (messages: object[], extra: object = {}) => ({ model: "claude-opus-5-5", max_tokens: 64, messages, ...extra });
const tokensOf = (b: object) => segmentAnthropicPrompt(b as never).reduce((n, s) => n + s.tokens, 0);
const send = (b: object, headers: Record<string, string> = BETA) =>
  handleRequest(createState(), { method: "POST", path: "/v1/messages", headers: { "x-api-key": "k", "x-emulator-time": String(T0), ...headers }, body: JSON.stringify(b) }, T0);
const BLOCK = (n: number) => ({ type: "compaction", content: `Summary of ${n} messages.`, encrypted_content: null });

describe("compact_20260112 in the emulator", () => {
  const messages = history(200); // 401 messages
  const prompt = tokensOf(body(messages));
  it("fires when the prompt holds at least the trigger: the block first, both iterations in usage, both billed", () => {
    expect(prompt).toBeGreaterThan(50_000);
    const r = send(body(messages, { context_management: compact(50_000) }));
    const msg = JSON.parse(r.body);
    expect(msg.content[0]).toEqual(BLOCK(401));
    expect(msg.content.slice(1)).toEqual([{ type: "text", text: "OK (canned emulator reply)." }]);
    const after = tokensOf(body([{ role: "assistant", content: [BLOCK(401)] }]));
    const summary = tokensOf(body([{ role: "assistant", content: [BLOCK(401)] }])) - tokensOf(body([{ role: "assistant", content: [{ type: "compaction", content: "", encrypted_content: null }] }]));
    expect(msg.usage.iterations).toEqual([
      { type: "compaction", input_tokens: prompt, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: summary },
      { type: "message", input_tokens: after, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: msg.usage.output_tokens },
    ]);
    expect(msg.usage.input_tokens).toBe(after);
    // Both iterations billed at claude-opus-5-5's $4 input / $20 output per million tokens.
    const nano = (prompt + after) * 4_000 + (summary + msg.usage.output_tokens) * 20_000;
    expect(r.headers["x-emulator-cost-usd"]).toBe(`0.${String(nano).padStart(9, "0")}`);
  });
  it("under the trigger nothing happens: no block, no iterations", () => {
    const msg = JSON.parse(send(body(messages, { context_management: compact(prompt + 1) })).body);
    expect([msg.content[0].type, msg.usage.iterations, msg.usage.input_tokens]).toEqual(["text", undefined, prompt]);
  });
  it("streams the block as content_block_start / compaction_delta / stop, the iterations in the final message_delta", () => {
    const events = parseSse(send(body(messages, { context_management: compact(50_000), stream: true })).body).map((e) => JSON.parse(e.data));
    expect(events.slice(2, 5)).toEqual([
      { type: "content_block_start", index: 0, content_block: { type: "compaction", content: null, encrypted_content: null } },
      { type: "content_block_delta", index: 0, delta: { type: "compaction_delta", content: "Summary of 401 messages.", encrypted_content: null } },
      { type: "content_block_stop", index: 0 },
    ]);
    expect(events.find((e) => e.type === "message_delta").usage.iterations.map((i: { type: string }) => i.type)).toEqual(["compaction", "message"]);
  });
  it("a history holding a block is billed from the block on (earlier messages and blocks dropped)", () => {
    const echoed = [...messages, { role: "assistant", content: [{ type: "text", text: "before" }, BLOCK(401), { type: "text", text: "ok" }] }, { role: "user", content: "Next." }];
    const msg = JSON.parse(send(body(echoed)).body);
    expect(msg.usage.input_tokens).toBe(tokensOf(body([{ role: "assistant", content: [BLOCK(401), { type: "text", text: "ok" }] }, { role: "user", content: "Next." }])));
  });
  it("validates like the API: the beta, the trigger's minimum", () => {
    expect(JSON.parse(send(body(messages, { context_management: compact(50_000) }), {}).body).error.message).toBe("context_management: Extra inputs are not permitted");
    const wrongBeta = send(body(messages, { context_management: compact(50_000) }), { "anthropic-beta": "context-management-2025-06-27" });
    expect(JSON.parse(wrongBeta.body).error.message).toBe("context_management.edits.0.type: `compact_20260112` requires the beta `compact-2026-01-12`");
    expect(JSON.parse(send(body(messages, { context_management: compact(49_999) })).body).error.message).toBe("context_management.edits.0.trigger.value: Input should be greater than or equal to 50000");
  });
});
