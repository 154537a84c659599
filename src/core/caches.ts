/**
 * The memos the pure code reads through, in one object its host owns (pure data structures, no
 * I/O). Nothing here changes an answer: every memo is a transparent cache of a pure function, so
 * a fresh CoreCaches gives the same results as a warm one, only slower.
 *
 * Why they exist (measured): an agent's next request repeats its last body and appends a turn.
 * The scan cache (src/gateway/scan-cache.ts) lends the previous body's history nodes to the new
 * scan, and the node memos below hand back what was read from those nodes, so a request pays
 * only for its new messages; the tool-call memo does the same for call classification by pair id.
 * The bench's gateway CPU per compaction-on request (bench/step-rpc.bench.ts, every corpus call
 * in order) measured a p50 1.5–2× higher with a fresh CoreCaches per call than with one per run,
 * for each of the three wire formats.
 *
 * Lifetime and bound:
 * - The Worker keeps one per isolate (src/gateway/isolate-caches.ts), shared by its requests; a
 *   tool keeps one per run; a test one per case. A host that passes a fresh one per request gets
 *   the memos within that request only.
 * - Node memos (NodeMemo: keyed weakly by a scanned JsonNode) hold an entry as long as its node.
 *   A node outlives its request only while the scan cache holds its body, so these are bounded
 *   by the scan cache's share of the isolate budget (./isolate-memory-budget.ts), whose
 *   weight per body byte (HELD_PER_BODY_BYTE) is measured with them filled
 *   (tools/load/scan-cache-memory.ts). Each value depends on its node's bytes alone (and, where
 *   noted, on the node's index or turn, which the reader checks on every hit).
 * - `toolCalls` is bounded by its own share (TOOL_CALL_MEMO_BUDGET_BYTES, TOOL_CALL_MEMO_SIZE
 *   entries; least recently used dropped first).
 */
import { ToolCallMemo } from "./engine/read-tool-call-memo";
import type { MessageMarks } from "./facts/cache-facts";
import { NodeMemo } from "../providers/shared/node-memo";
import type { LocatedMessage, ResultParts } from "../providers/anthropic-messages/locate-blocks";
import type { MessageTokens, PairBlockFacts } from "../providers/anthropic-messages/read-view";
import type { ChatMessage } from "../providers/openai-chat/locate-pairs";
import type { ResponsesItem } from "../providers/openai-responses/locate-items";

/** The Anthropic reader's node memos (src/providers/anthropic-messages/). */
export interface AnthropicMemos {
  /** Per message node: the located message (role, content, blocks; locate-blocks.ts), valid at the index it holds. */
  readonly messages: NodeMemo<LocatedMessage>;
  /** Per tool_result block node: its located content parts, or null for string content (locate-blocks.ts resultParts). */
  readonly resultParts: NodeMemo<ResultParts | null>;
  /** Per message node: its token estimate and those of its tool_result contents (read-view.ts). */
  readonly tokens: NodeMemo<MessageTokens>;
  /** Per message node: its identity hash (read-view.ts MessageInfo.identity_hash). */
  readonly identity: NodeMemo<string>;
  /** Per tool_use / tool_result block node: its decoded `id` / `tool_use_id`. */
  readonly blockIds: NodeMemo<string>;
  /** Per tool_result block node: what its pair's fields take from the two blocks' bytes, valid for the tool_use node it holds. */
  readonly pairs: NodeMemo<PairBlockFacts>;
  /** Per tool_result block node: its decoded result text. */
  readonly resultText: NodeMemo<string>;
}

/** See the module header. */
export interface CoreCaches {
  /** Per history element node: its prefix hash, cache markers left out (./facts/prefix-facts.ts). */
  readonly messageHashes: NodeMemo<string>;
  /** Per tool definition node: [name hash, marker-free definition hash] (./facts/cache-facts.ts). */
  readonly toolHashes: NodeMemo<[string, string]>;
  /** Per Anthropic message node: its cache markers and marker-free hash (./facts/cache-facts.ts). */
  readonly messageMarks: NodeMemo<MessageMarks>;
  /** Per system prompt node: the hashes of its fixed-size chunks (./facts/cache-facts.ts systemChunks). */
  readonly systemChunks: NodeMemo<string[]>;
  /** Per history element node: the mention keys of its assistant prose (src/providers/shared/message-mentions.ts). */
  readonly mentions: NodeMemo<readonly string[]>;
  readonly anthropic: AnthropicMemos;
  /** Per OpenAI Chat message node: the located message with the facts read from it (locate-pairs.ts), valid at the index and turn it holds. */
  readonly chatMessages: NodeMemo<ChatMessage>;
  /** Per OpenAI Responses input item node: the located item with the facts read from it (locate-items.ts), valid at the index and turn it holds. */
  readonly responsesItems: NodeMemo<ResponsesItem>;
  /** readToolCall answers by pair id (./engine/read-tool-call-memo.ts). */
  readonly toolCalls: ToolCallMemo;
}

/** A new, empty set of caches. */
export function newCoreCaches(): CoreCaches {
  return {
    messageHashes: new NodeMemo(),
    toolHashes: new NodeMemo(),
    messageMarks: new NodeMemo(),
    systemChunks: new NodeMemo(),
    mentions: new NodeMemo(),
    anthropic: { messages: new NodeMemo(), resultParts: new NodeMemo(), tokens: new NodeMemo(), identity: new NodeMemo(), blockIds: new NodeMemo(), pairs: new NodeMemo(), resultText: new NodeMemo() },
    chatMessages: new NodeMemo(),
    responsesItems: new NodeMemo(),
    toolCalls: new ToolCallMemo(),
  };
}
