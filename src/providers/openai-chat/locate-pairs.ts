/**
 * OpenAI Chat: the structural index of a request (pure) — its messages with their nodes, the
 * tool pairs and the orphans. Shared by read-view.ts (the neutral view) and edit-rules.ts (plan
 * compilation); `read` keeps it on the ParsedRequest so a request is indexed once.
 *
 * Pairing is positional, as the API checks it (case B06): an assistant's calls are answered by
 * the run of tool / function messages directly after it.
 * - `tool_calls[k].id` ↔ a `tool` message of that run with that `tool_call_id` (function and
 *   custom calls alike).
 * - Legacy `function_call` (no id) ↔ a `function` message of that run with the same `name`;
 *   pair id `function_call:<hash of name and arguments>` — content-derived, so it survives the
 *   removal of earlier messages (a positional id would shift in the edited body's view).
 * - The same id in two different assistant turns gives two pairs (tau-bench's gpt-4o sessions
 *   reuse ids: 27 calls, 22 distinct ids); the second gets the pair id `<id>#2`, and so on. Such
 *   pairs are locked ("reused_id"): removing one occurrence would renumber the later ones, and
 *   the ids of the output's view would no longer match the input's.
 * - Orphans, never edited: a call not answered in its run, a result outside any run or
 *   answering no call of its run, and ids repeated within one message or one run (`duplicate_id`).
 * Lock: a call or result in the last assistant turn (turn index ≥ the last assistant's,
 * src/core/view/types.ts) → "last_assistant_turn".
 * Thought signatures (Gemini through its OpenAI compatibility signs only the first of parallel
 * calls, in `extra_content.google.thought_signature`): the other calls of that message require
 * the signed one (`requires`, ../dependencies.ts `openai-chat.thought_signature`).
 */
import type { Orphan, Position } from "../../core/view/types";
import type { ParsedRequest } from "../types";
import { hashText } from "../../core/hash";
import { getMember, stringValue, type JsonNode } from "../shared/json-scan";
import type { NodeMemo } from "../shared/node-memo";
import type { ContentSummary, PairMemo } from "../shared/summarise-content";
import { checkFields, requireKnown, UnknownTypeError } from "../shared/unknown-type";
import type { DependencyId } from "../dependencies";
import { ChatWireError, isChatRole, type ChatRole } from "./wire";

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
  /**
   * Facts derived from the node's bytes alone, filled on first use and kept with the message,
   * which a scan reusing the session's last body gets back for a lent node (CoreCaches.chatMessages: src/core/caches.ts): its
   * calls (assistant), its result key (`tool_call_id` of a tool message, `name` of a function
   * message), its content summary and identity hash (./read-view.ts).
   */
  memo: ChatMessageMemo;
}

/** See ChatMessage.memo; null until computed. */
export interface ChatMessageMemo {
  calls: ChatCall[] | null;
  resultKey: string | null;
  summary: ContentSummary | null;
  identity: string | null;
  /** On a result message: the pair it answers, with its result hash and decoded texts. */
  pair: PairMemo<ChatCall> | null;
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
  /** The call carries a Gemini thought signature (`extra_content.google.thought_signature`, ../dependencies.ts `openai-chat.thought_signature`). */
  signed: boolean;
}

export interface ChatPairLoc {
  id: string;
  call: ChatCall;
  /** Message index of the tool / function message. */
  result: number;
  locked: string | null;
  /** ToolPair.requires: an unsigned call of a message whose other calls carry its thought signature needs them. */
  requires?: { rule: string; ids: string[] };
}

export interface ChatIndex {
  provider: "openai-chat";
  messagesNode: ArrayNode;
  messages: ChatMessage[];
  pairs: ChatPairLoc[];
  orphans: Orphan[];
  /** Number of assistant messages. */
  turnCount: number;
}

/**
 * The index of a scanned Chat Completions body. Throws ChatWireError on an unexpected shape and
 * UnknownTypeError (../shared/unknown-type.ts) on a field, role, content part or tool call type
 * that ../known-types.ts does not list.
 * `memo` keeps each located message by node (ChatMessage.memo: everything in it depends on the
 * node's bytes, its index and its turn, which are checked on every hit).
 */
