/** tools/e2e/compact-endpoint.ts: the scripted upstream's POST /v1/responses/compact, billed to the caller's key. */
import { describe, expect, it } from "vitest";
import { answerCompact } from "../../tools/e2e/compact-endpoint";
import { createState } from "../../tools/emulator/state";

const run = { projectDir: "/p", label: "t" };
const body = JSON.stringify({
  model: "gpt-5",
  input: [
    { type: "message", role: "user", content: "hello world" },
    { type: "function_call", name: "exec_command", arguments: "{}", call_id: "call_e2e_3" },
    { type: "function_call_output", call_id: "call_e2e_3", output: "done" },
  ],
});

describe("answerCompact", () => {
  it("answers JSON with the compaction item and bills the prompt as uncached input at the model's price (gpt-5: $1.25 in, $10 out per MTok)", () => {
    const state = createState();
    const res = answerCompact(state, { authorization: "Bearer k" }, body, run, 1_800_000_000_000);
    expect(res.status).toBe(200);
    expect(res.headers).toEqual({ "content-type": "application/json", "x-emulator-cost-usd": "0.000081250", "x-emulator-input-cost-usd": "0.000021250", "request-id": "req_emu1" });
    expect(JSON.parse(res.body)).toEqual({
      id: "resp_cmp_e2e1",
      object: "response.compaction",
      created_at: 1_800_000_000,
      output: [{ type: "compaction", encrypted_content: Buffer.from("e2e-compaction:t:3").toString("base64"), id: "cmp_e2e1" }],
      usage: { input_tokens: 17, input_tokens_details: { cached_tokens: 0 }, output_tokens: 6, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 23 },
    });
    expect(state.keys.get("openai:k|")?.totals).toEqual({ requests: 1, rejected: 0, input_tokens: 17, cache_read_tokens: 0, cache_write_tokens: 0, output_tokens: 6, cost_nano: 81_250 });
  });

  it("refuses a body without model (400 naming the parameter) and a request without a key (401)", () => {
    const state = createState();
    const bad = answerCompact(state, { authorization: "Bearer k" }, JSON.stringify({ input: [] }), run, 0);
    expect([bad.status, JSON.parse(bad.body)]).toEqual([400, { error: { message: "Missing required parameter: 'model'.", type: "invalid_request_error", param: "model", code: "missing_required_parameter" } }]);
    expect(state.keys.get("openai:k|")?.totals.rejected).toBe(1);
    expect(answerCompact(state, {}, body, run, 0).status).toBe(401);
  });
});
