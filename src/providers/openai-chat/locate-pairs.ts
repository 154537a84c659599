/**
 * OpenAI Chat: the structural index of a request (pure) — its messages with their nodes, the
 * tool pairs and the orphans. Shared by read-view.ts (the neutral view) and edit-rules.ts (plan
 * compilation); cached per scanned root so a request is indexed once.
 *
 * Pairing rules:
 * - `assistant.tool_calls[k].id` ↔ `tool.tool_call_id` (function and custom calls alike).
 * - Legacy `assistant.function_call` (no id) ↔ the `function` message directly after it with the
 *   same `name`; its pair id is `function_call@<message index>` (stable: clients append history).
 * - An id carried by two calls or two results is a `duplicate_id` orphan; a call with no result
 *   and a result with no earlier call are orphans. Orphans are never edited.
 * Locks: a result outside the run of tool messages right after its call → "non_adjacent"; a
 * call or result in the last assistant turn (turn index ≥ the last assistant's) → "last_assistant_turn".
 */
import type { Orphan } from "../../core/view/types";
import { getMember, stringValue, type JsonNode } from "../shared/json-scan";
import { ChatWireError, TOOL_CALL_TYPES, isChatRole, type ChatRole } from "./wire";

type ObjectNode = Extract<JsonNode, { type: "object" }>;
type ArrayNode = Extract<JsonNode, { type: "array" }>;

export interface ChatMessage {
  index: number;
  node: ObjectNode;
  role: ChatRole;
  /** Number of assistant messages before this one. */
  turn: number;
  content: JsonNode | undefined;
  /** `tool_calls` when it is an array (assistant). */
  toolCalls: ArrayNode | undefined;
  /** Legacy `function_call` object (assistant). */
  functionCall: ObjectNode | undefined;
}

export interface ChatCall {
  id: string;
  kind: "function" | "custom" | "legacy_function";
  name: string;
  /** The string node holding the call input (`function.arguments`, `custom.input`, `function_call.arguments`). */
  input: JsonNode;
  message: number;
  /** Index in `tool_calls`, or -1 for a legacy function_call. */
  item: number;
}

export interface ChatPairLoc {
  id: string;
  call: ChatCall;
  /** Message index of the tool / function message. */
  result: number;
  locked: string | null;
}

export interface ChatIndex {
  messagesNode: ArrayNode;
  messages: ChatMessage[];
  pairs: ChatPairLoc[];
  orphans: Orphan[];
  /** Number of assistant messages. */
  turnCount: number;
}

const cache = new WeakMap<JsonNode, ChatIndex>();

/** The index of a scanned Chat Completions body. Throws ChatWireError on an unexpected shape. */
export function locateChat(bytes: Uint8Array, root: JsonNode): ChatIndex {
  const hit = cache.get(root);
  if (hit) return hit;
  const index = buildIndex(bytes, root);
  cache.set(root, index);
  return index;
}

function asObject(node: JsonNode | undefined, field: string): ObjectNode {
  if (!node || node.type !== "object") throw new ChatWireError(field, `expected an object, got ${node?.type ?? "nothing"}`);
  if (node.duplicateKeys) throw new ChatWireError(field, "duplicate keys");
  return node;
}

function str(bytes: Uint8Array, node: JsonNode | undefined, field: string): string {
  if (!node || node.type !== "string") throw new ChatWireError(field, `expected a string, got ${node?.type ?? "nothing"}`);
  return stringValue(bytes, node);
}

function stringNode(node: JsonNode | undefined, field: string): JsonNode {
  if (!node || node.type !== "string") throw new ChatWireError(field, `expected a string, got ${node?.type ?? "nothing"}`);
  return node;
}

function readCalls(bytes: Uint8Array, m: ChatMessage, field: string): ChatCall[] {
  const calls: ChatCall[] = [];
  m.toolCalls?.items.forEach((item, k) => {
    const f = `${field}.tool_calls[${k}]`;
    const call = asObject(item, f);
    const id = str(bytes, getMember(call, "id"), `${f}.id`);
    const typeNode = getMember(call, "type");
    const type = typeNode === undefined ? "function" : str(bytes, typeNode, `${f}.type`);
    if (!(TOOL_CALL_TYPES as readonly string[]).includes(type)) throw new ChatWireError(`${f}.type`, `unknown tool call type ${JSON.stringify(type)}`);
    const body = asObject(getMember(call, type), `${f}.${type}`);
    const name = str(bytes, getMember(body, "name"), `${f}.${type}.name`);
    const inputKey = type === "custom" ? "input" : "arguments";
    const input = stringNode(getMember(body, inputKey), `${f}.${type}.${inputKey}`);
    calls.push({ id, kind: type === "custom" ? "custom" : "function", name, input, message: m.index, item: k });
  });
  if (m.functionCall) {
    const f = `${field}.function_call`;
    const name = str(bytes, getMember(m.functionCall, "name"), `${f}.name`);
    const input = stringNode(getMember(m.functionCall, "arguments"), `${f}.arguments`);
    calls.push({ id: `function_call@${m.index}`, kind: "legacy_function", name, input, message: m.index, item: -1 });
  }
  return calls;
}

