/**
 * OpenAI Responses → neutral ConversationView (pure). One "message" of the view is one `input`
 * item; `role` is the message role, or the item type for other items ("reasoning",
 * "function_call", …). `input` given as a string is one user message with nothing to edit.
 *
 * identity_hash of an item = hash of its role/type and every member, except for call and call
 * output items, which are tool parts entirely (checked per pair). A reasoning item whose group
 * (./locate-items.ts) holds only paired calls carries `removable_with` = those pair ids: it may
 * go only together with all of them. prose_blocks counts message text parts only.
 */
import type { ConversationView, MessageInfo, ToolPair } from "../../core/view/types";
import type { ParsedRequest } from "../types";
import type { CoreCaches } from "../../core/caches";
import { hashBytes, hashText } from "../../core/hash";
import { estimateTokensFromBytes } from "../../core/tokens/estimate";
import { getMember, scanJson, stringValue, type JsonNode } from "../shared/json-scan";
import { memoPair, summariseContent, type ContentSummary, estimateWithMedia, totalMedia } from "../shared/summarise-content";
import { identityBytes, identityHash } from "../shared/identity-hash";
import { knownOrByCost } from "../shared/lazy-field";
import { applyReferenceLocks } from "../shared/reference-locks";
import { readOrStandAside } from "../shared/unknown-type";
import { locateResponses, type ResponsesIndex, type ResponsesItem } from "./locate-items";
import { RESPONSES_PART_KINDS } from "./wire";

const NO_EXCLUDE: ReadonlySet<string> = new Set();

/** Pair ids each removable reasoning item is bound to. */
function reasoningBindings(index: ResponsesIndex): Map<number, string[]> {
  const pairByCall = new Map(index.pairs.map((p) => [p.call, p.id]));
  const out = new Map<number, string[]>();
  for (const g of index.groups) {
    const ids = g.members.map((m) => pairByCall.get(m));
    if (ids.length === 0 || ids.some((id) => id === undefined)) continue;
    for (const r of g.reasoning) out.set(r, ids as string[]);
  }
  return out;
}

function itemInfo(bytes: Uint8Array, it: ResponsesItem, s: ContentSummary, bound: string[] | undefined): MessageInfo {
  const size = it.node.end - it.node.start;
  const toolPart = it.kind === "call" || it.kind === "call_output";
  const role = it.role ?? it.type;
  const fields: Omit<MessageInfo, "identity_hash"> = {
    index: it.index,
    role,
    turn_index: it.turn,
    range: { start: it.node.start, end: it.node.end },
    bytes: size,
    est_tokens: estimateWithMedia(size, s),
    prose_blocks: it.kind === "message" ? s.textParts : 0,
    media_blocks: it.kind === "message" ? s.media : 0,
    // Tool parts are checked per pair; a reasoning item bound to calls may go with them (removable_with).
    non_tool_parts: toolPart || bound ? 0 : Math.max(1, s.textParts + s.media),
  };
  // A lent item's hash is at hand (ResponsesItem.memo); else computed now or on first read, by its cost.
  const info: MessageInfo = knownOrByCost(
    fields,
    "identity_hash",
    it.memo.identity ?? undefined,
    () => (toolPart ? 0 : identityBytes(it.node, NO_EXCLUDE)),
    () => (it.memo.identity = toolPart ? hashText(role) : identityHash(bytes, role, it.node, NO_EXCLUDE)),
  );
  if (bound) info.removable_with = bound;
  return info;
}

/**
 * Parses a Responses body (`scanned`: `scanJson(bytes)` when already computed), reading through
 * `caches`. Throws JsonScanError / ResponsesWireError (→ fail open). A field, item type, role or
 * content part type ../known-types.ts does not list gives the stand-aside view
 * (../shared/unknown-type.ts) instead.
 */
export function readResponses(bytes: Uint8Array, caches: CoreCaches, scanned?: JsonNode): ParsedRequest {
  return readOrStandAside("openai-responses", bytes, caches, scanned ?? scanJson(bytes), readKnown);
}

function readKnown(bytes: Uint8Array, caches: CoreCaches, root: JsonNode): ParsedRequest {
  const index = locateResponses(bytes, root, caches.responsesItems);
  const summaries = index.items.map((it) => (it.memo.summary ??= summariseContent(bytes, it.value, RESPONSES_PART_KINDS)));
  const bound = reasoningBindings(index);
  const messages = index.items.map((it) => itemInfo(bytes, it, summaries[it.index]!, bound.get(it.index)));
  const pairs = index.pairs.map((p): ToolPair => {
    const output = index.items[p.result]!;
    const callItem = index.items[p.call]!;
    const site = { id: p.id, tool_name: p.name, call: { message_index: p.call, block_index: -1 }, result: { message_index: p.result, block_index: -1 }, turn_index: callItem.turn, locked: p.locked };
    return memoPair(site, output.memo, callItem, bytes, p.input, output.value!, summaries[p.result]!);
  });
  applyReferenceLocks(pairs, caches.toolCalls, index.pairs);
  const model = getMember(root, "model");
  const inputNode = getMember(root, "input");
  const stringInput = inputNode?.type === "string";
  const view: ConversationView = {
    provider: "openai-responses",
    model: model?.type === "string" ? stringValue(bytes, model) : null,
    body_bytes: bytes.length,
    est_tokens: estimateWithMedia(bytes.length, totalMedia(summaries)),
    messages: stringInput ? [stringInputMessage(bytes, inputNode)] : messages,
    pairs,
    orphans: index.orphans,
    turn_count: index.turnCount,
    server_managed: index.serverManaged,
  };
  return { bytes, root, view, inputRanges: index.pairs.map((p) => p.input), resultRanges: index.pairs.map((p) => { const v = index.items[p.result]!.value ?? index.items[p.result]!.node; return { start: v.start, end: v.end }; }), index, caches };
}

/** The view of `input` given as a plain string: one user message. */
function stringInputMessage(bytes: Uint8Array, node: JsonNode): MessageInfo {
  const size = node.end - node.start;
  return {
    index: 0,
    role: "user",
    turn_index: 0,
    range: { start: node.start, end: node.end },
    bytes: size,
    est_tokens: estimateTokensFromBytes(size),
    prose_blocks: size > 2 ? 1 : 0,
    media_blocks: 0,
    non_tool_parts: 1,
    identity_hash: hashBytes(bytes, node.start, node.end),
  };
}
