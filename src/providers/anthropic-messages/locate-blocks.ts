/**
 * Locates the Anthropic history in a scanned body (pure): the `messages` array, each message's
 * role and content node, and each content block with its kind. Shared by read-view.ts (building
 * the neutral view), edit-rules.ts (compiling deletions) and check-rules.ts (provider rules), so
 * the three agree on shape validation. Throws `AnthropicShapeError` naming the field on any shape
 * the API would not accept as a history (→ the gateway fails open), and `UnknownTypeError`
 * (../shared/unknown-type.ts) on a role, block type or tool_result part type that
 * ../known-types.ts does not list (→ the adapter stands aside).
 */
import { getMember, internAscii, type JsonNode } from "../shared/json-scan";
import type { AnthropicMemos } from "../../core/caches";
import { blockKind, isServerToolResult, type BlockKind, type WireRole } from "./wire";
import { requireKnown } from "../shared/unknown-type";
import { ANTHROPIC_FROZEN_BLOCKS, type DependencyId } from "../dependencies";

export class AnthropicShapeError extends Error {
  constructor(readonly field: string, message: string) {
    super(`${field}: ${message}`);
    this.name = "AnthropicShapeError";
  }
}

export type ObjectNode = Extract<JsonNode, { type: "object" }>;
export type ArrayNode = Extract<JsonNode, { type: "array" }>;
export type StringNode = Extract<JsonNode, { type: "string" }>;

/** One content block of a message (or of a tool_result's content). */
export interface LocatedBlock {
  index: number;
  node: ObjectNode;
  /** The block's `type` string. */
  type: string;
  kind: BlockKind;
  /** True when the block has a non-null `cache_control` member. */
  cacheControl: boolean;
}

/** One history message. */
export interface LocatedMessage {
  index: number;
  node: ObjectNode;
  role: WireRole;
  /** The `content` value: a string or an array of blocks. */
  content: StringNode | ArrayNode;
  /** Blocks of an array content; [] for string content. */
  blocks: LocatedBlock[];
}

/** A tool_result's array content and its located parts. */
export interface ResultParts {
  content: ArrayNode;
  parts: LocatedBlock[];
}

export interface LocatedHistory {
  root: ObjectNode;
  messagesNode: ArrayNode;
  messages: LocatedMessage[];
}

/** Decodes a string node without escapes fast; with escapes via JSON.parse. */
export function decodeString(bytes: Uint8Array, node: JsonNode, field: string): string {
  if (node.type !== "string") throw new AnthropicShapeError(field, `expected a string, got ${node.type}`);
  if (!node.hasEscape) {
    const interned = internAscii(bytes, node.start + 1, node.end - 1);
    if (interned !== null) return interned;
  }
  const raw = textDecoder.decode(bytes.subarray(node.start + 1, node.end - 1));
  return node.hasEscape ? (JSON.parse(`"${raw}"`) as string) : raw;
}
const textDecoder = new TextDecoder();

/** Reads one block object; `field` names it in errors (e.g. "messages[2].content[0]"). */
export function locateBlock(bytes: Uint8Array, node: JsonNode, index: number, field: string): LocatedBlock {
  if (node.type !== "object") throw new AnthropicShapeError(field, `expected a content block object, got ${node.type}`);
  if (node.duplicateKeys) throw new AnthropicShapeError(field, "duplicate keys");
  const typeNode = getMember(node, "type");
  if (!typeNode) throw new AnthropicShapeError(`${field}.type`, "missing");
  const type = decodeString(bytes, typeNode, `${field}.type`);
  const cc = getMember(node, "cache_control");
  return { index, node, type, kind: blockKind(type), cacheControl: cc !== undefined && cc.type !== "null" };
}

/**
 * Locates `messages` and every message/block. Throws AnthropicShapeError on a malformed history.
 * Located messages are kept per node in `memos.messages` (they depend on the node's bytes only):
 * read-view, edit-rules and check-rules locate the same tree, and a scan reusing the session's
 * last body lends it the same message nodes.
 */
export function locateHistory(bytes: Uint8Array, root: JsonNode, memos: Pick<AnthropicMemos, "messages">): LocatedHistory {
  if (root.type !== "object") throw new AnthropicShapeError("body", `expected an object, got ${root.type}`);
  if (root.duplicateKeys) throw new AnthropicShapeError("body", "duplicate top-level keys");
  const messagesNode = getMember(root, "messages");
  if (!messagesNode) throw new AnthropicShapeError("messages", "missing");
  if (messagesNode.type !== "array") throw new AnthropicShapeError("messages", `expected an array, got ${messagesNode.type}`);
  const items = messagesNode.items;
  const messages: LocatedMessage[] = new Array(items.length);
  const memo = memos.messages;
  for (let index = 0; index < items.length; index++) {
    const node = items[index]!;
    const hit = memo.get(node, () => locateMessage(bytes, node, index));
    // A node keeps its index in every tree that lends it (same bytes before it); the guard costs nothing.
    messages[index] = hit.index === index ? hit : locateMessage(bytes, node, index);
  }
  return { root, messagesNode, messages };
}