function buildIndex(bytes: Uint8Array, root: JsonNode): ChatIndex {
  const body = asObject(root, "body");
  const messagesNode = getMember(body, "messages");
  if (!messagesNode || messagesNode.type !== "array") throw new ChatWireError("messages", `expected an array, got ${messagesNode?.type ?? "nothing"}`);
  // 1. Messages, their roles and turns.
  const messages: ChatMessage[] = [];
  let assistants = 0;
  messagesNode.items.forEach((item, index) => {
    const field = `messages[${index}]`;
    const node = asObject(item, field);
    const role = str(bytes, getMember(node, "role"), `${field}.role`);
    if (!isChatRole(role)) throw new ChatWireError(`${field}.role`, `unknown role ${JSON.stringify(role)}`);
    const tc = role === "assistant" ? getMember(node, "tool_calls") : undefined;
    if (tc && tc.type !== "array" && tc.type !== "null") throw new ChatWireError(`${field}.tool_calls`, `expected an array, got ${tc.type}`);
    const fc = role === "assistant" ? getMember(node, "function_call") : undefined;
    const functionCall = fc && fc.type !== "null" ? asObject(fc, `${field}.function_call`) : undefined;
    messages.push({ index, node, role, turn: assistants, content: getMember(node, "content"), toolCalls: tc?.type === "array" ? tc : undefined, functionCall });
    if (role === "assistant") assistants++;
  });
  // 2. Calls and results by id.
  const calls = new Map<string, ChatCall[]>();
  const results = new Map<string, number[]>();
  const orphans: Orphan[] = [];
  for (const m of messages) {
    const field = `messages[${m.index}]`;
    if (m.role === "assistant") for (const c of readCalls(bytes, m, field)) calls.set(c.id, [...(calls.get(c.id) ?? []), c]);
    if (m.role === "tool") {
      const id = str(bytes, getMember(m.node, "tool_call_id"), `${field}.tool_call_id`);
      results.set(id, [...(results.get(id) ?? []), m.index]);
    }
    if (m.role === "function") {
      str(bytes, getMember(m.node, "name"), `${field}.name`);
      const prev = messages[m.index - 1];
      const id = prev?.role === "assistant" && prev.functionCall ? `function_call@${prev.index}` : `function@${m.index}`;
      results.set(id, [...(results.get(id) ?? []), m.index]);
    }
  }
  // 3. Pairs and orphans.
  const pairs: ChatPairLoc[] = [];
  const lastTurn = assistants - 1;
  for (const [id, cs] of calls) {
    const rs = results.get(id) ?? [];
    if (cs.length > 1 || rs.length > 1) {
      for (const c of cs) orphans.push({ id, kind: "duplicate_id", position: { message_index: c.message, block_index: c.item } });
      for (const r of rs) orphans.push({ id, kind: "duplicate_id", position: { message_index: r, block_index: -1 } });
      continue;
    }
    const call = cs[0]!;
    const result = rs[0];
    const sameName = call.kind !== "legacy_function" || (result !== undefined && legacyName(bytes, messages[result]!) === call.name);
    if (result === undefined || result < call.message || !sameName) {
      orphans.push({ id, kind: "call_without_result", position: { message_index: call.message, block_index: call.item } });
      if (result !== undefined) orphans.push({ id, kind: "result_without_call", position: { message_index: result, block_index: -1 } });
      continue;
    }
    let locked: string | null = null;
    if (!inToolRun(messages, call.message, result)) locked = "non_adjacent";
    if (messages[call.message]!.turn >= lastTurn || messages[result]!.turn >= lastTurn) locked = "last_assistant_turn";
    pairs.push({ id, call, result, locked });
  }
  for (const [id, rs] of results) {
    if (calls.has(id)) continue;
    for (const r of rs) orphans.push({ id, kind: rs.length > 1 ? "duplicate_id" : "result_without_call", position: { message_index: r, block_index: -1 } });
  }
  pairs.sort((a, b) => a.call.message - b.call.message || a.call.item - b.call.item);
  return { messagesNode, messages, pairs, orphans, turnCount: assistants };
}

function legacyName(bytes: Uint8Array, m: ChatMessage): string | null {
  const n = getMember(m.node, "name");
  return n?.type === "string" ? stringValue(bytes, n) : null;
}

/** True when every message strictly between the call's message and the result is a tool/function message. */
function inToolRun(messages: ChatMessage[], callMessage: number, result: number): boolean {
  for (let i = callMessage + 1; i < result; i++) {
    const r = messages[i]!.role;
    if (r !== "tool" && r !== "function") return false;
  }
  return true;
}
