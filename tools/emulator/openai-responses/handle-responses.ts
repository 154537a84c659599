/**
 * POST /v1/responses (pure over the call and the key's state): validate, refuse a prompt over the
 * window, learn reasoning links, apply the cache, answer, bill.
 */
import { applyOpenAiCache } from "../shared/apply-openai-cache";
import { answered, type Call, type HandlerResult } from "../shared/call";
import { openaiCostNano } from "../shared/compute-cost";
import { windowRejection } from "../shared/context-window";
import { totalTokens } from "../shared/prompt-block";
import { prop, str, type JsonObject } from "../shared/json";
import { openaiPrice } from "../shared/prices";
import { formatSse } from "../shared/sse";
import type { KeyState } from "../state";
import { buildResponse, finishItems, outputTokens, replyItems, streamResponse, type ResponsesUsage } from "./build-response";
import { inputItems, segmentResponsesPrompt } from "./segment-prompt";
import { reasoningLinks, validateResponsesRequest } from "./validate-request";

export function handleResponses(call: Call): HandlerResult {
  const rejection = validateResponsesRequest(call.body, call.key);
  if (rejection) return { kind: "rejected", rejection };
  const model = str(call.body, "model")!;
  const price = openaiPrice(model);
  const blocks = segmentResponsesPrompt(call.body, price.cache === "breakpoints");
  const tooLong = windowRejection("openai-responses", totalTokens(blocks), price.contextWindow);
  if (tooLong) return { kind: "rejected", rejection: tooLong };
  learnFromRequest(call.key, inputItems(call.body));
  const cache = applyOpenAiCache(blocks, price, call.body, call.key.cache, call.now);
  const items = finishItems(replyItems(call.reply), call.seq);
  learnFromOutput(call.key, items);
  const output = outputTokens(items);
  const usage: ResponsesUsage = {
    input_tokens: cache.total,
    input_tokens_details: { cached_tokens: cache.cached, ...(price.cache === "breakpoints" ? { cache_write_tokens: cache.written } : {}) },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: cache.total + output,
  };
  const billed = { uncached: cache.total - cache.cached - cache.written, cacheRead: cache.cached, cacheWrite5m: cache.written, cacheWrite1h: 0, output };
  const response = buildResponse(`resp_emu${String(call.seq).padStart(8, "0")}`, Math.floor(call.now / 1000), model, items, usage);
  const stream = prop(call.body, "stream") === true;
  return answered(stream ? formatSse(streamResponse(response)) : JSON.stringify(response), stream, billed, openaiCostNano, price);
}

/** First-seen links from a valid request: a reasoning item with an id and the item with an id right after it. */
function learnFromRequest(key: KeyState, items: readonly JsonObject[] | readonly unknown[]): void {
  for (const [rs, next] of reasoningLinks(items as JsonObject[])) {
    if (!key.reasoningFollower.has(rs)) key.reasoningFollower.set(rs, next);
    if (!key.requiredReasoning.has(next)) key.requiredReasoning.set(next, rs);
  }
}

/** Links from the emulator's own output: every item after a reasoning item (until the next one) requires it. */
function learnFromOutput(key: KeyState, items: readonly JsonObject[]): void {
  let rs: string | undefined;
  items.forEach((item, k) => {
    const id = str(item, "id")!;
    if (str(item, "type") === "reasoning") {
      rs = id;
      const next = items[k + 1];
      if (next) key.reasoningFollower.set(id, str(next, "id")!);
      return;
    }
    if (rs !== undefined) key.requiredReasoning.set(id, rs);
  });
}