export function locateChat(bytes: Uint8Array, root: JsonNode, memo: NodeMemo<ChatMessage>): ChatIndex {
  return buildIndex(bytes, root, memo);
}

/** The index `read` kept on `parsed` (ParsedRequest.index), else a new one. Throws as locateChat. */
export function chatIndexOf(parsed: ParsedRequest): ChatIndex {
  return parsed.index?.provider === "openai-chat" ? (parsed.index as ChatIndex) : locateChat(parsed.bytes, parsed.root, parsed.caches.chatMessages);
}

/**
 * Where a checked value sits, for error messages: `messages[i]`, then `.tool_calls[k]` when
 * k ≥ 0, then `suffix`. Kept as numbers and built into a string only when an error is thrown
 * (the read path builds none: a string per field per message was measurable garbage).
 */
function fieldName(i: number, k: number, suffix: string): string {
  return `messages[${i}]${k >= 0 ? `.tool_calls[${k}]` : ""}${suffix}`;
}

function asObject(node: JsonNode | undefined, i: number, k: number, suffix: string): ObjectNode {
  if (!node || node.type !== "object") throw new ChatWireError(fieldName(i, k, suffix), `expected an object, got ${node?.type ?? "nothing"}`);
  if (node.duplicateKeys) throw new ChatWireError(fieldName(i, k, suffix), "duplicate keys");
  return node;
}

function str(bytes: Uint8Array, node: JsonNode | undefined, i: number, k: number, suffix: string): string {
  return stringValue(bytes, stringNode(node, i, k, suffix));
}

function stringNode(node: JsonNode | undefined, i: number, k: number, suffix: string): JsonNode {
  if (!node || node.type !== "string") throw new ChatWireError(fieldName(i, k, suffix), `expected a string, got ${node?.type ?? "nothing"}`);
  return node;
}

function readCalls(bytes: Uint8Array, m: ChatMessage): ChatCall[] {
  const calls: ChatCall[] = [];
  const i = m.index;
  const items = m.toolCalls?.items ?? [];
  for (let k = 0; k < items.length; k++) {
    const call = asObject(items[k], i, k, "");
    const id = str(bytes, getMember(call, "id"), i, k, ".id");
    const typeNode = getMember(call, "type");
    const type = typeNode === undefined ? "function" : str(bytes, typeNode, i, k, ".type");
    requireKnown("openai-chat", "tool_call", type, fieldName(i, k, ".type"));
    const custom = type === "custom";
    const body = asObject(getMember(call, type), i, k, custom ? ".custom" : ".function");
    const name = str(bytes, getMember(body, "name"), i, k, custom ? ".custom.name" : ".function.name");
    const input = stringNode(getMember(body, custom ? "input" : "arguments"), i, k, custom ? ".custom.input" : ".function.arguments");
    calls.push({ id, kind: custom ? "custom" : "function", name, input, message: i, item: k, signed: thoughtSigned(call) });
  }
  if (m.functionCall) {
    const name = str(bytes, getMember(m.functionCall, "name"), i, -1, ".function_call.name");
    const input = stringNode(getMember(m.functionCall, "arguments"), i, -1, ".function_call.arguments");
    const id = `function_call:${hashText(`${name}\u0000${stringValue(bytes, input)}`)}`;
    calls.push({ id, kind: "legacy_function", name, input, message: i, item: -1, signed: false });
  }
  return calls;
}

/** Whether a tool call object carries `extra_content.google.thought_signature` as a string (Gemini's OpenAI compatibility). */
function thoughtSigned(call: ObjectNode): boolean {
  const extra = getMember(call, "extra_content");
  const google = extra?.type === "object" ? getMember(extra, "google") : undefined;
  return (google?.type === "object" ? getMember(google, "thought_signature") : undefined)?.type === "string";
}

