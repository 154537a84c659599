/**
 * What a restore session shows (pure), from what the client sent through Sluice and its MCP
 * traffic (the recording proxy keeps Sluice's MCP answers):
 * - how the client exposed Sluice's `restore_tool_result` on its first main-loop request (in
 *   `tools`, or not at all when it defers MCP tools behind a tool search), and whether every
 *   main-loop request sent the same tool list (a list that changes mid-session breaks the
 *   prompt cache);
 * - the scripted model's restore (./script-restore.ts): the id it asked for, the call id that id
 *   names, and three texts compared byte for byte —
 *   1. the removed result as the client itself sent it (its own history keeps the original):
 *      the result's text (a string, or its text parts joined with "\n", as Sluice archives it);
 *   2. the text of Sluice's MCP answer (`result.content[0].text` of the `tools/call`; a second
 *      block, the call's input, follows for a whole-pair removal);
 *   3. the text the client handed back to the model as the tool's result, against the answer's
 *      blocks as the client joins them.
 */
import { arr, isObject, prop, str, type Json } from "../emulator/shared/json";
import { routeOf, type ClientApi } from "./analyze-session";
import { MCP_PATH } from "./record-proxy";
import type { RecordedRequest } from "./request-record";
import { RESTORE_CALL_ID, RESTORE_TOOL, RESTORE_TOOL_USE_ID, SEARCH_CALL_ID, SEARCH_TOOL_USE_ID, restoreToolIn, type ExposedTool } from "./script-restore";
import { callIdOf } from "../shared/restore-marker";

/** The restore the model made and how its bytes compare. */
export interface RestoreCall {
  tool: ExposedTool;
  /** The id the model passed (from Sluice's marker). */
  restore_id: string;
  /** The tool call whose result the id names. */
  call_id: string;
  /** UTF-8 bytes of the removed result as the client sent it. */
  removed_bytes: number;
  /** Sluice's MCP answer: HTTP status, whether it was an error result, its text's UTF-8 bytes (null: no answer recorded), and whether that text equals the removed result exactly. */
  mcp_status: number | null;
  mcp_is_error: boolean;
  mcp_text_bytes: number | null;
  mcp_equal: boolean;
  /** Text blocks of Sluice's answer: 1, or 2 when it adds the call's input (a whole-pair removal). */
  mcp_blocks: number;
  /**
   * The tool result the client gave the model: its text's UTF-8 bytes, and whether it holds
   * Sluice's answer exactly — its text blocks joined with "\n" — as the whole text, after
   * unwrapping a JSON list of text parts (`delivered_wrapped`), or once, with the client's own
   * framing around it (`delivered_framing`: Codex 0.171.0 puts "Wall time: … seconds\nOutput:\n"
   * before an MCP tool's text) — i.e. the client passed the restored bytes on unchanged.
   */
  delivered_text_bytes: number;
  delivered_wrapped: boolean;
  delivered_equal: boolean;
  /** When the client's text holds the removed result once with text around it: what came before and after it. */
  delivered_framing: { before: string; after: string } | null;
}

/** A restore session's figures. */
export interface RestoreFigures {
  /** The restore tool as listed in the first main-loop request's `tools`, or null (not listed there). */
  tool_first_request: ExposedTool | null;
  /** The first main-loop request names the tool as deferred (Claude Code: `mcp__<server>__restore_tool_result` in its text; Codex: an `mcp__` namespace under "Deferred tool namespaces"). */
  deferred_first_request: boolean;
  /** Every main-loop request sent the same `tools` (compared as JSON text). */
  tool_list_stable: boolean;
  /** The model searched for the tool first (Codex's deferred MCP tools). */
  searched: boolean;
  /** MCP requests the client sent (initialize, tools/list, tools/call, …) by JSON-RPC method and answer status. */
  mcp_requests: Record<string, number>;
  restore: RestoreCall | null;
}

const bytes = (s: string) => Buffer.byteLength(s, "utf8");

/** How each client names a deferred MCP tool in a request's text (the body as JSON text, tools left out). */
const DEFERRED = new RegExp(`mcp__[A-Za-z0-9_-]+__${RESTORE_TOOL}|Deferred tool namespaces:(?:\\\\n- [^\\\\]*)*?\\\\n- mcp__`);

function parse(text: string): Json | undefined {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}

/** A tool result's text: a string, or its text parts (`text` of each part) joined with "\n". */
export function resultText(content: Json | undefined): string {
  if (typeof content === "string") return content;
  return (Array.isArray(content) ? content : []).map((p) => str(p, "text")).filter((t): t is string => t !== undefined).join("\n");
}

/** The result of `callId` in a history (Messages `tool_result` blocks, Responses `*_call_output` items), or undefined. */
export function resultOf(api: ClientApi, body: Json, callId: string): Json | undefined {
  if (api === "anthropic") {
    for (const m of arr(body, "messages") ?? []) for (const b of arr(m, "content") ?? []) if (str(b, "type") === "tool_result" && str(b, "tool_use_id") === callId) return prop(b, "content") ?? "";
    return undefined;
  }
  return prop((arr(body, "input") ?? []).find((i) => str(i, "type")?.endsWith("_call_output") && str(i, "call_id") === callId), "output");
}

