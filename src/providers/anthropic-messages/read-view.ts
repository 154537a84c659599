/**
 * Anthropic Messages body → neutral view (pure). One scan of the body (../shared/json-scan.ts),
 * then one walk of `messages`: message summaries with identity hashes, tool pairs with byte
 * positions, orphans, locks, and the server-managed flag (DESIGN §6: a client edit that clears
 * tool uses or compacts (../shared/client-context-management.ts), on-demand `compaction` or a
 * server-held `thread` (../known-types.ts), or a `compaction` block →
 * Sluice edits nothing, unless the session caused the block: src/core/policy/native-compaction.ts
 * viewFromCompaction, with `compaction_message`; a thinking-only edit does not stop compaction).
 *
 * Pairing rule (Anthropic): a `tool_use` in assistant message i is answered by a `tool_result`
 * with the same id in message i+1, which must be a user message. Anything else is an orphan.
 * An id used by more than one tool_use or tool_result block (seen in the corpus, where an export
 * replays a stretch of history) is ambiguous for a plan keyed by id: every block carrying it
 * becomes a `duplicate_id` orphan and is never edited.
 */
import type { ConversationView, MessageInfo, Orphan, ToolPair } from "../../core/view/types";
import type { ParsedRequest } from "../types";
import { hashSlices } from "../../core/hash";
import { MEDIA_TOKENS, estimateTokensFromBytes, estimateTokensOfSlice } from "../../core/tokens/estimate";
import { getMember, scanJson, type JsonNode } from "../shared/json-scan";
import { knownOrLazy, lazyField } from "../shared/lazy-field";
import type { AnthropicMemos, CoreCaches } from "../../core/caches";
import { applyReferenceLocks } from "../shared/reference-locks";
import { anthropicContextManagementReason } from "../shared/client-context-management";
import { checkFields, readOrStandAside } from "../shared/unknown-type";
import { codeOf } from "../dependencies";
import { AnthropicShapeError, decodeString, frozenBy, isProgrammaticCall, locateHistory, resultParts, type LocatedBlock, type LocatedMessage } from "./locate-blocks";
import { isMediaPart, modelChecksThinkingPrefix } from "./wire";

/**
 * Parses an Anthropic Messages request body, reading through `caches`. Throws (→ fail open) on
 * malformed JSON or history. A field, edit, role, block or part type ../known-types.ts does not
 * list gives the stand-aside view (../shared/unknown-type.ts) instead.
 */
export function readAnthropic(bytes: Uint8Array, caches: CoreCaches, scanned?: JsonNode): ParsedRequest {
  return readOrStandAside("anthropic", bytes, caches, scanned ?? scanJson(bytes), readKnown);
}

