/** The scripted model (tools/e2e/script-*.ts) and the system-message rule of its upstream. */
import { describe, expect, it } from "vitest";
import { anthropicReply, anthropicStep } from "../../tools/e2e/script-anthropic";
import { compactReply, responsesReply, responsesStep } from "../../tools/e2e/script-responses";
import { codeModeSource, compactedStep, compactionItem, isCodeMode } from "../../tools/e2e/responses-lite";
import { SESSION_PLAN } from "../../tools/e2e/session-plan";
import type { Json, JsonObject } from "../../tools/emulator/shared/json";
import { needsSystemShim, systemAsUser, systemMessageProblem } from "../../tools/e2e/system-message-rule";

const run = { projectDir: "/p", label: "t" };

describe("anthropic script", () => {
  const body = (lastId: string | null, thinking?: Json): Json => ({
    tools: [{ name: "Read" }],
    ...(thinking ? { thinking } : {}),
    messages: [{ role: "user", content: "go" }, ...(lastId ? [{ role: "user", content: [{ type: "tool_result", tool_use_id: lastId, content: "x" }] }] : [])],
  });
  it("answers step 0 first, then one past the highest answered step", () => {
    expect([anthropicStep(body(null)), anthropicStep(body("toolu_e2e_13"))]).toEqual([0, 14]);
  });
  it("reads the first file, with an omitted thinking block and its signature when thinking is adaptive", () => {
    expect(anthropicReply(body(null, { type: "adaptive", display: "omitted" }), run)).toEqual([
      { type: "thinking", thinking: "", signature: Buffer.from("e2e-signature:t:0").toString("base64") },
      { type: "tool_use", id: "toolu_e2e_0", name: "Read", input: { file_path: "/p/src/module_01.ts" } },
    ]);
  });
  it("ends with the final text and answers side calls with text", () => {
    expect(anthropicReply(body(`toolu_e2e_${SESSION_PLAN.length - 2}`), run)).toEqual([{ type: "text", text: (SESSION_PLAN.at(-1) as { text: string }).text }]);
    expect(anthropicReply({ messages: [] }, run)).toEqual([{ type: "text", text: "OK" }]);
  });
});

describe("responses script", () => {
  it("answers an edit step with its reasoning item and an apply_patch custom tool call", () => {
    const body = { tools: [{ name: "exec_command" }], input: [{ type: "function_call_output", call_id: "call_e2e_21", output: "x" }] };
    expect(responsesStep(body)).toBe(22);
    expect(responsesReply(body, run)).toEqual([
      { type: "reasoning", summary: [], encrypted_content: Buffer.from("e2e-reasoning:t:22").toString("base64") },
      {
        type: "custom_tool_call",
        name: "apply_patch",
        call_id: "call_e2e_22",
        input: '*** Begin Patch\n*** Update File: src/module_01.ts\n@@\n-export const MARKER_src_module_01_ts = "v1";\n+export const MARKER_src_module_01_ts = "v2";\n*** End Patch\n',
      },
    ]);
  });
});

