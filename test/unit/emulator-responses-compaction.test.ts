/**
 * Responses compaction in the emulator (tools/emulator/openai-responses/compaction.ts):
 * `context_management` compaction at its threshold, Codex's `compaction_trigger`, and
 * `compaction` items sent back — their validation (R5–R7), the answer, its usage and its price.
 */
import { describe, expect, it } from "vitest";
import { compactionContent, summaryTokens } from "../../tools/emulator/openai-responses/compaction";
import { segmentResponsesPrompt } from "../../tools/emulator/openai-responses/segment-prompt";
import { handleRequest } from "../../tools/emulator/handle-request";
import { parseSse } from "../../tools/emulator/shared/sse";
import { createState } from "../../tools/emulator/state";

const T0 = 1_800_000_000_000;
const INPUT = [
  { type: "message", role: "user", content: [{ type: "input_text", text: "Run the checks." }] },
  { type: "function_call", call_id: "c1", name: "shell", arguments: "{\"cmd\":\"make\"}" },
  { type: "function_call_output", call_id: "c1", output: "all green ".repeat(200) },
  { type: "message", role: "user", content: [{ type: "input_text", text: "Next." }] },
];
// gpt-4o: $2.50 input, $10 output per million tokens; no breakpoint caching, nothing under 1,024 tokens cached.
const body = (input: object[], extra: object = {}) => ({ model: "gpt-4o", input, store: false, ...extra });
const send = (b: object) => handleRequest(createState(), { method: "POST", path: "/v1/responses", headers: { authorization: "Bearer k", "x-emulator-time": String(T0) }, body: JSON.stringify(b) }, T0);
const error = (r: { status: number; body: string }) => {
  const e = JSON.parse(r.body).error;
  return [r.status, e.message, e.param, e.code];
};
const promptOf = (b: object) => segmentResponsesPrompt(b as never, false).reduce((n, s) => n + s.tokens, 0);
const nanoUsd = (n: number) => `0.${String(n).padStart(9, "0")}`;

describe("R5–R7", () => {
  it.each([
    ["context_management not a list", body(INPUT, { context_management: { type: "compaction" } }), ["Invalid type for 'context_management': expected an array of objects, but got an object instead.", "context_management", "invalid_type"]],
    ["an unknown entry type", body(INPUT, { context_management: [{ type: "truncation" }] }), ["Invalid value: 'truncation'. Supported values are: 'compaction'.", "context_management[0].type", "invalid_value"]],
    ["a threshold that is not a positive integer", body(INPUT, { context_management: [{ type: "compaction", compact_threshold: 0 }] }), ["Invalid 'context_management[0].compact_threshold': expected an integer greater than or equal to 1.", "context_management[0].compact_threshold", "invalid_value"]],
    ["a trigger that is not last", body([...INPUT.slice(0, 3), { type: "compaction_trigger" }, INPUT[3]!]), ["The 'compaction_trigger' item must be the final input item.", "input", null]],
    ["a trigger with an id", body([...INPUT, { type: "compaction_trigger", id: "ct_1" }]), ["Unknown parameter: 'input[4].id'.", "input[4].id", "unknown_parameter"]],
    ["an emulator compaction item changed", body([{ type: "compaction", id: "cmp_emu1", encrypted_content: compactionContent(4).slice(0, -2) }, ...INPUT]), ["The encrypted content for item cmp_emu1 could not be verified.", "input", "invalid_encrypted_content"]],
  ])("refused: %s", (_, b, expected) => {
    expect(error(send(b))).toEqual([400, ...expected]);
  });

  it("accepted: an emulator compaction item as issued, and one minted elsewhere (not checkable)", () => {
    expect(send(body([{ type: "compaction", id: "cmp_emu1", encrypted_content: compactionContent(4) }, ...INPUT])).status).toBe(200);
    expect(send(body([{ type: "compaction", id: "cmp_x", encrypted_content: "gAAAAB-opaque" }, ...INPUT])).status).toBe(200);
  });
});

describe("compaction_trigger", () => {
  it("answered with exactly one compaction item, the prompt read and the summary written billed", () => {
    const b = body([...INPUT, { type: "compaction_trigger" }]);
    const r = send(b);
    const res = JSON.parse(r.body);
    expect(res.output).toEqual([{ type: "compaction", id: expect.stringMatching(/^cmp_emu\d+$/), encrypted_content: compactionContent(4) }]);
    const prompt = promptOf(b);
    expect(res.usage).toMatchObject({ input_tokens: prompt, input_tokens_details: { cached_tokens: 0 }, output_tokens: summaryTokens(4) });
    expect(r.headers["x-emulator-cost-usd"]).toBe(nanoUsd(prompt * 2_500 + summaryTokens(4) * 10_000));
  });

  it("a recorded reply holding a compaction item (the e2e script's) is answered as recorded", () => {
    const reply = Buffer.from(JSON.stringify([{ type: "compaction", encrypted_content: "ZTJl" }])).toString("base64");
    const r = handleRequest(createState(), { method: "POST", path: "/v1/responses", headers: { authorization: "Bearer k", "x-emulator-time": String(T0), "x-emulator-reply": reply }, body: JSON.stringify(body([...INPUT, { type: "compaction_trigger" }])) }, T0);
    expect(JSON.parse(r.body).output).toEqual([{ type: "compaction", encrypted_content: "ZTJl", id: expect.stringMatching(/^item_emu\d+_0$/), status: "completed" }]);
  });

  it("streams the item as output_item.added / done", () => {
    const events = parseSse(send(body([...INPUT, { type: "compaction_trigger" }], { stream: true })).body).map((e) => JSON.parse(e.data));
    expect(events.filter((e) => e.type.startsWith("response.output_item")).map((e) => [e.type, e.item.type])).toEqual([
      ["response.output_item.added", "compaction"],
      ["response.output_item.done", "compaction"],
    ]);
  });
});

describe("context_management compaction", () => {
  const prompt = promptOf(body(INPUT));
  it("at the threshold: the compaction item first, then the reply; both outputs billed", () => {
    const r = send(body(INPUT, { context_management: [{ type: "compaction", compact_threshold: prompt }] }));
    const res = JSON.parse(r.body);
    expect(res.output.map((i: { type: string }) => i.type)).toEqual(["compaction", "message"]);
    expect(res.output[0].encrypted_content).toBe(compactionContent(4));
    const reply = res.usage.output_tokens - summaryTokens(4);
    expect(reply).toBeGreaterThan(0);
    expect(r.headers["x-emulator-cost-usd"]).toBe(nanoUsd(prompt * 2_500 + (summaryTokens(4) + reply) * 10_000));
  });

  it("under the threshold, or without one: a plain reply", () => {
    for (const cm of [[{ type: "compaction", compact_threshold: prompt + 1 }], [{ type: "compaction" }]]) {
      expect(JSON.parse(send(body(INPUT, { context_management: cm })).body).output.map((i: { type: string }) => i.type)).toEqual(["message"]);
    }
  });
});
