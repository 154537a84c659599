/**
 * POST /v1/responses (pure over the call and the key's state): validate, refuse a prompt over the
 * window, learn reasoning links, apply the cache, answer, bill. An input ending with
 * `compaction_trigger` is answered with one `compaction` item only; with `context_management` and
 * a prompt at or over its `compact_threshold`, the answer starts with one (./compaction.ts). A
 * recorded reply that holds a `compaction` item is answered as recorded (the e2e script's items
 * carry its own state).
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
import { compactionItem, compactThreshold, endsWithTrigger, summaryTokens } from "./compaction";
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
  const input = inputItems(call.body);
  const threshold = compactThreshold(call.body as JsonObject);
  const trigger = endsWithTrigger(input);
  // The summary stands for every item before the trigger, or for the whole input.
  const summarised = trigger ? input.length - 1 : input.length;
  // A recorded reply (x-emulator-reply) is the upstream's answer as recorded: a compaction item in it is the one returned.
  const recorded = call.reply === undefined ? null : finishItems(replyItems(call.reply), call.seq);
  const reply = recorded ?? (trigger ? [] : finishItems(replyItems(undefined), call.seq));
  const compacts = !reply.some((i) => str(i, "type") === "compaction") && (trigger || (threshold !== null && totalTokens(blocks) >= threshold));
  learnFromOutput(call.key, reply);
  const items = compacts ? [compactionItem(summarised, call.seq), ...reply] : reply;
  const output = (compacts ? summaryTokens(summarised) : 0) + (reply.length > 0 ? outputTokens(reply) : 0);
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
