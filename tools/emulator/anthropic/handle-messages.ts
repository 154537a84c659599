/** POST /v1/messages (pure over the call and the key's state): validate, apply the cache, answer, bill. */
import { applyBreakpointCache } from "../shared/breakpoint-cache";
import { answered, type Call, type HandlerResult } from "../shared/call";
import { anthropicCostNano } from "../shared/compute-cost";
import { prop, str } from "../shared/json";
import { anthropicPrice } from "../shared/prices";
import { formatSse } from "../shared/sse";
import { buildMessage, outputTokens, replyContent, streamMessage, type AnthropicUsage } from "./build-response";
import { segmentAnthropicPrompt } from "./segment-prompt";
import { canonicalContent, thinkingKey, validateAnthropicRequest } from "./validate-request";

/** Blocks a breakpoint looks back over for a cache hit, itself included (prompt-caching doc). */
export const ANTHROPIC_LOOKBACK_BLOCKS = 20;

export function handleMessages(call: Call): HandlerResult {
  const rejection = validateAnthropicRequest(call.body, { issuedThinking: call.key.issuedThinking });
  if (rejection) return { kind: "rejected", rejection };
  const model = str(call.body, "model")!;
  const price = anthropicPrice(model);
  const cache = applyBreakpointCache(segmentAnthropicPrompt(call.body), call.key.cache, call.now, {
    lookbackBlocks: ANTHROPIC_LOOKBACK_BLOCKS,
    minTokens: price.minCacheTokens,
  });
  const content = replyContent(call.reply);
  for (const b of content) {
    const k = ["thinking", "redacted_thinking"].includes(str(b, "type") ?? "") ? thinkingKey(b) : undefined;
    if (k !== undefined) call.key.issuedThinking.set(k, canonicalContent(content));
  }
  const output = outputTokens(content);
  const usage: AnthropicUsage = {
    input_tokens: cache.uncached,
    cache_creation_input_tokens: cache.write5m + cache.write1h,
    cache_read_input_tokens: cache.read,
    cache_creation: { ephemeral_5m_input_tokens: cache.write5m, ephemeral_1h_input_tokens: cache.write1h },
    output_tokens: output,
  };
  const billed = { uncached: cache.uncached, cacheRead: cache.read, cacheWrite5m: cache.write5m, cacheWrite1h: cache.write1h, output };
  const message = buildMessage(`msg_emu${String(call.seq).padStart(8, "0")}`, model, content, usage);
  const stream = prop(call.body, "stream") === true;
  return answered(stream ? formatSse(streamMessage(message)) : JSON.stringify(message), stream, billed, anthropicCostNano, price);
}
