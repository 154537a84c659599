/**
 * Builds Messages API answers (pure): the JSON `message` object and its SSE stream
 * (message_start → content_block_start/delta/stop per block → message_delta with usage →
 * message_stop; platform.claude.com/docs/en/build-with-claude/streaming). A `compaction` block
 * streams as one `compaction_delta` (SDK BetaCompactionContentBlockDelta); the usage's
 * `iterations`, when present, come in the final `message_delta`.
 */
import { countTokens } from "../shared/count-tokens";
import { isObject, prop, str, type Json, type JsonObject } from "../shared/json";
import { chunkText, type SseEvent } from "../shared/sse";
import { asBlocks, renderBlock } from "./segment-prompt";

/** Usage block of a Messages response. */
export interface AnthropicUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
  output_tokens: number;
  /** Present when a compaction ran: the compaction iteration, then the answer's (SDK BetaIterationsUsage). */
  iterations?: JsonObject[];
}

/** Content blocks of a recorded reply: a message object `{role, content}`, a content array, or a string. */
export function replyContent(reply: Json | undefined): Json[] {
  if (reply === undefined) return [{ type: "text", text: "OK (canned emulator reply)." }];
  if (isObject(reply) && "content" in reply) return asBlocks(reply.content);
  return asBlocks(reply);
}

/** Output tokens of reply content (same BPE as the input estimate), at least 1. */
export function outputTokens(content: readonly Json[]): number {
  return Math.max(1, content.reduce<number>((n, b) => n + countTokens(renderBlock(b).text), 0));
}

/**
 * The JSON message the API returns. `extras` are top-level fields some requests get:
 * `context_management` (`{applied_edits}`) and `input_transformations`.
 */
export function buildMessage(id: string, model: string, content: Json[], usage: AnthropicUsage, extras: JsonObject = {}): JsonObject {
  const stop = content.some((b) => str(b, "type") === "tool_use") ? "tool_use" : "end_turn";
  return { id, type: "message", role: "assistant", model, content, stop_reason: stop, stop_sequence: null, usage: usage as unknown as JsonObject, ...extras };
}

const ev = (event: string, data: JsonObject): SseEvent => ({ event, data: JSON.stringify({ type: event, ...data }) });

/**
 * The SSE events streaming `message` (a value from buildMessage). `input_transformations` is final
 * in `message_start`; `context_management` comes in the final `message_delta` (SDK
 * BetaRawMessageDeltaEvent, BetaMessage.input_transformations).
 */
export function streamMessage(message: JsonObject): SseEvent[] {
  const usage = message.usage as unknown as AnthropicUsage;
  const content = message.content as Json[];
  const { context_management, ...head } = message;
  const events: SseEvent[] = [
    ev("message_start", { message: { ...head, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } as unknown as JsonObject } }),
    ev("ping", {}),
  ];
  content.forEach((block, index) => {
    const type = str(block, "type");
    const deltas: JsonObject[] = [];
    let start: Json = block;
    if (type === "text") {
      start = { type: "text", text: "" };
      for (const t of chunkText(str(block, "text") ?? "")) deltas.push({ type: "text_delta", text: t });
    } else if (type === "thinking") {
      start = { type: "thinking", thinking: "", signature: "" };
      for (const t of chunkText(str(block, "thinking") ?? "")) deltas.push({ type: "thinking_delta", thinking: t });
      deltas.push({ type: "signature_delta", signature: str(block, "signature") ?? "" });
    } else if (type === "compaction" && typeof prop(block, "signature") === "string") {
      // An on-demand summary: its content, then its signature (the emulator streams it as thinking streams its own).
      start = { type: "compaction", content: null, signature: "" };
      deltas.push({ type: "compaction_delta", content: str(block, "content") ?? null }, { type: "signature_delta", signature: str(block, "signature")! });
    } else if (type === "compaction") {
      start = { type: "compaction", content: null, encrypted_content: null };
      deltas.push({ type: "compaction_delta", content: str(block, "content") ?? null, encrypted_content: str(block, "encrypted_content") ?? null });
    } else if (type === "tool_use") {
      start = { type: "tool_use", id: str(block, "id") ?? "", name: str(block, "name") ?? "", input: {} };
      for (const t of chunkText(JSON.stringify(prop(block, "input") ?? {}))) deltas.push({ type: "input_json_delta", partial_json: t });
    }
    events.push(ev("content_block_start", { index, content_block: start }));
    for (const delta of deltas) events.push(ev("content_block_delta", { index, delta }));
    events.push(ev("content_block_stop", { index }));
  });
  events.push(
    ev("message_delta", {
      delta: { stop_reason: message.stop_reason ?? null, stop_sequence: null },
      usage: {
        input_tokens: usage.input_tokens,
        cache_creation_input_tokens: usage.cache_creation_input_tokens,
        cache_read_input_tokens: usage.cache_read_input_tokens,
        output_tokens: usage.output_tokens,
        ...(usage.iterations === undefined ? {} : { iterations: usage.iterations as unknown as Json[] }),
      },
      ...(context_management === undefined ? {} : { context_management }),
    }),
    ev("message_stop", {}),
  );
  return events;
}
