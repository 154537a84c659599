/**
 * OpenAI Chat Completions → neutral ConversationView (pure). Scans the body once
 * (src/providers/shared/json-scan.ts), indexes messages and pairs (./locate-pairs.ts) and
 * summarises them with byte offsets into the original body.
 *
 * identity_hash of a message = hash of its role and every member except the tool parts: for an
 * assistant everything but `tool_calls` / `function_call`; for `tool` / `function` messages
 * nothing else (their content is the result, checked per pair). prose_blocks / media_blocks
 * count those non-tool parts only (a tool message has none).
 */
import type { ConversationView, MessageInfo, ToolPair } from "../../core/view/types";
import type { ParsedRequest } from "../types";
import type { CoreCaches } from "../../core/caches";
import { getMember, scanJson, stringValue, type JsonNode } from "../shared/json-scan";
import { memoPair, summariseContent, type ContentSummary, estimateWithMedia, totalMedia } from "../shared/summarise-content";
import { identityBytes, identityHash } from "../shared/identity-hash";
import { knownOrByCost } from "../shared/lazy-field";
import { applyReferenceLocks } from "../shared/reference-locks";
import { readOrStandAside } from "../shared/unknown-type";
import { locateChat, type ChatMessage } from "./locate-pairs";
import { ASSISTANT_TOOL_KEYS, CHAT_PART_KINDS, REMOVABLE_ASSISTANT_KEYS } from "./wire";

const ASSISTANT_EXCLUDE: ReadonlySet<string> = new Set(ASSISTANT_TOOL_KEYS);
const RESULT_EXCLUDE: ReadonlySet<string> = new Set(["content", "tool_call_id", "name"]);
const NO_EXCLUDE: ReadonlySet<string> = new Set();

/** True when an assistant message has no prose or media (content null, absent, "" or []). */
export function hasNoContent(m: ChatMessage): boolean {
  const c = m.content;
  return !c || c.type === "null" || (c.type === "string" && c.end - c.start === 2) || (c.type === "array" && c.items.length === 0);
}

/** True when the assistant message may disappear once all its calls are gone (see wire.ts REMOVABLE_ASSISTANT_KEYS). */
export function isRemovableWithCalls(m: ChatMessage): boolean {
  return m.role === "assistant" && hasNoContent(m) && m.node.entries.every((e) => REMOVABLE_ASSISTANT_KEYS.has(e.key));
}

function messageInfo(bytes: Uint8Array, m: ChatMessage, s: ContentSummary, callIds: string[]): MessageInfo {
  const isResult = m.role === "tool" || m.role === "function";
  const size = m.node.end - m.node.start;
  const removable = isRemovableWithCalls(m);
  const fields: Omit<MessageInfo, "identity_hash"> = {
    index: m.index,
    role: m.role,
    turn_index: m.turn,
    range: { start: m.node.start, end: m.node.end },
    bytes: size,
    est_tokens: estimateWithMedia(size, s),
    prose_blocks: isResult ? 0 : s.textParts,
    media_blocks: isResult ? 0 : s.media,
    non_tool_parts: isResult || removable ? 0 : Math.max(1, s.textParts + s.media),
  };
  const exclude = isResult ? RESULT_EXCLUDE : m.role === "assistant" ? ASSISTANT_EXCLUDE : NO_EXCLUDE;
  // A lent message's hash is at hand (ChatMessage.memo); else computed now or on first read, by its cost.
  const info: MessageInfo = knownOrByCost(fields, "identity_hash", m.memo.identity ?? undefined, () => identityBytes(m.node, exclude), () => (m.memo.identity = identityHash(bytes, m.role, m.node, exclude)));
  if (callIds.length > 0 && removable) info.removable_with = callIds;
  return info;
}

/**
 * Parses a Chat Completions body (`scanned`: `scanJson(bytes)` when already computed), reading
 * through `caches`. Throws JsonScanError / ChatWireError (→ fail open). A field, role, content
 * part or tool call type ../known-types.ts does not list gives the stand-aside view
 * (../shared/unknown-type.ts) instead.
 */
export function readChat(bytes: Uint8Array, caches: CoreCaches, scanned?: JsonNode): ParsedRequest {
  return readOrStandAside("openai-chat", bytes, caches, scanned ?? scanJson(bytes), readKnown);
}

function readKnown(bytes: Uint8Array, caches: CoreCaches, root: JsonNode): ParsedRequest {
  const index = locateChat(bytes, root, caches.chatMessages);
  const callIdsByMessage = new Map<number, string[]>();
  for (const p of index.pairs) callIdsByMessage.set(p.call.message, [...(callIdsByMessage.get(p.call.message) ?? []), p.id]);
  const summaries = index.messages.map((m) => (m.memo.summary ??= summariseContent(bytes, m.content, CHAT_PART_KINDS)));
  const messages = index.messages.map((m) => messageInfo(bytes, m, summaries[m.index]!, callIdsByMessage.get(m.index) ?? []));
  const pairs = index.pairs.map((p): ToolPair => {
    const call = index.messages[p.call.message]!;
    const result = index.messages[p.result]!;
    const site = { id: p.id, tool_name: p.call.name, call: { message_index: call.index, block_index: p.call.item }, result: { message_index: result.index, block_index: -1 }, turn_index: call.turn, locked: p.locked };
    const pair = memoPair(site, result.memo, p.call, bytes, p.call.input, result.content, summaries[result.index]!);
    if (p.requires !== undefined) pair.requires = p.requires;
    return pair;
  });
  applyReferenceLocks(pairs, caches.toolCalls, index.pairs);
  const model = getMember(root, "model");
  const view: ConversationView = {
    provider: "openai-chat",
    model: model?.type === "string" ? stringValue(bytes, model) : null,
    body_bytes: bytes.length,
    est_tokens: estimateWithMedia(bytes.length, totalMedia(summaries)),
    messages,
    pairs,
    orphans: index.orphans,
    turn_count: index.turnCount,
    server_managed: null,
  };
  return { bytes, root, view, inputRanges: index.pairs.map((p) => p.call.input), resultRanges: index.pairs.map((p) => { const v = index.messages[p.result]!.content ?? index.messages[p.result]!.node; return { start: v.start, end: v.end }; }), index, caches };
}

