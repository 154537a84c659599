/**
 * OpenAI Responses: the structural index of a request's `input` items (pure) — items with their
 * nodes, model turns, reasoning groups, tool pairs and orphans. Shared by read-view.ts and
 * edit-rules.ts; `read` keeps it on the ParsedRequest so a request is indexed once.
 *
 * Reasoning groups (the rule edit-rules.ts keeps): a block of consecutive `reasoning` items and
 * the model-output items after it in the same run, up to the next reasoning item or the end of
 * the run, form one group. The API rejects a reasoning item not immediately followed by an item
 * of its response ("Item 'rs_…' of type 'reasoning' was provided without its required following
 * item", continuedev/continue#8933) and a call whose reasoning item is missing ("Item 'fc_…' of
 * type 'function_call' was provided without its required 'reasoning' item", mastra-ai/mastra#8738,
 * cline/cline#12242 = case B08); parallel calls of one response follow its reasoning item as a
 * block, before their outputs (community.openai.com/t/1355347).
 */
import type { Orphan } from "../../core/view/types";
import type { ParsedRequest } from "../types";
import { responsesContextManagementReason } from "../shared/client-context-management";
import { getMember, stringValue, type JsonNode } from "../shared/json-scan";
import type { NodeMemo } from "../shared/node-memo";
import type { ContentSummary, PairMemo } from "../shared/summarise-content";
import { checkFields, requireKnown } from "../shared/unknown-type";
import { knownType, RESPONSES_ITEMS } from "../known-types";
import { CALL_INPUT_KEY, PAIRED_CALLS, ResponsesWireError, type PairedCallType } from "./wire";

type ObjectNode = Extract<JsonNode, { type: "object" }>;
type ArrayNode = Extract<JsonNode, { type: "array" }>;

export type ItemKind = "message" | "reasoning" | "call" | "call_output" | "other";

export interface ResponsesItem {
  index: number;
  node: ObjectNode;
  kind: ItemKind;
  /** `type` ("message" when omitted with a role, "item_reference" when omitted with an id). */
  type: string;
  /** Message role, else null. */
  role: string | null;
  /** Model-produced (part of a run). */
  modelOutput: boolean;
  /** Number of model runs completed before this item. */
  turn: number;
  /** `call_id` of a call / call output. */
  callId: string | null;
  /** `content` of a message, `output` of a call output. */
  value: JsonNode | undefined;
  /**
   * Facts derived from the node's bytes alone, filled on first use and kept with the item, which
   * a scan reusing the session's last body gets back for a lent node (CoreCaches.responsesItems: src/core/caches.ts): a call's name and
   * input node, the content summary and identity hash, and on a call output the pair it answers
   * (./read-view.ts).
   */
  memo: ResponsesItemMemo;
}

/** See ResponsesItem.memo; null until computed. */
export interface ResponsesItemMemo {
  call: { name: string; input: JsonNode } | null;
  summary: ContentSummary | null;
  identity: string | null;
  pair: PairMemo<ResponsesItem> | null;
}

function emptyMemo(): ResponsesItemMemo {
  return { call: null, summary: null, identity: null, pair: null };
}

export interface ReasoningGroup {
  /** Item indices of the reasoning block. */
  reasoning: number[];
  /** Item indices that follow the block in its run (possibly none). */
  members: number[];
}

export interface ResponsesPairLoc {
  id: string;
  callType: PairedCallType;
  name: string;
  input: JsonNode;
  call: number;
  result: number;
  locked: string | null;
}

export interface ResponsesIndex {
  provider: "openai-responses";
  /** The `input` array, or null when `input` is a string. */
  inputNode: ArrayNode | null;
  items: ResponsesItem[];
  groups: ReasoningGroup[];
  pairs: ResponsesPairLoc[];
  orphans: Orphan[];
  turnCount: number;
  serverManaged: string | null;
}

/**
 * The index of a scanned Responses body. Throws ResponsesWireError on an unexpected shape and
 * UnknownTypeError (../shared/unknown-type.ts) on a field, item type, role or content part type
 * that ../known-types.ts does not list.
 * `memo` keeps each located item by node (ResponsesItem.memo: everything in it depends on the
 * node's bytes, its index and its turn, which are checked on every hit).
 */