function readKnown(bytes: Uint8Array, caches: CoreCaches, root: JsonNode): ParsedRequest {
  const memos = caches.anthropic;
  if (root.type !== "object") throw new AnthropicShapeError("body", `expected an object, got ${root.type}`);
  const asideField = checkFields("anthropic", root);
  const history = locateHistory(bytes, root, memos);
  const modelNode = getMember(root, "model");
  const model = modelNode?.type === "string" ? decodeString(bytes, modelNode, "model") : null;
  const msgs = history.messages;

  // 1. Server-managed history: a client edit doing what Sluice does, a field that hands the
  // history to the provider (on-demand compaction, a server-held thread), or any compaction block.
  // A block alone may be Sluice's own server-side compaction: the session decides
  // (src/core/policy/native-compaction.ts viewFromCompaction), so its pairs carry their own locks.
  const compactionMessage = msgs.findLast((m) => m.blocks.some((b) => b.kind === "compaction"))?.index;
  const clientEdit = anthropicContextManagementReason(bytes, getMember(root, "context_management")) ?? asideField;
  const serverManaged = clientEdit ?? (compactionMessage !== undefined ? "compaction" : null);

  // 2. Messages: turn index, identity hash over non-tool parts, counts, estimates.
  const messages: MessageInfo[] = [];
  let assistantsBefore = 0;
  let lastAssistant = -1;
  let lastThinking = -1;
  /** tool_result block start → estimated tokens of its content (filled by messageTokens). */
  const resultTokens = new Map<number, number>();
  for (const m of msgs) {
    let prose = 0;
    let media = 0;
    let nonTool = 0;
    if (m.content.type === "string") {
      prose = 1;
      nonTool = 1;
    } else {
      for (const b of m.blocks) {
        switch (b.kind) {
          case "tool_use":
          case "tool_result":
            break;
          case "prose":
            prose++; nonTool++;
            break;
          case "media":
            media++; nonTool++;
            break;
          case "thinking":
            nonTool++;
            if (m.index > lastThinking) lastThinking = m.index;
            break;
          case "compaction":
          case "other":
            nonTool++;
            break;
          default: {
            const never: never = b.kind;
            throw new Error(`unhandled block kind ${String(never)}`);
          }
        }
      }
    }
    const bytesLen = m.node.end - m.node.start;
    const fields: Omit<MessageInfo, "est_tokens" | "identity_hash"> = {
      index: m.index,
      role: m.role,
      turn_index: assistantsBefore,
      range: { start: m.node.start, end: m.node.end },
      bytes: bytesLen,
      prose_blocks: prose,
      media_blocks: media,
      non_tool_parts: nonTool,
    };
    // A message node lent by the scan reuse has its estimate and hash at hand: plain fields then.
    const info: MessageInfo = knownOrLazy(
      knownOrLazy(fields, "est_tokens", knownTokens(m, resultTokens, memos), () => memoTokens(bytes, m, resultTokens, memos)),
      "identity_hash",
      memos.identity.peek(m.node),
      () => memos.identity.get(m.node, () => hashSlices(bytes, identitySlices(m))),
    );
    const frozen = frozenBy(m);
    if (frozen !== undefined) info.frozen = frozen;
    messages.push(info);
    if (m.role === "assistant") {
      assistantsBefore++;
      lastAssistant = m.index;
    }
  }

  // 3. Pairs and orphans.
  const { pairs, orphans } = pairBlocks(bytes, msgs, {
    serverManaged: clientEdit,
    lastAssistant,
    lastThinking: modelChecksThinkingPrefix(model) ? lastThinking : -1,
    messages,
    resultTokens,
    memos,
  });
  applyReferenceLocks(pairs, caches.toolCalls);
  const mn = history.messagesNode;

  const fields: Omit<ConversationView, "est_tokens"> = {
    provider: "anthropic",
    model,
    body_bytes: bytes.length,
    messages,
    pairs,
    orphans,
    turn_count: assistantsBefore,
    server_managed: serverManaged,
    ...(compactionMessage !== undefined ? { compaction_message: compactionMessage } : {}),
  };
  const view: ConversationView = lazyField(fields, "est_tokens", () => messages.reduce((t, m) => t + m.est_tokens, 0) + estimateTokensOfSlice(bytes, 0, mn.start) + estimateTokensOfSlice(bytes, mn.end, bytes.length));
  const resultRanges = pairs.map((p) => {
    const block = msgs[p.result.message_index]!.blocks[p.result.block_index]!.node;
    const content = getMember(block, "content") ?? block;
    return { start: content.start, end: content.end };
  });
  return { bytes, root, view, resultRanges, caches };
}

/** A message's token estimate and its tool_results' ([tool_result block start, tokens]); it depends on the message's bytes only. */
export interface MessageTokens {
  total: number;
  results: [number, number][];
}

/** messageTokens, once per message node (memos.tokens): a node lent by an earlier scan keeps its estimate and its results' estimates. */
function memoTokens(bytes: Uint8Array, m: LocatedMessage, resultTokens: Map<number, number>, memos: AnthropicMemos): number {
  const memo = memos.tokens.get(m.node, () => {
    const own = new Map<number, number>();
    return { total: messageTokens(bytes, m, own, memos), results: [...own] };
  });
  return recordTokens(memo, resultTokens);
}

