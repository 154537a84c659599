import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CASES_PATH } from "../support/shared-dir";
import { handleRequest } from "../../tools/emulator/handle-request";
import { validateChatRequest } from "../../tools/emulator/openai-chat/validate-request";
import { validateResponsesRequest } from "../../tools/emulator/openai-responses/validate-request";
import { createState } from "../../tools/emulator/state";

const caseRequest = (id: string) => JSON.parse(readFileSync(`${CASES_PATH}/${id}.json`, "utf8")).request;
const noLinks = { requiredReasoning: new Map<string, string>(), reasoningFollower: new Map<string, string>() };

describe("Chat Completions validation", () => {
  it("B06: a tool message cut off from its tool_calls message (HTTP 400, real body)", () => {
    const req = caseRequest("B06");
    expect(validateChatRequest(req)).toBeNull();
    req.messages = [req.messages[0], ...req.messages.slice(3)];
    const r = handleRequest(createState(), { method: "POST", path: "/v1/chat/completions", headers: { authorization: "Bearer k" }, body: JSON.stringify(req) }, 0);
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toEqual({
      error: {
        message: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
        type: "invalid_request_error",
        param: "messages.[1].role",
        code: null,
      },
    });
  });

  it("tool_calls without all their tool messages", () => {
    const req = caseRequest("B06");
    req.messages.splice(3, 1);
    expect(validateChatRequest(req)).toEqual({
      api: "openai",
      status: 400,
      type: "invalid_request_error",
      message:
        "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_aaaaaaaaaaaaaaaaaaaaaaaa",
      param: "messages.[2].role",
      code: null,
    });
  });

  it("a tool message answering an id the previous tool_calls did not declare", () => {
    const req = caseRequest("B06");
    req.messages[3].tool_call_id = "call_zzz";
    expect(validateChatRequest(req)).toMatchObject({ message: "Invalid parameter: 'tool_call_id' of 'call_zzz' not found in 'tool_calls' of previous message.", param: "messages.[3].tool_call_id" });
  });

  it("an empty content array", () => {
    const req = caseRequest("B06");
    req.messages[1].content = [];
    expect(validateChatRequest(req)).toMatchObject({
      message: "Invalid 'messages[1].content': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      param: "messages[1].content",
      code: "empty_array",
    });
  });
});

describe("Responses validation", () => {
  it("B08: once a reasoning item and its function_call were sent together, the call cannot come without it", () => {
    const state = createState();
    const send = (body: unknown) => handleRequest(state, { method: "POST", path: "/v1/responses", headers: { authorization: "Bearer k" }, body: JSON.stringify(body) }, 0);
    const req = caseRequest("B08");
    expect(send(req).status).toBe(200);
    const dropped = { ...req, input: req.input.filter((i: any) => i.type !== "reasoning") };
    const r = send(dropped);
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toEqual({
      error: {
        message: "Item 'fc_0a22222222222222222222222222222222222222' of type 'function_call' was provided without its required 'reasoning' item: 'rs_0a11111111111111111111111111111111111111'.",
        type: "invalid_request_error",
        param: "input",
        code: null,
      },
    });
    const orphanReasoning = { ...req, input: req.input.filter((i: any) => !i.type.startsWith("function_call")) };
    expect(JSON.parse(send(orphanReasoning).body).error.message).toBe(
      "Item 'rs_0a11111111111111111111111111111111111111' of type 'reasoning' was provided without its required following item.",
    );
  });

  it("links are learned from the emulator's own output items", () => {
    const state = createState();
    const reply = [
      { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "x" },
      { type: "function_call", id: "fc_1", call_id: "c1", name: "f", arguments: "{}" },
    ];
    const send = (body: unknown, rep?: unknown) =>
      handleRequest(state, {
        method: "POST",
        path: "/v1/responses",
        headers: { authorization: "Bearer k", ...(rep ? { "x-emulator-reply": Buffer.from(JSON.stringify(rep)).toString("base64") } : {}) },
        body: JSON.stringify(body),
      }, 0);
    const user = { type: "message", role: "user", content: "hi" };
    expect(send({ model: "gpt-5", input: [user] }, reply).status).toBe(200);
    const out = { type: "function_call_output", call_id: "c1", output: "ok" };
    expect(send({ model: "gpt-5", input: [user, ...reply, out] }).status).toBe(200);
    expect(JSON.parse(send({ model: "gpt-5", input: [user, reply[1], out] }).body).error.message).toBe(
      "Item 'fc_1' of type 'function_call' was provided without its required 'reasoning' item: 'rs_1'.",
    );
  });

  it("without a known link (items without ids, as Codex sends them) dropping reasoning is accepted", () => {
    const req = caseRequest("B08");
    const noIds = req.input.filter((i: any) => i.type !== "reasoning").map(({ id: _id, ...rest }: any) => rest);
    expect(validateResponsesRequest({ ...req, input: noIds }, noLinks)).toBeNull();
  });

  it("outputs need their call and calls need their output (by call_id)", () => {
    const req = caseRequest("B08");
    const noCall = { ...req, input: req.input.filter((i: any) => i.type !== "function_call") };
    expect(validateResponsesRequest(noCall, noLinks)).toMatchObject({ message: "No tool call found for function call output with call_id call_wx1.", param: "input", code: null });
    const noOutput = { ...req, input: req.input.filter((i: any) => i.type !== "function_call_output") };
    expect(validateResponsesRequest(noOutput, noLinks)).toMatchObject({ message: "No tool output found for function call call_wx1.", param: "input" });
    const custom = { model: "gpt-5", input: [{ type: "custom_tool_call_output", call_id: "p1", output: "done" }] };
    expect(validateResponsesRequest(custom, noLinks)?.message).toBe("No tool call found for custom tool call output with call_id p1.");
  });
});