export function locateResponses(bytes: Uint8Array, root: JsonNode, memo: NodeMemo<ResponsesItem>): ResponsesIndex {
  return buildIndex(bytes, root, memo);
}

/** The index `read` kept on `parsed` (ParsedRequest.index), else a new one. Throws as locateResponses. */
export function responsesIndexOf(parsed: ParsedRequest): ResponsesIndex {
  return parsed.index?.provider === "openai-responses" ? (parsed.index as ResponsesIndex) : locateResponses(parsed.bytes, parsed.root, parsed.caches.responsesItems);
}

function fail(field: string, node: JsonNode | undefined, expected: string): never {
  throw new ResponsesWireError(field, `expected ${expected}, got ${node?.type ?? "nothing"}`);
}

function str(bytes: Uint8Array, node: JsonNode | undefined, field: string): string {
  if (!node || node.type !== "string") fail(field, node, "a string");
  return stringValue(bytes, node);
}

function readItem(bytes: Uint8Array, node: JsonNode, index: number): ResponsesItem {
  const field = `input[${index}]`;
  if (node.type !== "object") fail(field, node, "an object");
  if (node.duplicateKeys) throw new ResponsesWireError(field, "duplicate keys");
  const typeNode = getMember(node, "type");
  const roleNode = getMember(node, "role");
  let type: string;
  if (typeNode && typeNode.type !== "null") type = str(bytes, typeNode, `${field}.type`);
  else if (roleNode) type = "message";
  else if (getMember(node, "id")) type = "item_reference";
  else throw new ResponsesWireError(`${field}.type`, "missing");
  const row = requireKnown("openai-responses", "item", type, `${field}.type`);
  const base = { index, node, type, turn: 0, callId: null, value: undefined, role: null, memo: emptyMemo() };
  if (type === "message") {
    const role = str(bytes, roleNode, `${field}.role`);
    requireKnown("openai-responses", "role", role, `${field}.role`);
    const content = getMember(node, "content");
    if (!content || (content.type !== "string" && content.type !== "array")) fail(`${field}.content`, content, "a string or an array");
    requireKnownParts(bytes, content, "block", `${field}.content`);
    return { ...base, kind: "message", role, modelOutput: role === "assistant", value: content };
  }
  if (type === "reasoning") return { ...base, kind: "reasoning", modelOutput: true };
  if (type in PAIRED_CALLS) {
    const callId = str(bytes, getMember(node, "call_id"), `${field}.call_id`);
    str(bytes, getMember(node, "name"), `${field}.name`);
    const key = CALL_INPUT_KEY[type as PairedCallType];
    if (getMember(node, key)?.type !== "string") fail(`${field}.${key}`, getMember(node, key), "a string");
    return { ...base, kind: "call", modelOutput: true, callId };
  }
  if ((Object.values(PAIRED_CALLS) as string[]).includes(type)) {
    const callId = str(bytes, getMember(node, "call_id"), `${field}.call_id`);
    const output = getMember(node, "output");
    if (!output || (output.type !== "string" && output.type !== "array")) fail(`${field}.output`, output, "a string or an array");
    requireKnownParts(bytes, output, "result_part", `${field}.output`);
    return { ...base, kind: "call_output", modelOutput: false, callId, value: output };
  }
  return { ...base, kind: "other", modelOutput: RESPONSES_ITEMS[row.type as keyof typeof RESPONSES_ITEMS].model_output };
}

/** Checks the part types of an array `value` (message content, tool output) at `position` against the table; a part without a string type is left to the provider. Throws UnknownTypeError. */
function requireKnownParts(bytes: Uint8Array, value: JsonNode, position: "block" | "result_part", field: string): void {
  if (value.type !== "array") return;
  for (const [k, p] of value.items.entries()) {
    const t = p.type === "object" ? getMember(p, "type") : undefined;
    if (t?.type === "string") requireKnown("openai-responses", position, stringValue(bytes, t), `${field}[${k}].type`);
  }
}