/** memoTokens when the node's estimate is already stored (its results' estimates recorded too), else undefined. */
function knownTokens(m: LocatedMessage, resultTokens: Map<number, number>, memos: AnthropicMemos): number | undefined {
  const memo = memos.tokens.peek(m.node);
  return memo === undefined ? undefined : recordTokens(memo, resultTokens);
}

/** Records a message's stored result estimates in `resultTokens`; returns its total. */
function recordTokens(memo: MessageTokens, resultTokens: Map<number, number>): number {
  for (const [at, t] of memo.results) resultTokens.set(at, t);
  return memo.total;
}

/**
 * Estimated tokens of one message: each block estimated once (tool_result contents recorded in
 * `resultTokens` for their pairs), media at MEDIA_TOKENS, bytes outside blocks at 4 bytes/token.
 */
function messageTokens(bytes: Uint8Array, m: LocatedMessage, resultTokens: Map<number, number>, memos: AnthropicMemos): number {
  if (m.content.type === "string") return estimateTokensOfSlice(bytes, m.node.start, m.node.end);
  let est = 0;
  let blockBytes = 0;
  for (const b of m.blocks) {
    if (b.kind === "tool_result") {
      const content = getMember(b.node, "content");
      if (!content) continue;
      const t = contentTokens(bytes, content, b, `messages[${m.index}].content[${b.index}]`, memos);
      resultTokens.set(b.node.start, t);
      est += t;
      blockBytes += content.end - content.start;
    } else {
      est += b.kind === "media" ? MEDIA_TOKENS : estimateTokensOfSlice(bytes, b.node.start, b.node.end);
      blockBytes += b.node.end - b.node.start;
    }
  }
  return est + estimateTokensFromBytes(m.node.end - m.node.start - blockBytes);
}

/** What a message's identity hash covers: its role literal, then its string content or each non-tool block (tool_use / tool_result are left out). */
function identitySlices(m: LocatedMessage): { start: number; end: number }[] {
  const role = getMember(m.node, "role")!;
  const slices = [{ start: role.start, end: role.end }];
  if (m.content.type === "string") slices.push({ start: m.content.start, end: m.content.end });
  else for (const b of m.blocks) if (b.kind !== "tool_use" && b.kind !== "tool_result") slices.push(b.node);
  return slices;
}

/** Tokens of a tool_result's content: text estimated, media parts (base64 payloads) at the flat MEDIA_TOKENS. */
function contentTokens(bytes: Uint8Array, content: JsonNode, block: LocatedBlock, field: string, memos: AnthropicMemos): number {
  if (content.type !== "array") return estimateTokensOfSlice(bytes, content.start, content.end);
  const rp = resultParts(bytes, block, field, memos);
  let t = 0;
  let partBytes = 0;
  for (const p of rp?.parts ?? []) {
    t += isMediaPart(p.type) ? MEDIA_TOKENS : estimateTokensOfSlice(bytes, p.node.start, p.node.end);
    partBytes += p.node.end - p.node.start;
  }
  return t + estimateTokensFromBytes(content.end - content.start - partBytes);
}

interface PairContext {
  serverManaged: string | null;
  lastAssistant: number;
  /** Index of the last message holding a thinking block, when the model runs prefix checks; else -1. */
  lastThinking: number;
  messages: MessageInfo[];
  resultTokens: Map<number, number>;
  memos: AnthropicMemos;
}

interface Site {
  message: LocatedMessage;
  block: LocatedBlock;
}

