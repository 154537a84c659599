/**
 * The restore settings' pure parts (tools/e2e/script-restore.ts, analyze-restore.ts,
 * run-restore.ts evaluateRestore): when the scripted model restores and with which id, per
 * client's way of exposing the tool, and how the harness compares the bytes — on hand-made bodies.
 */
import { describe, expect, it } from "vitest";
import { anthropicRestore, responsesRestore } from "../../tools/e2e/script-restore";
import { anthropicReply } from "../../tools/e2e/script-anthropic";
import { analyzeRestore } from "../../tools/e2e/analyze-restore";
import { evaluateRestore, type RestoreSession } from "../../tools/e2e/run-restore";
import type { RecordedRequest } from "../../tools/e2e/request-record";
import type { Json } from "../../tools/emulator/shared/json";

const ID = "cc:k:conv:01/toolu_e2e_0";
const marked = `head\n[sluice: rest of tool result removed; restore_tool_result("${ID}")]`;
const read = { type: "tool_use", id: "toolu_e2e_0", name: "Read", input: { file_path: "/p/a.ts" } };
const messages = (...extra: Json[]): Json[] => [
  { role: "user", content: "go" },
  { role: "assistant", content: [read] },
  { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_e2e_0", content: marked }] },
  ...extra,
];

describe("the scripted model restores the first marker's id once", () => {
  it("calls Claude Code's listed tool, then goes on with the plan", () => {
    const tools = [{ name: "Read" }, { name: "mcp__sluice__restore_tool_result" }];
    const call = { type: "tool_use", id: "toolu_rst_0", name: "mcp__sluice__restore_tool_result", input: { id: ID } };
    expect(anthropicReply({ tools, messages: messages() }, { projectDir: "/p", label: "t" })).toEqual([call]);
    const after = messages({ role: "assistant", content: [call] }, { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_rst_0", content: "whole" }] });
    expect(anthropicRestore({ tools, messages: after })).toBeNull();
    expect(anthropicRestore({ tools: [{ name: "Read" }], messages: messages() })).toBeNull();
  });

  it("loads Claude Code's deferred tool with ToolSearch first", () => {
    const body = { tools: [{ name: "Read" }, { name: "ToolSearch" }], system: "Deferred tools:\nmcp__sluice__restore_tool_result\n", messages: messages() };
    const search = { type: "tool_use", id: "toolu_srch_0", name: "ToolSearch", input: { query: "select:mcp__sluice__restore_tool_result" } };
    expect(anthropicRestore(body)).toEqual(search);
    const searched = { ...body, messages: messages({ role: "assistant", content: [search] }, { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_srch_0", content: "<functions>…</functions>" }] }) };
    expect(anthropicRestore(searched)).toEqual({ type: "tool_use", id: "toolu_rst_0", name: "mcp__sluice__restore_tool_result", input: { id: ID } });
  });

  it("searches Codex's deferred namespace, then calls the tool in the namespace the search returned", () => {
    const input: Json[] = [
      { type: "message", role: "developer", content: [{ type: "input_text", text: "<tools>\nDeferred tool namespaces:\n- mcp__sluice\n</tools>" }] },
      { type: "function_call", name: "exec_command", arguments: "{}", call_id: "call_e2e_3" },
      { type: "function_call_output", call_id: "call_e2e_3", output: marked.replace("toolu_e2e_0", "call_e2e_3") },
    ];
    const tools: Json[] = [{ type: "function", name: "exec_command" }, { type: "tool_search" }];
    const search = { type: "tool_search_call", call_id: "call_srch_0", execution: "client", arguments: { query: "restore_tool_result", limit: 2 } };
    expect(responsesRestore({ tools, input })).toEqual(search);
    const output = { type: "tool_search_output", call_id: "call_srch_0", execution: "client", status: "completed", tools: [{ type: "namespace", name: "mcp__sluice", tools: [{ type: "function", name: "restore_tool_result" }] }] };
    expect(responsesRestore({ tools, input: [...input, search, output] })).toEqual({ type: "function_call", name: "restore_tool_result", namespace: "mcp__sluice", arguments: JSON.stringify({ id: "cc:k:conv:01/call_e2e_3" }), call_id: "call_rst_0" });
    // Without MCP tools deferred (no Sluice server configured) the model does not search.
    expect(responsesRestore({ tools, input: input.slice(1) })).toBeNull();
  });
});

describe("the harness compares the restored bytes", () => {
  const original = "const a = 1;\n".repeat(3);
  const rec = (seq: number, url: string, body: Json, responseBody?: string): RecordedRequest => ({ seq, method: "POST", url, headers: {}, bytes: 0, body: JSON.stringify(body), status: 200, responseHeaders: {}, rejection: null, ...(responseBody ? { responseBody } : {}) });
  const tools = [{ name: "Read" }, { name: "mcp__sluice__restore_tool_result" }];
  const chat = (delivered: string) => ({
    tools,
    messages: [
      { role: "user", content: "go" },
      { role: "assistant", content: [read] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_e2e_0", content: original }] },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_rst_0", name: "mcp__sluice__restore_tool_result", input: { id: ID } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_rst_0", content: [{ type: "text", text: delivered }] }] },
    ],
  });
  const answer = (texts: string[]) => `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: 3, result: { content: texts.map((text) => ({ type: "text", text })) } })}\n\n`;
  const mcpCall = (texts: string[]) => rec(2, "/mcp", { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "restore_tool_result", arguments: { id: ID } } }, answer(texts));

  it("holds Sluice's answer against the client's own copy of the result, and what the client handed the model against the answer", () => {
    const f = analyzeRestore("anthropic", [rec(1, "/anthropic/v1/messages", { tools, messages: [{ role: "user", content: "go" }] }), mcpCall([original]), rec(3, "/anthropic/v1/messages?beta=true", chat(original))]);
    expect(f).toEqual({
      tool_first_request: { name: "mcp__sluice__restore_tool_result" }, deferred_first_request: false, tool_list_stable: true, searched: false, mcp_requests: { "POST tools/call 200": 1 },
      restore: {
        tool: { name: "mcp__sluice__restore_tool_result" }, restore_id: ID, call_id: "toolu_e2e_0", removed_bytes: 39,
        mcp_status: 200, mcp_is_error: false, mcp_text_bytes: 39, mcp_equal: true, mcp_blocks: 1,
        delivered_text_bytes: 39, delivered_wrapped: false, delivered_equal: true, delivered_framing: null,
      },
    });
  });

  it("sees a tool the client names as deferred in its first request", () => {
    const codex = { tools: [{ name: "exec_command" }], input: [{ type: "message", role: "developer", content: [{ type: "input_text", text: "<tools>\nDeferred tool namespaces:\n- multi_agent_v1: agents\n- mcp__sluice\n</tools>" }] }] };
    const claude = { tools: [{ name: "Read" }, { name: "ToolSearch" }], system: [{ type: "text", text: "Deferred tools:\nWebFetch\nmcp__sluice__restore_tool_result\n" }], messages: [] };
    const none = { tools: [{ name: "exec_command" }], input: [{ type: "message", role: "developer", content: [{ type: "input_text", text: "Deferred tool namespaces:\n- multi_agent_v1: agents\n" }] }] };
    expect([codex, claude, none].map((b, i) => analyzeRestore(i === 1 ? "anthropic" : "openai-responses", [rec(1, i === 1 ? "/anthropic/v1/messages" : "/openai/v1/responses", b)]).deferred_first_request)).toEqual([true, true, false]);
  });

  it("accepts the client's framing around the answer, and reports an answer that differs by one byte", () => {
    const framed = analyzeRestore("anthropic", [mcpCall([original]), rec(3, "/anthropic/v1/messages", chat(`Output:\n${original}`))]).restore!;
    expect([framed.delivered_equal, framed.delivered_framing]).toEqual([true, { before: "Output:\n", after: "" }]);
    const off = analyzeRestore("anthropic", [mcpCall([original.slice(1)]), rec(3, "/anthropic/v1/messages", chat(original.slice(1)))]).restore!;
    expect([off.mcp_equal, off.mcp_text_bytes, off.delivered_equal]).toEqual([false, 38, true]);
  });

  it("passes the checks only with equal bytes and hit ratios within 1 point", () => {
    const f = analyzeRestore("anthropic", [mcpCall([original]), rec(3, "/anthropic/v1/messages", chat(original))]);
    const session = (mcp: boolean, hit: number): RestoreSession => ({
      setting: "claude-restore", mcp, completed: true, exit_code: 0, cache_hit_ratio: hit, stderr_tail: "",
      figures: { validation_errors: 0 } as RestoreSession["figures"], billed: { input_tokens: 100, uncached: 0, cache_read: 0, cache_write: 0, input_cost_usd: 0 },
      restore: mcp ? f : { ...f, restore: null },
    });
    const verdict = (a: number, b: number) => Object.fromEntries(evaluateRestore("claude-restore", session(true, a), session(false, b)).map((c) => [c.check, c.pass]));
    expect(verdict(0.9287, 0.9271)).toEqual({ completes: true, no_validation_errors: true, tool_listed_from_first_request: true, restore_called: true, restore_bytes_equal: true, cache_hit_within_1pt: true });
    expect(verdict(0.9287, 0.9135).cache_hit_within_1pt).toBe(false);
  });
});