/** Locates one history message (`messages[index]`). Throws AnthropicShapeError. */
function locateMessage(bytes: Uint8Array, node: JsonNode, index: number): LocatedMessage {
  const field = `messages[${index}]`;
  if (node.type !== "object") throw new AnthropicShapeError(field, `expected an object, got ${node.type}`);
  if (node.duplicateKeys) throw new AnthropicShapeError(field, "duplicate keys");
  const roleNode = getMember(node, "role");
  if (!roleNode) throw new AnthropicShapeError(`${field}.role`, "missing");
  const role = decodeString(bytes, roleNode, `${field}.role`);
  requireKnown("anthropic", "role", role, `${field}.role`);
  const content = getMember(node, "content");
  if (!content) throw new AnthropicShapeError(`${field}.content`, "missing");
  if (content.type === "string") return { index, node, role: role as WireRole, content, blocks: [] };
  if (content.type !== "array") throw new AnthropicShapeError(`${field}.content`, `expected a string or an array, got ${content.type}`);
  const blocks = content.items.map((b, j) => {
    const block = locateBlock(bytes, b, j, `${field}.content[${j}]`);
    requireKnown("anthropic", "block", block.type, `${field}.content[${j}].type`);
    if (block.kind === "tool_result") requireKnownParts(bytes, block, `${field}.content[${j}]`);
    return block;
  });
  return { index, node, role: role as WireRole, content, blocks };
}

/** Checks the part types of a tool_result's array content against the table (a string or absent content has none). Throws UnknownTypeError. */
function requireKnownParts(bytes: Uint8Array, block: LocatedBlock, field: string): void {
  const content = getMember(block.node, "content");
  if (content?.type !== "array") return;
  for (const [k, p] of content.items.entries()) {
    const t = p.type === "object" ? getMember(p, "type") : undefined;
    // A part without a string type is a shape error, reported where the parts are located (resultParts).
    if (t?.type === "string") requireKnown("anthropic", "result_part", decodeString(bytes, t, `${field}.content[${k}].type`), `${field}.content[${k}].type`);
  }
}

/** The blocks of a tool_result's `content` when it is an array; null for string/absent content. Kept per block node in `memos.resultParts`. */
export function resultParts(bytes: Uint8Array, block: LocatedBlock, field: string, memos: Pick<AnthropicMemos, "resultParts">): ResultParts | null {
  return memos.resultParts.get(block.node, () => {
    const content = getMember(block.node, "content");
    if (!content || content.type !== "array") return null;
    return { content, parts: content.items.map((p, k) => locateBlock(bytes, p, k, `${field}.content[${k}]`)) };
  });
}

/**
 * Placement of mid-conversation `role: "system"` messages (Claude Opus 4.8+; SDK
 * `BetaSystemMessageParam`). The API's errors state the rule: "role 'system' must follow a 'user'
 * message or an 'assistant' message ending in a server tool result" and "role 'system' must
 * precede an 'assistant' message or end the array" (check-rules.ts also refuses a system message
 * directly after another one: docs/emulator.md rule A17);
 * "the directive-only form (content: [] with output_config) is accepted at any position"; a
 * first message may not be one ("use the top-level 'system' parameter"). Shared by edit-rules.ts
 * and check-rules.ts so both read the same rule.
 */
export function isDirectiveOnlySystem(m: LocatedMessage): boolean {
  return m.role === "system" && m.content.type === "array" && m.content.items.length === 0 && getMember(m.node, "output_config") !== undefined;
}

/** Whether `m` may stand directly before a (content-bearing) system message: a user message, or an assistant message whose last block is a server tool result. */
export function mayPrecedeSystem(m: LocatedMessage): boolean {
  if (m.role === "user") return true;
  const last = m.blocks[m.blocks.length - 1];
  return m.role === "assistant" && last !== undefined && isServerToolResult(last.type);
}

/** Whether `m` may stand directly after a (content-bearing) system message: an assistant message (the end of the array is allowed too). */
export function mayFollowSystem(m: LocatedMessage): boolean {
  return m.role === "assistant";
}

/** The `frozen_message` rule a block of `m` falls under (../dependencies.ts ANTHROPIC_FROZEN_BLOCKS: its first such block), else undefined. Read by read-view.ts (MessageInfo.frozen) and edit-rules.ts. */
export function frozenBy(m: LocatedMessage): DependencyId | undefined {
  for (const b of m.blocks) {
    const rule = ANTHROPIC_FROZEN_BLOCKS[b.type];
    if (rule !== undefined) return rule;
  }
  return undefined;
}

/** Whether a tool_use block was called by a server tool on the model's behalf (`caller` present and not `{"type":"direct"}`: @anthropic-ai/sdk BetaToolUseCaller; ../dependencies.ts anthropic.programmatic_call). */
export function isProgrammaticCall(bytes: Uint8Array, use: JsonNode): boolean {
  const caller = getMember(use, "caller");
  if (caller === undefined || caller.type === "null") return false;
  const type = caller.type === "object" ? getMember(caller, "type") : undefined;
  return !(type?.type === "string" && decodeString(bytes, type, "caller.type") === "direct");
}