/** Matches tool_use ↔ tool_result blocks, records orphans, fills pair details and locks. */
function pairBlocks(bytes: Uint8Array, msgs: LocatedMessage[], ctx: PairContext): { pairs: ToolPair[]; orphans: Orphan[] } {
  const uses = new Map<string, Site[]>();
  const results = new Map<string, Site[]>();
  for (const m of msgs) {
    for (const b of m.blocks) {
      if (b.kind === "tool_use") push(uses, blockId(bytes, m, b, "id", ctx.memos), { message: m, block: b });
      else if (b.kind === "tool_result") push(results, blockId(bytes, m, b, "tool_use_id", ctx.memos), { message: m, block: b });
    }
  }
  const pairs: ToolPair[] = [];
  const orphans: Orphan[] = [];
  const pos = (s: Site) => ({ message_index: s.message.index, block_index: s.block.index });
  for (const [id, useSites] of uses) {
    const resSites = results.get(id) ?? [];
    if (useSites.length > 1 || resSites.length > 1) {
      for (const s of [...useSites, ...resSites]) orphans.push({ id, kind: "duplicate_id", position: pos(s) });
      continue;
    }
    const use = useSites[0]!;
    const res = resSites[0];
    const answered = res !== undefined && use.message.role === "assistant" && res.message.role === "user" && res.message.index === use.message.index + 1;
    if (!answered) {
      orphans.push({ id, kind: "call_without_result", position: pos(use) });
      if (res) orphans.push({ id, kind: "result_without_call", position: pos(res) });
      continue;
    }
    pairs.push(describePair(bytes, id, use, res, ctx));
  }
  for (const [id, resSites] of results) {
    if (uses.has(id)) continue;
    for (const s of resSites) orphans.push({ id, kind: resSites.length > 1 ? "duplicate_id" : "result_without_call", position: pos(s) });
  }
  pairs.sort((a, b) => a.call.message_index - b.call.message_index || a.call.block_index - b.call.block_index);
  orphans.sort((a, b) => a.position.message_index - b.position.message_index || a.position.block_index - b.position.block_index);
  return { pairs, orphans };
}

function push(map: Map<string, Site[]>, id: string, site: Site): void {
  const list = map.get(id);
  if (list) list.push(site);
  else map.set(id, [site]);
}

function missing(m: LocatedMessage, b: LocatedBlock, key: string): never {
  throw new Error(`messages[${m.index}].content[${b.index}].${key}: missing`);
}

/** A tool_use's `id` or a tool_result's `tool_use_id` (`key`), decoded once per block node (memos.blockIds). */
function blockId(bytes: Uint8Array, m: LocatedMessage, b: LocatedBlock, key: "id" | "tool_use_id", memos: AnthropicMemos): string {
  return memos.blockIds.get(b.node, () => decodeString(bytes, getMember(b.node, key) ?? missing(m, b, key), `messages[${m.index}].content[${b.index}].${key}`));
}

/** What a pair's fields take from its two blocks' bytes alone (memoised per tool_result node, for the same tool_use node). */
export interface PairBlockFacts {
  use: JsonNode;
  tool_name: string;
  input_text: string;
  input_bytes: number;
  result_bytes: number;
  result_is_error: boolean;
  result_media_count: number;
  result_hash: string;
  /** A cache_control marker on either block or inside the result's content. */
  cache_control: boolean;
  /** The dependency lock the pair's own blocks impose (../dependencies.ts): a tool_reference part in the result, a programmatic caller on the call; else null. */
  dependency_lock: string | null;
}

