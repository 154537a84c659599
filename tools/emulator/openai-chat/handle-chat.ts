/** POST /v1/chat/completions (pure over the call and the key's state): validate, refuse a prompt over the window, apply the cache, answer, bill. */
import { applyOpenAiCache } from "../shared/apply-openai-cache";
import { answered, type Call, type HandlerResult } from "../shared/call";
import { openaiCostNano } from "../shared/compute-cost";
import { windowRejection } from "../shared/context-window";
import { totalTokens } from "../shared/prompt-block";
import { prop, str } from "../shared/json";
import { openaiPrice } from "../shared/prices";
import { formatSse } from "../shared/sse";
import { buildCompletion, outputTokens, replyMessage, streamCompletion, type ChatUsage } from "./build-response";
import { segmentChatPrompt } from "./segment-prompt";
import { validateChatRequest } from "./validate-request";

export function handleChat(call: Call): HandlerResult {
  const rejection = validateChatRequest(call.body);
  if (rejection) return { kind: "rejected", rejection };
  const model = str(call.body, "model")!;
  const price = openaiPrice(model);
  const blocks = segmentChatPrompt(call.body, price.cache === "breakpoints");
  const tooLong = windowRejection("openai-chat", totalTokens(blocks), price.contextWindow);
  if (tooLong) return { kind: "rejected", rejection: tooLong };
  const cache = applyOpenAiCache(blocks, price, call.body, call.key.cache, call.now);
  const message = replyMessage(call.reply);
  const output = outputTokens(message);
  const usage: ChatUsage = {
    prompt_tokens: cache.total,
    completion_tokens: output,
    total_tokens: cache.total + output,
    prompt_tokens_details: { cached_tokens: cache.cached, audio_tokens: 0, ...(price.cache === "breakpoints" ? { cache_write_tokens: cache.written } : {}) },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
  const billed = { uncached: cache.total - cache.cached - cache.written, cacheRead: cache.cached, cacheWrite5m: cache.written, cacheWrite1h: 0, output };
  const completion = buildCompletion(`chatcmpl-emu${String(call.seq).padStart(8, "0")}`, Math.floor(call.now / 1000), model, message, usage);
  const stream = prop(call.body, "stream") === true;
  const includeUsage = prop(prop(call.body, "stream_options"), "include_usage") === true;
  return answered(stream ? formatSse(streamCompletion(completion, includeUsage)) : JSON.stringify(completion), stream, billed, openaiCostNano, price);
}