/** Locates `messages[index]`, the `turn`-th turn's message. Throws ChatWireError. */
function locateMessage(bytes: Uint8Array, item: JsonNode, index: number, turn: number): ChatMessage {
  const node = asObject(item, index, -1, "");
  const role = str(bytes, getMember(node, "role"), index, -1, ".role");
  if (!isChatRole(role)) throw new UnknownTypeError(fieldName(index, -1, ".role"), role);
  const content = getMember(node, "content");
  if (content?.type === "array") requireKnownParts(bytes, content, index);
  const tc = role === "assistant" ? getMember(node, "tool_calls") : undefined;
  if (tc && tc.type !== "array" && tc.type !== "null") throw new ChatWireError(fieldName(index, -1, ".tool_calls"), `expected an array, got ${tc.type}`);
  const fc = role === "assistant" ? getMember(node, "function_call") : undefined;
  const functionCall = fc && fc.type !== "null" ? asObject(fc, index, -1, ".function_call") : undefined;
  const memo: ChatMessageMemo = { calls: null, resultKey: null, summary: null, identity: null, pair: null };
  return { index, node, role, turn, content, toolCalls: tc?.type === "array" ? tc : undefined, functionCall, memo };
}

/** Checks the part types of `messages[index].content` against the table (a part without a string type is left to the provider). Throws UnknownTypeError. */
function requireKnownParts(bytes: Uint8Array, content: ArrayNode, index: number): void {
  for (const [k, p] of content.items.entries()) {
    const t = p.type === "object" ? getMember(p, "type") : undefined;
    if (t?.type === "string") requireKnown("openai-chat", "block", stringValue(bytes, t), `messages[${index}].content[${k}].type`);
  }
}

/** The message's calls (readCalls), once per located message. */
function callsOf(bytes: Uint8Array, m: ChatMessage): ChatCall[] {
  return (m.memo.calls ??= readCalls(bytes, m));
}

/** A tool message's `tool_call_id` or a function message's `name`, checked to be a string, once per located message. Throws ChatWireError. */
function resultKeyOf(bytes: Uint8Array, m: ChatMessage): string {
  return (m.memo.resultKey ??= m.role === "tool" ? str(bytes, getMember(m.node, "tool_call_id"), m.index, -1, ".tool_call_id") : str(bytes, getMember(m.node, "name"), m.index, -1, ".name"));
}