function buildIndex(bytes: Uint8Array, root: JsonNode, memo: NodeMemo<ResponsesItem>): ResponsesIndex {
  if (root.type !== "object") fail("body", root, "an object");
  if (root.duplicateKeys) throw new ResponsesWireError("body", "duplicate keys");
  // Fields that hand the history to the server (DESIGN §6); context_management only when it asks for server-side compaction.
  let serverManaged: string | null = checkFields("openai-responses", root, (key, v) => key !== "context_management" || responsesContextManagementReason(v) !== null);
  const input = getMember(root, "input");
  if (!input || input.type === "string") return { provider: "openai-responses", inputNode: null, items: [], groups: [], pairs: [], orphans: [], turnCount: 0, serverManaged };
  if (input.type !== "array") fail("input", input, "a string or an array");
  // 1. Items, runs and turns (a lent node's item kept: same node, same index, same turn).
  const items: ResponsesItem[] = new Array(input.items.length);
  let runs = 0;
  let inRun = false;
  for (let i = 0; i < input.items.length; i++) {
    const node = input.items[i]!;
    const hit = memo.peek(node);
    const read = hit ?? readItem(bytes, node, i);
    serverManaged ??= knownType("openai-responses", "item", read.type)?.stands_aside_as ?? null;
    if (read.modelOutput) inRun = true;
    else if (inRun) {
      runs++;
      inRun = false;
    }
    let it = read;
    if (hit === undefined) read.turn = runs; // a new object, not yet shared
    else if (hit.index !== i || hit.turn !== runs) it = { ...hit, index: i, turn: runs, memo: emptyMemo() };
    if (it !== hit) memo.set(node, it);
    items[i] = it;
  }
  if (inRun) runs++;
  // 2. Reasoning groups.
  const groups: ReasoningGroup[] = [];
  for (let i = 0; i < items.length; ) {
    if (items[i]!.kind !== "reasoning") {
      i++;
      continue;
    }
    const g: ReasoningGroup = { reasoning: [], members: [] };
    while (i < items.length && items[i]!.kind === "reasoning") g.reasoning.push(i++);
    while (i < items.length && items[i]!.modelOutput && items[i]!.kind !== "reasoning") g.members.push(i++);
    groups.push(g);
  }
  // 3. Pairs by call_id.
  const { pairs, orphans } = pairItems(bytes, items);
  const lastTurn = runs - 1;
  for (const p of pairs) {
    if (items[p.call]!.turn >= lastTurn || items[p.result]!.turn >= lastTurn) p.locked = "last_assistant_turn";
    if (serverManaged) p.locked = "server_managed";
  }
  return { provider: "openai-responses", inputNode: input, items, groups, pairs, orphans, turnCount: runs, serverManaged };
}

function pairItems(bytes: Uint8Array, items: ResponsesItem[]): { pairs: ResponsesPairLoc[]; orphans: Orphan[] } {
  const calls = new Map<string, ResponsesItem[]>();
  const outputs = new Map<string, ResponsesItem[]>();
  const add = (map: Map<string, ResponsesItem[]>, it: ResponsesItem) => {
    const list = map.get(it.callId!);
    if (list) list.push(it);
    else map.set(it.callId!, [it]);
  };
  for (const it of items) {
    if (it.kind === "call") add(calls, it);
    if (it.kind === "call_output") add(outputs, it);
  }
  const pairs: ResponsesPairLoc[] = [];
  const orphans: Orphan[] = [];
  const at = (it: ResponsesItem) => ({ message_index: it.index, block_index: -1 });
  for (const [id, cs] of calls) {
    const os = outputs.get(id) ?? [];
    if (cs.length > 1 || os.length > 1) {
      for (const it of [...cs, ...os]) orphans.push({ id, kind: "duplicate_id", position: at(it) });
      continue;
    }
    const call = cs[0]!;
    const out = os[0];
    const callType = call.type as PairedCallType;
    if (!out || out.index < call.index || out.type !== PAIRED_CALLS[callType]) {
      orphans.push({ id, kind: "call_without_result", position: at(call) });
      if (out) orphans.push({ id, kind: "result_without_call", position: at(out) });
      continue;
    }
    const c = (call.memo.call ??= { name: stringValue(bytes, getMember(call.node, "name")!), input: getMember(call.node, CALL_INPUT_KEY[callType])! });
    pairs.push({ id, callType, name: c.name, input: c.input, call: call.index, result: out.index, locked: null });
  }
  for (const [id, os] of outputs) {
    if (calls.has(id)) continue;
    for (const it of os) orphans.push({ id, kind: os.length > 1 ? "duplicate_id" : "result_without_call", position: at(it) });
  }
  pairs.sort((a, b) => a.call - b.call);
  return { pairs, orphans };
}
