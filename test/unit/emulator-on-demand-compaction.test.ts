/**
 * Anthropic on-demand compaction in the emulator (tools/emulator/anthropic/on-demand-compaction.ts;
 * platform.claude.com build-with-claude/compaction-on-demand, beta compact-2026-09-04): the
 * request's validation (beta, shape, never with context_management), the answer (one signed
 * block, stop_reason "compaction", billed as a prompt read plus the summary written), the signed
 * block's return (beta required, content as signed), and the stream.
 */
import { describe, expect, it } from "vitest";
import { compactionSignature } from "../../tools/emulator/anthropic/on-demand-compaction";
import { segmentAnthropicPrompt } from "../../tools/emulator/anthropic/segment-prompt";
import { handleRequest } from "../../tools/emulator/handle-request";
import { parseSse } from "../../tools/emulator/shared/sse";
import { createState } from "../../tools/emulator/state";

const T0 = 1_800_000_000_000;
const BETA = { "anthropic-beta": "compact-2026-09-04" };
const MESSAGES = [
  { role: "user", content: "Review the modules." },
  { role: "assistant", content: "Module a is fine." },
  { role: "user", content: "And module b?" },
];
const body = (extra: object = {}, messages: object[] = MESSAGES) => ({ model: "claude-opus-5-5", max_tokens: 64, messages, ...extra });
const send = (b: object, headers: Record<string, string> = BETA) =>
  handleRequest(createState(), { method: "POST", path: "/v1/messages", headers: { "x-api-key": "k", "x-emulator-time": String(T0), ...headers }, body: JSON.stringify(b) }, T0);
const error = (r: { status: number; body: string }) => [r.status, JSON.parse(r.body).error.message];
const SUMMARY = "Summary of 3 messages.";
const SIGNED = { type: "compaction", content: SUMMARY, signature: compactionSignature(SUMMARY) };
const tokensOf = (b: object) => segmentAnthropicPrompt(b as never).reduce((n, s) => n + s.tokens, 0);

describe("on-demand compaction: the request", () => {
  it.each([
    ["no beta", body({ compaction: { type: "summarize" } }), {}, "compaction: Extra inputs are not permitted"],
    ["not an object", body({ compaction: "summarize" }), BETA, "compaction: Input should be a valid dictionary or object"],
    ["another type", body({ compaction: { type: "truncate" } }), BETA, "compaction.type: Input should be 'summarize'"],
    ["an unknown key", body({ compaction: { type: "summarize", keep: 2 } }), BETA, "compaction.keep: Extra inputs are not permitted"],
    ["instructions not a string", body({ compaction: { type: "summarize", instructions: 3 } }), BETA, "compaction.instructions: Input should be a valid string"],
    [
      "with context_management",
      body({ compaction: { type: "summarize" }, context_management: { edits: [{ type: "clear_tool_uses_20250919" }] } }),
      { "anthropic-beta": "compact-2026-09-04,context-management-2025-06-27" },
      "compaction: cannot be combined with `context_management`",
    ],
  ])("refused: %s", (_, b, headers, message) => {
    expect(error(send(b, headers))).toEqual([400, message]);
  });

  it("answered with one signed compaction block, stop_reason compaction, the prompt read and the summary written billed", () => {
    const r = send(body({ compaction: { type: "summarize", instructions: "Keep file names." } }));
    const msg = JSON.parse(r.body);
    expect([r.status, msg.content, msg.stop_reason]).toEqual([200, [SIGNED], "compaction"]);
    const prompt = tokensOf(body());
    const summary = tokensOf(body({}, [{ role: "assistant", content: [{ type: "text", text: SUMMARY }] }])) - tokensOf(body({}, [{ role: "assistant", content: [{ type: "text", text: "" }] }]));
    expect(msg.usage).toMatchObject({ input_tokens: prompt, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: summary });
    // claude-opus-5-5: $4 input, $20 output per million tokens.
    expect(r.headers["x-emulator-cost-usd"]).toBe(`0.${String(prompt * 4_000 + summary * 20_000).padStart(9, "0")}`);
  });

  it("streams the block's content, then its signature", () => {
    const events = parseSse(send(body({ compaction: { type: "summarize" }, stream: true })).body).map((e) => JSON.parse(e.data));
    expect(events.slice(2, 6)).toEqual([
      { type: "content_block_start", index: 0, content_block: { type: "compaction", content: null, signature: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "compaction_delta", content: SUMMARY } },
      { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: SIGNED.signature } },
      { type: "content_block_stop", index: 0 },
    ]);
    expect(events.find((e) => e.type === "message_delta").delta.stop_reason).toBe("compaction");
  });
});

describe("on-demand compaction: the block sent back", () => {
  // The returned message goes first, in place of the messages it summarises (compaction-background: "put the returned message in their place").
  const later = (block: object) => body({}, [{ role: "assistant", content: [block] }, { role: "user", content: "Go on." }]);

  it("the returned message first in messages, with the beta: served (A7 does not apply to it), billed as sent", () => {
    const r = send(later(SIGNED));
    expect([r.status, JSON.parse(r.body).stop_reason]).toEqual([200, "end_turn"]);
    expect(JSON.parse(r.body).usage.input_tokens).toBe(tokensOf(later(SIGNED)));
  });

  it("an assistant message first without a compaction block is still refused (A7)", () => {
    expect(error(send(body({}, [{ role: "assistant", content: "Hi." }, { role: "user", content: "Go on." }])))).toEqual([400, 'messages: first message must use the "user" role']);
  });

  it("without the beta: refused", () => {
    expect(error(send(later(SIGNED), {}))).toEqual([400, "messages.0.content.0: a signed `compaction` block requires the beta `compact-2026-09-04`"]);
  });

  it("with its content changed (a proxy that edits the summary): refused", () => {
    expect(error(send(later({ ...SIGNED, content: "Summary of 2 messages." })))).toEqual([400, "messages.0.content.0: Invalid `signature` in `compaction` block"]);
  });
});