function buildIndex(bytes: Uint8Array, root: JsonNode, memo: NodeMemo<ChatMessage>): ChatIndex {
  if (root.type !== "object") throw new ChatWireError("body", `expected an object, got ${root.type}`);
  if (root.duplicateKeys) throw new ChatWireError("body", "duplicate keys");
  const body = root;
  checkFields("openai-chat", body);
  const messagesNode = getMember(body, "messages");
  if (!messagesNode || messagesNode.type !== "array") throw new ChatWireError("messages", `expected an array, got ${messagesNode?.type ?? "nothing"}`);
  // 1. Messages, their roles and turns (a lent node's located message kept: same node, same index, same turn).
  const messages: ChatMessage[] = [];
  let assistants = 0;
  const items = messagesNode.items;
  for (let index = 0; index < items.length; index++) {
    const node = items[index]!;
    let m = memo.peek(node);
    if (m === undefined || m.index !== index || m.turn !== assistants) {
      m = locateMessage(bytes, node, index, assistants);
      memo.set(node, m);
    }
    messages.push(m);
    if (m.role === "assistant") assistants++;
  }
  // 2. Positional pairing: each assistant's calls against the run of tool/function messages after it.
  const pairs: ChatPairLoc[] = [];
  const orphans: Orphan[] = [];
  const seen = new Map<string, number>();
  const lastTurn = assistants - 1;
  let i = 0;
  while (i < messages.length) {
    const m = messages[i]!;
    if (m.role === "tool" || m.role === "function") {
      // A result outside any assistant's run answers nothing.
      orphans.push({ id: resultKeyOf(bytes, m), kind: "result_without_call", position: at(i, -1) });
      i++;
      continue;
    }
    if (m.role !== "assistant") {
      i++;
      continue;
    }
    const calls = callsOf(bytes, m);
    const byId = calls.length > FEW_CALLS ? new Map(calls.map((c, k) => [c.id, k])) : null;
    const repeated = repeatedIds(calls, byId);
    // open[k]: call k (its id unique in the message) is still unanswered in this run.
    const open = repeated.map((r) => !r);
    for (let k = 0; k < calls.length; k++) if (repeated[k]) orphans.push({ id: calls[k]!.id, kind: "duplicate_id", position: at(i, calls[k]!.item) });
    let j = i + 1;
    for (; j < messages.length && (messages[j]!.role === "tool" || messages[j]!.role === "function"); j++) {
      const r = messages[j]!;
      const id = r.role === "tool" ? resultKeyOf(bytes, r) : (legacyId(calls) ?? "function_call");
      const name = r.role === "function" ? resultKeyOf(bytes, r) : null;
      const k = findCall(calls, byId, id);
      const call = k >= 0 && open[k] ? calls[k]! : undefined;
      if (!call || (name !== null && name !== call.name)) {
        // An id of this message answered again, or repeated in it: duplicate; else it answers nothing.
        const answered = !call && k >= 0;
        orphans.push({ id, kind: answered ? "duplicate_id" : "result_without_call", position: at(j, -1) });
        continue;
      }
      open[k] = false;
      const n = (seen.get(id) ?? 0) + 1;
      seen.set(id, n);
      const locked = m.turn >= lastTurn || r.turn >= lastTurn ? "last_assistant_turn" : null;
      pairs.push({ id: n === 1 ? id : `${id}#${n}`, call, result: j, locked });
    }
    for (let k = 0; k < calls.length; k++) if (open[k]) orphans.push({ id: calls[k]!.id, kind: "call_without_result", position: at(i, calls[k]!.item) });
    i = j;
  }
  // 3. Reused ids: every pair sharing a wire id is locked, since dropping one would renumber the others.
  for (const p of pairs) if (p.locked === null && (seen.get(p.call.id) ?? 0) > 1) p.locked = "reused_id";
  // 4. Thought signatures: the unsigned calls of a message need its signed ones (Gemini signs only the first of parallel calls).
  const signedIn = new Map<number, string[]>();
  for (const p of pairs) if (p.call.signed) signedIn.set(p.call.message, [...(signedIn.get(p.call.message) ?? []), p.id]);
  for (const p of pairs) {
    const signed = signedIn.get(p.call.message);
    if (signed !== undefined && !p.call.signed) p.requires = { rule: "openai-chat.thought_signature" satisfies DependencyId, ids: signed };
  }
  pairs.sort((a, b) => a.call.message - b.call.message || a.call.item - b.call.item);
  return { provider: "openai-chat", messagesNode, messages, pairs, orphans, turnCount: assistants };
}

/**
 * Up to this many calls in one message are matched by a linear scan (the common case: a Map per
 * assistant message was a measurable share of the read's garbage); longer lists through a Map.
 */
const FEW_CALLS = 16;

/** Position of a call with wire id `id` in `calls` (any one when the id is repeated), or -1. `byId`: id → position, for long lists. */
function findCall(calls: readonly ChatCall[], byId: ReadonlyMap<string, number> | null, id: string): number {
  if (byId) return byId.get(id) ?? -1;
  for (let k = 0; k < calls.length; k++) if (calls[k]!.id === id) return k;
  return -1;
}

/** Whether each call's wire id occurs more than once in `calls`. */
function repeatedIds(calls: readonly ChatCall[], byId: ReadonlyMap<string, number> | null): boolean[] {
  if (!byId) return calls.map((c, k) => calls.some((d, q) => q !== k && d.id === c.id));
  const counts = new Map<string, number>();
  for (const c of calls) counts.set(c.id, (counts.get(c.id) ?? 0) + 1);
  return calls.map((c) => counts.get(c.id)! > 1);
}

function at(message: number, block: number): Position {
  return { message_index: message, block_index: block };
}

/** Pair id of the legacy function_call among `calls` (always the last one), or undefined. */
function legacyId(calls: readonly ChatCall[]): string | undefined {
  const last = calls[calls.length - 1];
  return last?.kind === "legacy_function" ? last.id : undefined;
}
