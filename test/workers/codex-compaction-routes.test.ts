/**
 * Codex's compaction traffic through the real compaction hook (workerd): `POST
 * /openai/v1/responses/compact` is not a chat route, so it is proxied as is with no session
 * call; a Responses request whose `input` ends with `{"type":"compaction_trigger"}` (Codex
 * 0.171.0 with the built-in provider, docs/dev/e2e-clients.md) stands aside before the session
 * and goes upstream with the client's bytes. Bodies are shaped like Codex's default model's
 * (Responses Lite: tools in an `additional_tools` item, `exec` calls with JavaScript input).
 */
import { describe, expect, it } from "vitest";
import { bytesOf, newTestId, received } from "./helpers";
import { compactVars, observedDeps, send } from "./pipeline-harness";

const history = [
  { type: "additional_tools", id: "at_1", role: "developer", tools: [{ type: "namespace", name: "functions", description: "", tools: [{ type: "custom", name: "exec", description: "Run JavaScript code", format: { type: "grammar", syntax: "lark", definition: "start: SOURCE" } }] }] },
  { type: "message", id: "msg_1", role: "developer", content: [{ type: "input_text", text: "You are Codex." }] },
  { type: "message", id: "msg_2", role: "user", content: [{ type: "input_text", text: "Read every module under src/." }] },
  ...[0, 1, 2].flatMap((n) => [
    { type: "reasoning", id: `rs_${n}`, summary: [], content: null, encrypted_content: "ZTJl" },
    { type: "custom_tool_call", id: `ctc_${n}`, status: "completed", call_id: `call_${n}`, name: "exec", input: `const r = await tools.exec_command({ cmd: "cat src/module_0${n}.ts" });\ntext(r.output);` },
    { type: "custom_tool_call_output", id: `ctco_${n}`, call_id: `call_${n}`, output: [{ type: "input_text", text: "Script completed\nOutput:\n" }, { type: "input_text", text: `export const x${n} = ${"1".repeat(4000)};` }] },
  ]),
];
const request = (input: unknown[]) => JSON.stringify({ model: "gpt-6.2-sol", stream: false, input, tool_choice: "auto", parallel_tool_calls: false, reasoning: { effort: "low", context: "all_turns" }, store: false, include: ["reasoning.encrypted_content"], prompt_cache_key: "s" });
const LITE = { "x-openai-internal-codex-responses-lite": "true" };

describe("Codex's compaction requests through the compaction hook", () => {
  it("POST /openai/v1/responses/compact: proxied as is, no session call, no compaction header; the client gets the upstream's answer", async () => {
    const id = newTestId("codex-compact");
    const o = observedDeps();
    const body = JSON.stringify({ model: "gpt-6.2-sol", input: history, tools: [], parallel_tool_calls: false, reasoning: { effort: "low", context: "all_turns" }, prompt_cache_key: "s" });
    const { res, text } = await send(compactVars({}), "/openai/v1/responses/compact", { "x-test-id": id, "x-sluice-session": id, ...LITE }, body, o.deps);
    expect([res.status, res.headers.get("x-sluice-compaction"), o.calls, o.batches]).toEqual([200, null, [], []]);
    const recs = await received(id);
    expect(recs.map((r) => [r.method, r.path, new TextDecoder().decode(bytesOf(r))])).toEqual([["POST", "/openai-upstream/v1/responses/compact", body]]);
    expect(JSON.parse(text)).toEqual({ ok: true, method: "POST", path: "/openai-upstream/v1/responses/compact", bytes: new TextEncoder().encode(body).length, attempt: 1 });
  });

  it("a request ending with compaction_trigger: forwarded as sent, skipped before the session (server_managed)", async () => {
    const id = newTestId("codex-trigger");
    const o = observedDeps();
    const body = request([...history, { type: "compaction_trigger" }]);
    const { res } = await send(compactVars({}), "/openai/v1/responses", { "x-test-id": id, "x-sluice-session": id, ...LITE }, body, o.deps);
    expect([res.status, res.headers.get("x-sluice-compaction"), o.calls]).toEqual([200, "skipped; reason=server_managed", []]);
    expect((await received(id)).map((r) => new TextDecoder().decode(bytesOf(r)))).toEqual([body]);
  });

  it("the same history without the trigger goes to the session", async () => {
    const id = newTestId("codex-lite");
    const o = observedDeps();
    const { res } = await send(compactVars({}), "/openai/v1/responses", { "x-test-id": id, "x-sluice-session": id, ...LITE }, request(history), o.deps);
    expect(res.status).toBe(200);
    expect(o.calls[0]).toBe("step");
    expect(res.headers.get("x-sluice-compaction")).toMatch(/^compact; /);
  });
});