describe("responses script, Codex's default model (Responses Lite, code mode)", () => {
  // The first input item as Codex 0.171.0 sends it for gpt-6.2-sol (descriptions cut).
  const additionalTools: JsonObject = {
    type: "additional_tools",
    id: "at_1",
    role: "developer",
    tools: [
      { type: "namespace", name: "functions", description: "", tools: [{ type: "custom", name: "exec", description: "Run JavaScript", format: { type: "grammar", syntax: "lark", definition: "start: SOURCE" } }, { type: "function", name: "wait", description: "", strict: false, parameters: {} }] },
      { type: "namespace", name: "clock", description: "Tools for reading and waiting on time.", tools: [{ type: "function", name: "sleep", description: "", strict: false, parameters: {} }] },
    ],
  };
  const output = (step: number): JsonObject => ({ type: "custom_tool_call_output", id: `ctco_${step}`, call_id: `call_e2e_${step}`, output: [{ type: "input_text", text: "Script completed\nWall time 0.1 seconds\nOutput:\n" }, { type: "input_text", text: "x" }] });
  const user: JsonObject = { type: "message", id: "msg_1", role: "user", content: [{ type: "input_text", text: "go" }] };

  it("recognises code mode by the custom exec tool inside a namespace of additional_tools, not by a namespace named like it", () => {
    expect([isCodeMode({ input: [additionalTools, user] }), isCodeMode({ input: [{ ...additionalTools, tools: [{ type: "namespace", name: "exec", tools: [] }] }, user] }), isCodeMode({ tools: [{ type: "custom", name: "exec" }], input: [user] })]).toEqual([true, false, false]);
  });

  it("reads the first file with an exec call whose JavaScript runs cat through tools.exec_command", () => {
    expect(responsesReply({ input: [additionalTools, user] }, run)).toEqual([
      { type: "reasoning", summary: [], encrypted_content: Buffer.from("e2e-reasoning:t:0").toString("base64") },
      { type: "custom_tool_call", name: "exec", call_id: "call_e2e_0", input: 'const r = await tools.exec_command({ cmd: "cat src/module_01.ts", workdir: "/p" });\ntext(r.output);' },
    ]);
  });

  it("edits with tools.apply_patch and the same patch text the classic tool gets", () => {
    expect(codeModeSource(SESSION_PLAN[22] as Exclude<(typeof SESSION_PLAN)[number], { kind: "final" }>, "/p")).toBe(
      'text(await tools.apply_patch("*** Begin Patch\\n*** Update File: src/module_01.ts\\n@@\\n-export const MARKER_src_module_01_ts = \\"v1\\";\\n+export const MARKER_src_module_01_ts = \\"v2\\";\\n*** End Patch\\n"));',
    );
    expect((responsesReply({ input: [additionalTools, user, output(21)] }, run)[1] as { input: string }).input).toBe(codeModeSource(SESSION_PLAN[22] as Exclude<(typeof SESSION_PLAN)[number], { kind: "final" }>, "/p"));
  });

  it("answers a compaction_trigger with a compaction item carrying the last answered step, and goes on after it", () => {
    const trigger = { input: [additionalTools, user, output(12), output(13), { type: "compaction_trigger" }] };
    const item = responsesReply(trigger, run);
    expect(item).toEqual([{ type: "compaction", encrypted_content: Buffer.from("e2e-compaction:t:13").toString("base64") }]);
    expect(compactedStep(item)).toBe(13);
    const after = { input: [additionalTools, user, { ...(item[0] as JsonObject), id: "cmp_1" }] };
    expect(responsesStep(after)).toBe(14);
    expect((responsesReply(after, run)[1] as { call_id: string }).call_id).toBe("call_e2e_14");
  });

  it("ignores compaction items it did not mint", () => {
    expect(compactedStep([{ type: "compaction", encrypted_content: Buffer.from("other:7").toString("base64") }, compactionItem("t", 3)])).toBe(3);
  });

  it("answers POST /v1/responses/compact with one compaction item and usage", () => {
    expect(compactReply({ model: "gpt-6.2-sol", input: [user, output(4)] }, run, 7, 1_800_000_000, 1234)).toEqual({
      id: "resp_cmp_e2e7",
      object: "response.compaction",
      created_at: 1_800_000_000,
      output: [{ type: "compaction", encrypted_content: Buffer.from("e2e-compaction:t:4").toString("base64"), id: "cmp_e2e7" }],
      usage: { input_tokens: 1234, input_tokens_details: { cached_tokens: 0 }, output_tokens: 6, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 1240 },
    });
  });

  it("answers a side call without the exec tool with text", () => {
    expect(responsesReply({ input: [user] }, run)).toEqual([{ type: "message", role: "assistant", content: [{ type: "output_text", text: "OK", annotations: [] }] }]);
  });
});

describe("system-message rule", () => {
  const ok = { messages: [{ role: "user", content: "a" }, { role: "system", content: "s" }, { role: "assistant", content: "b" }] };
  const bad = { messages: [{ role: "user", content: "a" }, { role: "assistant", content: "b" }, { role: "system", content: "s" }, { role: "assistant", content: "c" }] };
  it("accepts a system message right after a user message and refuses one after an assistant message", () => {
    expect(systemMessageProblem(ok)).toBeNull();
    expect(systemMessageProblem(bad)).toBe("messages.2: a system message must directly follow a user message (found assistant before it)");
  });
  it("shims only the emulator's unknown-role rejection of a system message", () => {
    expect(needsSystemShim(ok, "messages.1.role: Input should be 'user' or 'assistant'")).toBe(true);
    expect(needsSystemShim(ok, "messages.0.role: Input should be 'user' or 'assistant'")).toBe(false);
    expect(systemAsUser(ok)).toEqual({ messages: [{ role: "user", content: "a" }, { role: "user", content: "s" }, { role: "assistant", content: "b" }] });
  });
});