/** PairBlockFacts of `use` ↔ `res`, once per pair of nodes (memos.pairs). Throws AnthropicShapeError on a text part whose text is not a string (F03). */
function pairFacts(bytes: Uint8Array, use: Site, res: Site, memos: AnthropicMemos): PairBlockFacts {
  const hit = memos.pairs.peek(res.block.node);
  if (hit !== undefined && hit.use === use.block.node) return hit;
  const field = `messages[${res.message.index}].content[${res.block.index}]`;
  const nameNode = getMember(use.block.node, "name");
  const inputNode = getMember(use.block.node, "input");
  const content = getMember(res.block.node, "content");
  const isError = getMember(res.block.node, "is_error");
  const rp = resultParts(bytes, res.block, field, memos);
  let mediaCount = 0;
  let nestedCache = false;
  let toolReference = false;
  for (const p of rp?.parts ?? []) {
    if (p.cacheControl) nestedCache = true;
    if (p.type === "tool_reference") toolReference = true;
    if (isMediaPart(p.type)) mediaCount++;
    // Shape checked here, at read, so that decoding the lazy result_text later cannot throw (F03).
    const text = p.type === "text" ? getMember(p.node, "text") : undefined;
    if (text && text.type !== "string") throw new AnthropicShapeError(`${field}.content[${p.index}].text`, `expected a string, got ${text.type}`);
  }
  const facts: PairBlockFacts = {
    use: use.block.node,
    tool_name: nameNode?.type === "string" ? decodeString(bytes, nameNode, "name") : "",
    input_text: inputNode ? textDecoder.decode(bytes.subarray(inputNode.start, inputNode.end)) : "",
    input_bytes: inputNode ? inputNode.end - inputNode.start : 0,
    result_bytes: content ? content.end - content.start : 0,
    result_is_error: isError?.type === "true",
    result_media_count: mediaCount,
    result_hash: hashSlices(bytes, content ? [content] : []),
    cache_control: use.block.cacheControl || res.block.cacheControl || nestedCache,
    dependency_lock: toolReference ? codeOf("anthropic.tool_reference_loads_tool") : isProgrammaticCall(bytes, use.block.node) ? codeOf("anthropic.programmatic_call") : null,
  };
  memos.pairs.set(res.block.node, facts);
  return facts;
}

function describePair(bytes: Uint8Array, id: string, use: Site, res: Site, ctx: PairContext): ToolPair {
  const f = pairFacts(bytes, use, res, ctx.memos);
  const locked =
    ctx.serverManaged !== null ? "server_managed"
    : use.message.index === ctx.lastAssistant ? "last_assistant_turn"
    : f.cache_control ? "cache_control"
    : res.message.index < ctx.lastThinking ? codeOf("anthropic.thinking_prefix")
    : f.dependency_lock;

  const fields: Omit<ToolPair, "result_text" | "result_est_tokens"> = {
    id,
    tool_name: f.tool_name,
    input_text: f.input_text,
    input_bytes: f.input_bytes,
    call: { message_index: use.message.index, block_index: use.block.index },
    result: { message_index: res.message.index, block_index: res.block.index },
    turn_index: ctx.messages[use.message.index]!.turn_index,
    result_bytes: f.result_bytes,
    result_is_error: f.result_is_error,
    result_media_count: f.result_media_count,
    result_hash: f.result_hash,
    locked,
  };
  // Decoded text and estimate are needed only for pairs a tier or engine looks at: computed on first read.
  // (A text already decoded for this node, and an estimate its message recorded, are plain fields.)
  return knownOrLazy(
    knownOrLazy(fields, "result_text", ctx.memos.resultText.peek(res.block.node), () =>
      ctx.memos.resultText.get(res.block.node, () => {
        const content = getMember(res.block.node, "content");
        const field = `messages[${res.message.index}].content[${res.block.index}]`;
        return decodeResultText(bytes, content, resultParts(bytes, res.block, field, ctx.memos)?.parts ?? [], field);
      }),
    ),
    "result_est_tokens",
    ctx.resultTokens.get(res.block.node.start),
    () => {
      void ctx.messages[res.message.index]!.est_tokens; // fills resultTokens for that message
      return ctx.resultTokens.get(res.block.node.start) ?? 0;
    },
  );
}

/** Result text: string content, or the text parts joined with "\n" (media omitted). */
function decodeResultText(bytes: Uint8Array, content: JsonNode | undefined, parts: LocatedBlock[], field: string): string {
  if (content?.type === "string") return decodeString(bytes, content, `${field}.content`);
  const texts: string[] = [];
  for (const p of parts) {
    if (p.type !== "text") continue;
    const t = getMember(p.node, "text");
    if (t) texts.push(decodeString(bytes, t, `${field}.content[${p.index}].text`));
  }
  return texts.join("\n");
}

const textDecoder = new TextDecoder();
