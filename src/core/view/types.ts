/**
 * The provider-neutral view of one chat request (pure data, no I/O). Produced by a provider
 * adapter's `readView` from the original body bytes; every byte offset refers to those bytes
 * (UTF-8), half-open `[start, end)`.
 *
 * Terms: a *message* is one element of the history array (Anthropic `messages[i]`, OpenAI Chat
 * `messages[i]`, Responses `input[i]` item). A *turn* is one model round trip: turn k holds
 * everything after the (k-1)-th assistant message up to and including the k-th assistant
 * message (so the turn index of a message = number of assistant messages before it; Responses:
 * number of assistant-output runs before it). A *pair* is a tool call and its result.
 */

/** Wire formats Sluice understands. */
export type Provider = "anthropic" | "openai-chat" | "openai-responses";

/** Half-open byte range `[start, end)` in the original body. */
export interface ByteRange {
  start: number;
  end: number;
}

/** Where an element sits in the history. */
export interface Position {
  /** Index into the history array (messages / input items). */
  message_index: number;
  /** Index of the block inside the message's content array, or -1 for the message itself / string content. */
  block_index: number;
}

/** One message of the history, summarised. */
export interface MessageInfo {
  index: number;
  /** "user" | "assistant" | "system" | "developer" | "tool" | "function" | Responses item type such as "function_call". */
  role: string;
  turn_index: number;
  range: ByteRange;
  /** Bytes of the message in the original body. */
  bytes: number;
  /** Estimated tokens of the message (src/core/tokens). */
  est_tokens: number;
  /** Counts of content kinds in this message. */
  prose_blocks: number;
  media_blocks: number;
  /**
   * Number of parts Sluice must never remove: everything but tool calls and tool results (prose,
   * media, thinking/reasoning, server tool blocks; string content counts as 1). A message may only
   * vanish from an edited request when this is 0 (checked by src/core/plan/check-guarantee.ts).
   */
  non_tool_parts: number;
  /**
   * Hash (src/core/hash.ts) of everything in the message that Sluice must never alter: its role
   * and its non-tool parts (prose, media, thinking, server tool blocks, reasoning), in order —
   * i.e. the message minus its tool-call and tool-result parts (those are checked per pair).
   * The guarantee checker compares it between input and output for every kept message, and a
   * message that disappears must have had no non-tool parts. It is a function of the message's
   * own bytes (`range`) alone, so the checker skips it for a byte-identical kept message; adapters
   * may compute it on first read.
   */
  identity_hash: string;
  /**
   * Set when the message exists only for some tool calls although it has non-tool parts that are
   * meaningless without them: a Responses `reasoning` item bound to the calls it precedes, an
   * OpenAI Chat assistant message whose only other member is reasoning for its calls. The message
   * may disappear only when every listed pair is dropped (`drop_pair`). Absent: it may disappear
   * only if it has no non-tool parts.
   */
  removable_with?: string[];
  /**
   * Set when the message must be sent back unchanged if it is kept (an Anthropic assistant
   * message holding a signed thinking block, a fallback block or an MCP tool listing): the id of
   * the `frozen_message` rule of src/providers/dependencies.ts. The guarantee checker fails a kept
   * frozen message whose bytes changed. Absent: only its non-tool parts are checked.
   */
  frozen?: string;
}

/** A tool call and its result, judged together (DESIGN invariant 3). */
export interface ToolPair {
  /** tool_use id / tool_call_id / call_id. Unique per view (duplicates become orphans). */
  id: string;
  tool_name: string;
  /** Raw text of the call's input (Anthropic `input` JSON text, OpenAI `arguments` string value decoded, custom tool `input`). */
  input_text: string;
  input_bytes: number;
  call: Position;
  result: Position;
  /** Turn index of the call. */
  turn_index: number;
  /** Decoded text of the result (text parts joined with "\n"; media omitted). */
  result_text: string;
  /** Bytes the result occupies in the original body (its content value). */
  result_bytes: number;
  result_est_tokens: number;
  result_is_error: boolean;
  /** Number of image/document parts inside the result. */
  result_media_count: number;
  /** Stable hash (hex) of the result's content bytes; with `id` it keys the ledger. */
  result_hash: string;
  /**
   * Why the adapter refuses to edit this pair, or null if editable. Examples: "cache_control",
   * "last_assistant_turn", "thinking_in_message", "reasoning_link". Locked pairs stay `keep`.
   */
  locked: string | null;
  /**
   * Set when this pair's call may stay only while other calls stay (a `requires_call` rule of
   * src/providers/dependencies.ts, e.g. a Gemini parallel call and the first call of its message,
   * which carries the thought signature): the rule's id and the required pair ids. The plan
   * compiler refuses a drop of a required pair while this one stays; the guarantee checker fails
   * an output that keeps this pair without them. Absent: no such rule.
   */
  requires?: { rule: string; ids: string[] };
}

/** A call without a result or a result without a call: recorded, never edited. */
export interface Orphan {
  id: string;
  kind: "call_without_result" | "result_without_call" | "duplicate_id";
  position: Position;
}

/** The parsed, neutral view of one chat request. */
export interface ConversationView {
  provider: Provider;
  /** The request's `model`, or null when absent. */
  model: string | null;
  /** Total bytes of the original body. */
  body_bytes: number;
  /** Estimated input tokens of the whole request. */
  est_tokens: number;
  messages: MessageInfo[];
  pairs: ToolPair[];
  orphans: Orphan[];
  /** Number of turns (assistant messages) in the history. */
  turn_count: number;
  /**
   * Set when Sluice stands aside and edits nothing, naming why: a feature that hands the history
   * to the provider (a client `context_management` edit, a `compaction` block/item,
   * `previous_response_id`, …: the `stand_aside` rows of src/providers/known-types.ts), or, with
   * `unknown_type`, the first type, role, item or field the table does not list.
   */
  server_managed: string | null;
  /**
   * True when `server_managed` names a type Sluice does not know (src/providers/known-types.ts):
   * the view then holds no messages and no pairs. Absent: a known reason, or none.
   */
  unknown_type?: true;
  /**
   * Anthropic: index of the message holding the history's last `compaction` block (the provider
   * ignores everything before it: src/core/policy/native-compaction.ts). Absent: no such block.
   */
  compaction_message?: number;
}
