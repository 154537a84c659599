/** tools/e2e/analyze-session.ts: figures of a recorded session through a recording proxy and Sluice. */
import { describe, expect, it } from "vitest";
import { analyzeSession, compactionKind } from "../../tools/e2e/analyze-session";
import { SEQ_HEADER } from "../../tools/e2e/record-proxy";
import type { RecordedRequest } from "../../tools/e2e/request-record";

const TOOLS = [{ name: "Read", input_schema: { type: "object" } }];
const msg = (role: string, text: string) => ({ role, content: [{ type: "text", text }] });

function rec(seq: number, messages: unknown[], extra: Partial<RecordedRequest> = {}): RecordedRequest {
  const body = JSON.stringify({ model: "m", max_tokens: 1, tools: TOOLS, messages });
  return { seq, method: "POST", url: "/v1/messages?beta=true", headers: {}, bytes: body.length, body, status: 200, responseHeaders: {}, rejection: null, ...extra };
}

const m1 = [msg("user", "a")];
const m2 = [...m1, msg("assistant", "b"), msg("user", "c")];
const m3 = [...m2, msg("assistant", "d"), msg("user", "e")];

describe("compactionKind", () => {
  it("names steps, skips and reasons without their numbers", () => {
    expect(
      ["compact; tier=micro; step=2; pairs_removed=3; tokens_before=9; tokens_after=5", "compact; tier=micro; step=none; skipped=not_positive; tokens_before=9", "skipped; reason=server_managed", "compact; tier=none; step=none"].map(compactionKind),
    ).toEqual(["step", "skipped=not_positive", "skipped; reason=server_managed", "compact; tier=none; step=none"]);
  });
});

describe("analyzeSession", () => {
  const sent = [rec(1, m1), rec(2, m2), rec(3, m3, { responseHeaders: { "x-sluice-compaction": "compact; tier=micro; step=none; skipped=not_positive" } })];
  const fwd = (third: unknown[]): RecordedRequest[] => [rec(11, m1), rec(12, m2), rec(13, third)].map((r, i) => ({ ...r, headers: { [SEQ_HEADER]: String(i + 1) } }));

  it("counts a forwarded history change that is not a step and that the client did not make", () => {
    const dropped = [m3[0], m3[3], m3[4]];
    const f = analyzeSession({ api: "anthropic", sent, forwarded: fwd(dropped) });
    expect(f.prefix_changes_outside_steps).toBe(1);
    expect(f.steps).toBe(0);
    expect(f.compaction_headers).toEqual({ "skipped=not_positive": 1 });
    expect([f.bytes_sent, f.bytes_forwarded - f.bytes_sent]).toEqual([sent.reduce((n, s) => n + s.bytes, 0), JSON.stringify(dropped).length - JSON.stringify(m3).length]);
  });

  it("accepts the same change at a step", () => {
    const stepped = sent.map((s, i) => (i === 2 ? { ...s, responseHeaders: { "x-sluice-compaction": "compact; tier=micro; step=1; pairs_removed=1" } } : s));
    const f = analyzeSession({ api: "anthropic", sent: stepped, forwarded: fwd([m3[0], m3[3], m3[4]]) });
    expect([f.prefix_changes_outside_steps, f.steps]).toEqual([0, 1]);
  });

  it("names each step's tier and counts the summary blocks of the last forwarded body and the compaction edits", () => {
    const stepped = sent.map((s, i) => (i === 2 ? { ...s, responseHeaders: { "x-sluice-compaction": "compact; tier=auto; step=1; pairs_removed=2" } } : s));
    const summary = msg("user", "[sluice: summary of 2 earlier tool calls; their full results were removed from this conversation]\nRan ls.");
    const forwarded = fwd([m3[0], summary, m3[4]]);
    forwarded[1] = { ...forwarded[1]!, body: forwarded[1]!.body.replace('"messages"', '"context_management":{"edits":[{"type":"compact_20260112"}]},"messages"') };
    const f = analyzeSession({ api: "anthropic", sent: stepped, forwarded });
    expect([f.step_tiers, f.summary_blocks_last, f.compaction_edits]).toEqual([{ auto: 1 }, 1, 1]);
  });

  it("counts rejected requests as validation errors", () => {
    const forwarded = fwd(m3);
    forwarded[1] = { ...forwarded[1]!, status: 400, rejection: '{"type":"error"}' };
    expect(analyzeSession({ api: "anthropic", sent, forwarded }).validation_errors).toBe(1);
  });
});

describe("analyzeSession, other routes", () => {
  it("counts a non-chat request that reached the upstream apart from validation errors", () => {
    const chat = rec(1, m1);
    const get: RecordedRequest = { ...rec(2, m1), method: "GET", url: "/v1/responses", body: "", status: 404, rejection: '{"type":"error"}' };
    const f = analyzeSession({ api: "anthropic", sent: [chat], forwarded: [chat, get] });
    expect([f.validation_errors, f.other_forwarded]).toEqual([0, { "GET /v1/responses 404": 1 }]);
  });
});

describe("analyzeSession, Codex's default model and its compaction requests", () => {
  const tools = { type: "additional_tools", role: "developer", tools: [{ type: "namespace", name: "functions", tools: [{ type: "custom", name: "exec" }] }] };
  const user = { type: "message", role: "user", content: [{ type: "input_text", text: "go" }] };
  const out = { type: "custom_tool_call_output", call_id: "call_e2e_0", output: [{ type: "input_text", text: "x" }] };
  const compaction = { type: "compaction", encrypted_content: "ZTJl" };
  function resp(seq: number, input: unknown[]): RecordedRequest {
    const body = JSON.stringify({ model: "gpt-6.2-sol", input });
    return { seq, method: "POST", url: "/openai/v1/responses", headers: {}, bytes: body.length, body, status: 200, responseHeaders: {}, rejection: null };
  }
  const sent = [resp(1, [tools, user]), resp(2, [tools, user, out, { type: "compaction_trigger" }]), resp(3, [tools, user, compaction]), resp(4, [tools, user, compaction, out, { type: "compaction_trigger" }])];
  const forwarded = sent.map((s, i) => ({ ...s, url: "/v1/responses", headers: { [SEQ_HEADER]: String(s.seq) }, ...(i === 3 ? { body: s.body.replace('"x"', '"y"') } : {}) }));

  it("takes the model from the first code-mode request, counts the trigger requests, those forwarded as sent, and the requests after a compaction", () => {
    const f = analyzeSession({ api: "openai-responses", sent, forwarded });
    expect([f.model, f.requests, f.trigger_requests, f.triggers_untouched, f.compacted_requests]).toEqual(["gpt-6.2-sol", 4, 2, 1, 2]);
  });
});
