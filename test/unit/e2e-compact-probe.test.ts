/** tools/e2e/compact-probe.ts: the body of the /responses/compact probe and its verdict. */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { compactBody, judgeProbe, probeHeaders } from "../../tools/e2e/compact-probe";
import type { RecordedRequest } from "../../tools/e2e/request-record";
import type { Json } from "../../tools/emulator/shared/json";

const input: Json[] = [{ type: "message", role: "user", content: "go" }, { type: "compaction_trigger" }];
const source = { model: "gpt-6.2-sol", stream: true, input, tool_choice: "auto", parallel_tool_calls: false, reasoning: { effort: "low", context: "all_turns" }, store: false, include: ["reasoning.encrypted_content"], prompt_cache_key: "s1", text: { verbosity: "low" }, client_metadata: { a: "b" } };

describe("compactBody", () => {
  it("keeps what Codex's compaction client posts (model, input without the trigger, tools, parallel_tool_calls, reasoning, prompt_cache_key, text) in that order", () => {
    expect(JSON.stringify(compactBody(source))).toBe(
      '{"model":"gpt-6.2-sol","input":[{"type":"message","role":"user","content":"go"}],"tools":[],"parallel_tool_calls":false,"reasoning":{"effort":"low","context":"all_turns"},"prompt_cache_key":"s1","text":{"verbosity":"low"}}',
    );
    expect(compactBody({ model: "m", instructions: "be brief", tools: [{ type: "function", name: "f" }], input: [] })).toEqual({ model: "m", input: [], instructions: "be brief", tools: [{ type: "function", name: "f" }], parallel_tool_calls: false });
  });
});

describe("probeHeaders", () => {
  it("keeps the source's identity headers, not its transport headers or key", () => {
    const rec = { headers: { "session-id": "s1", originator: "codex_exec", "content-length": "9", host: "h", authorization: "Bearer old", accept: "text/event-stream" } } as unknown as RecordedRequest;
    expect(probeHeaders(rec, "k")).toEqual({ "session-id": "s1", originator: "codex_exec", "content-type": "application/json", authorization: "Bearer k" });
  });
});

describe("judgeProbe", () => {
  const sent = Buffer.from('{"model":"m","input":[]}');
  const answer = Buffer.from('{"object":"response.compaction"}');
  const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
  const received = (over: Partial<RecordedRequest> = {}): RecordedRequest => ({ seq: 1, method: "POST", url: "/v1/responses/compact", headers: {}, bytes: sent.length, body: sent.toString(), status: 200, responseHeaders: {}, rejection: null, responseSha256: sha(answer), ...over });
  const headers = new Headers({ "x-sluice-request-id": "r", "content-type": "application/json" });

  it("passes a request and an answer that went through unchanged", () => {
    expect(judgeProbe(sent, { status: 200, body: answer, headers }, [received()])).toEqual({ status: 200, bytes: 24, request_untouched: true, answer_untouched: true, sluice_headers: ["x-sluice-request-id"] });
  });

  it("flags a changed body, a changed answer, a second request and Sluice's compaction header", () => {
    const changed = judgeProbe(sent, { status: 200, body: Buffer.from("{}"), headers: new Headers({ "x-sluice-compaction": "skipped" }) }, [received({ body: '{"model":"m","input":[ ]}', bytes: 25 })]);
    expect(changed).toEqual({ status: 200, bytes: 24, request_untouched: false, answer_untouched: false, sluice_headers: ["x-sluice-compaction"] });
    expect(judgeProbe(sent, { status: 200, body: answer, headers }, [received(), received({ seq: 2 })]).request_untouched).toBe(false);
  });
});
