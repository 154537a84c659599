/** The scripted model (tools/e2e/script-*.ts) and the system-message rule of its upstream. */
import { describe, expect, it } from "vitest";
import { anthropicReply, anthropicStep } from "../../tools/e2e/script-anthropic";
import { responsesReply, responsesStep } from "../../tools/e2e/script-responses";
import { SESSION_PLAN } from "../../tools/e2e/session-plan";
import type { Json } from "../../tools/emulator/shared/json";
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