/** The restore call in a history: the tool used (as called) and the id passed, or undefined. */
function restoreCallOf(api: ClientApi, body: Json): { tool: ExposedTool; restore_id: string } | undefined {
  const items = api === "anthropic" ? (arr(body, "messages") ?? []).flatMap((m) => arr(m, "content") ?? []) : (arr(body, "input") ?? []);
  const call = items.find((i) => str(i, api === "anthropic" ? "id" : "call_id") === (api === "anthropic" ? RESTORE_TOOL_USE_ID : RESTORE_CALL_ID) && str(i, "type") !== "function_call_output");
  if (call === undefined) return undefined;
  const input = api === "anthropic" ? prop(call, "input") : parse(str(call, "arguments") ?? "");
  const ns = str(call, "namespace");
  return { tool: { name: str(call, "name") ?? "", ...(ns !== undefined ? { namespace: ns } : {}) }, restore_id: str(input, "id") ?? "" };
}

/** `text` as `before + inner + after` when it holds `inner` exactly once and is longer; else null. */
function framing(text: string, inner: string): { before: string; after: string } | null {
  const at = text.indexOf(inner);
  if (inner === "" || text === inner || at < 0 || text.indexOf(inner, at + 1) >= 0) return null;
  return { before: text.slice(0, at), after: text.slice(at + inner.length) };
}

/** The JSON-RPC message of an MCP answer: a JSON body, or the first `data:` event of an SSE body. */
export function mcpMessage(body: string | undefined): Json | undefined {
  if (body === undefined) return undefined;
  const direct = parse(body);
  if (direct !== undefined) return direct;
  for (const line of body.split(/\r?\n/)) if (line.startsWith("data:")) return parse(line.slice(5).trim());
  return undefined;
}

/** The figures of one session; `sent` are the client's requests through Sluice (the recording proxy's, MCP ones included). */
export function analyzeRestore(api: ClientApi, sent: readonly RecordedRequest[]): RestoreFigures {
  const mcp = sent.filter((r) => routeOf(r) === MCP_PATH);
  const chat = sent.filter((r) => routeOf(r) !== MCP_PATH && r.method === "POST").map((r) => parse(r.body)).filter(isObject);
  const main = chat.filter((b) => (arr(b, "tools") ?? []).some((t) => ["Read", "exec_command"].includes(str(t, "name") ?? "")));
  const toolLists = new Set(main.map((b) => JSON.stringify(prop(b, "tools") ?? null)));
  const methods: Record<string, number> = {};
  for (const r of mcp) {
    const key = `${r.method} ${str(parse(r.body), "method") ?? "-"} ${r.status}`;
    methods[key] = (methods[key] ?? 0) + 1;
  }
  const answered = main.find((b) => resultOf(api, b, api === "anthropic" ? RESTORE_TOOL_USE_ID : RESTORE_CALL_ID) !== undefined);
  const call = answered && restoreCallOf(api, answered);
  let restore: RestoreCall | null = null;
  if (answered && call) {
    const callId = callIdOf(call.restore_id);
    const removed = resultText(resultOf(api, answered, callId));
    const toolCall = mcp.find((r) => str(parse(r.body), "method") === "tools/call" && str(prop(parse(r.body), "params"), "name") === RESTORE_TOOL);
    const result = prop(mcpMessage(toolCall?.responseBody), "result");
    const blocks = (arr(result, "content") ?? []).map((b) => str(b, "text")).filter((t): t is string => t !== undefined);
    const mcpText = blocks[0];
    const answer = blocks.join("\n");
    const raw = resultText(resultOf(api, answered, api === "anthropic" ? RESTORE_TOOL_USE_ID : RESTORE_CALL_ID));
    const unwrapped = Array.isArray(parse(raw)) ? resultText(parse(raw)) : raw;
    const wrapped = raw !== answer && unwrapped === answer;
    restore = {
      tool: call.tool, restore_id: call.restore_id, call_id: callId, removed_bytes: bytes(removed),
      mcp_status: toolCall?.status ?? null, mcp_is_error: prop(result, "isError") === true, mcp_text_bytes: mcpText === undefined ? null : bytes(mcpText), mcp_equal: mcpText === removed, mcp_blocks: blocks.length,
      delivered_text_bytes: bytes(wrapped ? unwrapped : raw), delivered_wrapped: wrapped, delivered_equal: blocks.length > 0 && (raw === answer || wrapped || framing(raw, answer) !== null),
      delivered_framing: framing(raw, answer),
    };
  }
  return {
    tool_first_request: restoreToolIn(arr(main[0], "tools") ?? []),
    deferred_first_request: main[0] !== undefined && DEFERRED.test(JSON.stringify({ ...main[0], tools: null })),
    tool_list_stable: toolLists.size <= 1,
    searched: main.some((b) => (arr(b, "input") ?? []).some((i) => str(i, "call_id") === SEARCH_CALL_ID) || (arr(b, "messages") ?? []).some((m) => (arr(m, "content") ?? []).some((x) => str(x, "id") === SEARCH_TOOL_USE_ID))),
    mcp_requests: methods,
    restore,
  };
}
