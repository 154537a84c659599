/**
 * Builds Responses API answers (pure): the `response` object and its event stream
 * (response.created → response.in_progress → per output item: output_item.added, content or
 * argument deltas, output_item.done → response.completed with usage; every event carries `type`
 * and `sequence_number`; developers.openai.com/api/reference/resources/responses/streaming-events).
 */
import { countTokens } from "../shared/count-tokens";
import { isObject, str, type Json, type JsonObject } from "../shared/json";
import { chunkText, type SseEvent } from "../shared/sse";
import { renderItem } from "./segment-prompt";

/** Usage block of a Responses response. */
export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number; cache_write_tokens?: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

/** Output items of a recorded reply: an array of items, `{output: [...]}`, one item, or a string; canned when absent. */
export function replyItems(reply: Json | undefined): JsonObject[] {
  const text = (t: string): JsonObject => ({ type: "message", role: "assistant", content: [{ type: "output_text", text: t, annotations: [] }] });
  if (reply === undefined) return [text("OK (canned emulator reply).")];
  if (typeof reply === "string") return [text(reply)];
  const list = Array.isArray(reply) ? reply : isObject(reply) && Array.isArray(reply.output) ? reply.output : [reply];
  return list.filter(isObject);
}

/** Items as the API returns them: every item gets an id and a status when the recording has none. */
export function finishItems(items: readonly JsonObject[], seq: number): JsonObject[] {
  const prefix: Record<string, string> = { message: "msg", function_call: "fc", custom_tool_call: "ctc", reasoning: "rs" };
  return items.map((item, k) => {
    const type = str(item, "type") ?? "message";
    const out: JsonObject = { ...item, type };
    if (out.id === undefined) out.id = `${prefix[type] ?? "item"}_emu${seq}_${k}`;
    if (type !== "reasoning" && out.status === undefined) out.status = "completed";
    return out;
  });
}

/** Output tokens of the reply items, at least 1. */
export function outputTokens(items: readonly Json[]): number {
  return Math.max(1, items.reduce<number>((n, i) => n + countTokens(renderItem(i).text), 0));
}

/** The JSON `response` object. */
export function buildResponse(id: string, createdAt: number, model: string, output: JsonObject[], usage: ResponsesUsage): JsonObject {
  return { id, object: "response", created_at: createdAt, status: "completed", error: null, incomplete_details: null, model, output, usage: usage as unknown as JsonObject };
}

/** The SSE events streaming `response` (from buildResponse). */
export function streamResponse(response: JsonObject): SseEvent[] {
  let seq = 0;
  const events: SseEvent[] = [];
  const ev = (type: string, data: JsonObject) => events.push({ event: type, data: JSON.stringify({ type, sequence_number: seq++, ...data }) });
  const pending = { ...response, status: "in_progress", output: [], usage: null };
  ev("response.created", { response: pending });
  ev("response.in_progress", { response: pending });
  (response.output as JsonObject[]).forEach((item, output_index) => {
    const item_id = str(item, "id") ?? "";
    const type = str(item, "type");
    if (type === "message") {
      ev("response.output_item.added", { output_index, item: { ...item, status: "in_progress", content: [] } });
      const parts = Array.isArray(item.content) ? item.content : [];
      parts.forEach((part, content_index) => {
        const text = str(part, "text") ?? "";
        ev("response.content_part.added", { item_id, output_index, content_index, part: { type: "output_text", text: "", annotations: [] } });
        for (const delta of chunkText(text)) ev("response.output_text.delta", { item_id, output_index, content_index, delta });
        ev("response.output_text.done", { item_id, output_index, content_index, text });
        ev("response.content_part.done", { item_id, output_index, content_index, part: part as JsonObject });
      });
    } else if (type === "function_call" || type === "custom_tool_call") {
      const field = type === "function_call" ? "arguments" : "input";
      const full = str(item, field) ?? "";
      const name = type === "function_call" ? "function_call_arguments" : "custom_tool_call_input";
      ev("response.output_item.added", { output_index, item: { ...item, status: "in_progress", [field]: "" } });
      for (const delta of chunkText(full)) ev(`response.${name}.delta`, { item_id, output_index, delta });
      ev(`response.${name}.done`, { item_id, output_index, [field]: full });
    } else {
      ev("response.output_item.added", { output_index, item });
    }
    ev("response.output_item.done", { output_index, item });
  });
  ev("response.completed", { response });
  return events;
}
