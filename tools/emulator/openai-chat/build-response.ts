/**
 * Builds Chat Completions answers (pure): the `chat.completion` object and its chunk stream
 * (role chunk, content / tool_call deltas, a finish chunk, with `stream_options.include_usage` a
 * last chunk with empty `choices` and the usage, then `data: [DONE]`;
 * developers.openai.com/api/reference/resources/chat/subresources/completions/streaming-events).
 */
import { countTokens } from "../shared/count-tokens";
import { arr, isObject, prop, str, type Json, type JsonObject } from "../shared/json";
import { chunkText, type SseEvent } from "../shared/sse";

/** Usage block of a Chat Completions response. */
export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number; audio_tokens: number; cache_write_tokens?: number };
  completion_tokens_details: { reasoning_tokens: number; audio_tokens: number; accepted_prediction_tokens: number; rejected_prediction_tokens: number };
}

/** The assistant message of a recorded reply (`{role, content, tool_calls}` or a string), or a canned one. */
export function replyMessage(reply: Json | undefined): JsonObject {
  if (reply === undefined) return { role: "assistant", content: "OK (canned emulator reply)." };
  if (typeof reply === "string") return { role: "assistant", content: reply };
  return isObject(reply) ? { ...reply, role: "assistant" } : { role: "assistant", content: "" };
}

function contentText(m: JsonObject): string {
  const c = m.content;
  if (typeof c === "string") return c;
  return Array.isArray(c) ? c.map((p) => str(p, "text") ?? "").join("") : "";
}

/** Output tokens of a reply message: content plus tool-call names and arguments, at least 1. */
export function outputTokens(m: JsonObject): number {
  const calls = arr(m, "tool_calls") ?? [];
  return Math.max(1, countTokens(contentText(m)) + (calls.length ? countTokens(JSON.stringify(calls)) : 0));
}

/** The JSON `chat.completion` object. */
export function buildCompletion(id: string, created: number, model: string, m: JsonObject, usage: ChatUsage): JsonObject {
  const calls = arr(m, "tool_calls");
  const message: JsonObject = { role: "assistant", content: m.content === undefined ? null : typeof m.content === "string" ? m.content : contentText(m), refusal: null, annotations: [] };
  if (calls && calls.length) message.tool_calls = calls;
  return {
    id,
    object: "chat.completion",
    created,
    model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: calls && calls.length ? "tool_calls" : "stop" }],
    usage: usage as unknown as JsonObject,
    service_tier: "default",
    system_fingerprint: null,
  };
}

/** The SSE chunks streaming `completion` (from buildCompletion). */
export function streamCompletion(completion: JsonObject, includeUsage: boolean): SseEvent[] {
  const choice = (completion.choices as JsonObject[])[0]!;
  const message = choice.message as JsonObject;
  const base = { id: completion.id!, object: "chat.completion.chunk", created: completion.created!, model: completion.model!, service_tier: "default", system_fingerprint: null };
  const chunk = (delta: JsonObject, finish: string | null): SseEvent => ({
    data: JSON.stringify({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...(includeUsage ? { usage: null } : {}) }),
  });
  const out: SseEvent[] = [chunk({ role: "assistant", content: "", refusal: null }, null)];
  const text = typeof message.content === "string" ? message.content : "";
  if (text !== "") for (const t of chunkText(text)) out.push(chunk({ content: t }, null));
  (arr(message, "tool_calls") ?? []).forEach((call, index) => {
    const type = str(call, "type") ?? "function";
    const fn = prop(call, type) ?? {};
    const body = type === "custom" ? str(fn, "input") ?? "" : str(fn, "arguments") ?? "";
    const field = type === "custom" ? "input" : "arguments";
    out.push(chunk({ tool_calls: [{ index, id: str(call, "id") ?? "", type, [type]: { name: str(fn, "name") ?? "", [field]: "" } }] }, null));
    for (const t of chunkText(body)) out.push(chunk({ tool_calls: [{ index, [type]: { [field]: t } }] }, null));
  });
  out.push(chunk({}, choice.finish_reason as string));
  if (includeUsage) out.push({ data: JSON.stringify({ ...base, choices: [], usage: completion.usage }) });
  out.push({ data: "[DONE]" });
  return out;
}
