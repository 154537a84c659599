/**
 * POST /v1/messages (pure over the call and the key's state):
 * 1. validate the request as the client sent it (./validate-messages.ts), preserved thinking's
 *    prefix check included;
 * 2. build the emulator's copy: thinking blocks dropped by `drop_block` or model binding removed,
 *    the history read from its last compaction block on, then `context_management` edits applied
 *    (./apply-context-edits.ts, ./apply-compaction.ts);
 * 3. refuse a copy over the model's window (`prompt is too long`, ../shared/context-window.ts:
 *    what the model would read, after the context edits, before a compaction);
 * 4. apply the prompt cache to the copy and bill it (a compaction that fires: its own iteration
 *    over the copy, then the answer's over the compacted copy; both billed, both in `iterations`);
 * 4a. an on-demand compaction request (`compaction: {type: "summarize"}`) is answered with its
 *    summary instead (./on-demand-compaction.ts);
 * 5. answer with the recorded reply, its thinking blocks bound to the prefix the client sent
 *    (empty thinking text with `display: "omitted"`), `context_management.applied_edits` when the
 *    request has `context_management`, and `input_transformations` with the binding beta.
 */
import { applyBreakpointCache } from "../shared/breakpoint-cache";
import { answered, type Call, type HandlerResult } from "../shared/call";
import { anthropicCostNano } from "../shared/compute-cost";
import { isObject, prop, str, type Json, type JsonObject } from "../shared/json";
import { windowRejection } from "../shared/context-window";
import { anthropicPrice, anthropicWindow } from "../shared/prices";
import { formatSse } from "../shared/sse";
import { applyContextEdits } from "./apply-context-edits";
import { compactedCopy, compactionFor, fromLastCompaction } from "./apply-compaction";
import { asksForSummary, summaryBlock } from "./on-demand-compaction";
import { buildMessage, outputTokens, replyContent, streamMessage, type AnthropicUsage } from "./build-response";
import { segmentAnthropicPrompt } from "./segment-prompt";
import { bindReply, BINDING_BETA, withoutBlocks } from "./thinking-binding";
import { anthropicBetas, validateMessagesRequest } from "./validate-messages";
import { canonicalContent, thinkingKey } from "./validate-request";

/** Blocks a breakpoint looks back over for a cache hit, itself included (prompt-caching doc). */
export const ANTHROPIC_LOOKBACK_BLOCKS = 20;

/**
 * The reply's content as the API returns it for `body` (after `block` when a compaction fired),
 * and the recorded signatures it bound. After a compaction the model read only the block, so the
 * reply's thinking is bound to tools, system and the block: the prefix of the echoed message read
 * from the block on.
 */
function answerContent(call: Call, prefixChecked: boolean, block: JsonObject | undefined): Json[] {
  const omit = str(prop(call.body, "thinking"), "display") === "omitted";
  const content = [...(block ? [block] : []), ...replyContent(call.reply)];
  if (!prefixChecked) return omit ? content.map((b) => (str(b, "type") === "thinking" ? { ...(b as JsonObject), thinking: "" } : b)) : content;
  const read = block ? { ...(call.body as JsonObject), messages: [] } : call.body;
  const bound = bindReply(read, content, `${call.seq}`, omit);
  for (const [key, binding] of bound.learned) call.key.thinkingBindings.set(key, binding);
  return bound.content;
}

/** One iteration's usage counts from its cache outcome (SDK BetaMessageIterationUsage / BetaCompactionIterationUsage fields). */
function iterationUsage(c: { uncached: number; read: number; write5m: number; write1h: number }, output: number) {
  return { input_tokens: c.uncached, cache_creation_input_tokens: c.write5m + c.write1h, cache_read_input_tokens: c.read, output_tokens: output };
}

export function handleMessages(call: Call): HandlerResult {
  const verdict = validateMessagesRequest(call.body, call.headers, {
    issuedThinking: call.key.issuedThinking,
    bindings: (k) => call.key.thinkingBindings.get(k),
  });
  if (!verdict.ok) return { kind: "rejected", rejection: verdict.rejection };
  const body = call.body as JsonObject;
  const model = str(body, "model")!;
  const price = anthropicPrice(model);
  const edited = applyContextEdits(fromLastCompaction(withoutBlocks(body, verdict.dropped) as JsonObject));
  const cacheOf = (copy: JsonObject) => applyBreakpointCache(segmentAnthropicPrompt(copy), call.key.cache, call.now, { lookbackBlocks: ANTHROPIC_LOOKBACK_BLOCKS, minTokens: price.minCacheTokens });
  const segments = segmentAnthropicPrompt(edited.body);
  const promptTokens = segments.reduce((n, b) => n + b.tokens, 0);
  const tooLong = windowRejection("anthropic", promptTokens, anthropicWindow(price, anthropicBetas(call.headers)));
  if (tooLong) return { kind: "rejected", rejection: tooLong };
  if (asksForSummary(body)) return summaryAnswer(call, edited.body, cacheOf, price);
  const compaction = compactionFor(edited.body, promptTokens);
  // A compaction reads the whole copy in its own iteration; the answer then reads the compacted copy.
  const summaryCache = compaction ? cacheOf(edited.body) : null;
  const cache = cacheOf(compaction ? compactedCopy(edited.body, compaction.block) : edited.body);
  const content = answerContent(call, verdict.prefixChecked, compaction?.block);
  // A14 compares the blocks after an echoed compaction block with the answer as issued (validate-request.ts).
  const answer = compaction ? content.slice(1) : content;
  for (const b of answer) {
    const k = ["thinking", "redacted_thinking"].includes(str(b, "type") ?? "") ? thinkingKey(b) : undefined;
    if (k !== undefined) call.key.issuedThinking.set(k, canonicalContent(answer));
  }
  const output = outputTokens(answer);
  const usage: AnthropicUsage = { ...iterationUsage(cache, output), cache_creation: { ephemeral_5m_input_tokens: cache.write5m, ephemeral_1h_input_tokens: cache.write1h } };
  const summaryOutput = compaction ? outputTokens([compaction.block]) : 0;
  if (summaryCache) usage.iterations = [{ type: "compaction", ...iterationUsage(summaryCache, summaryOutput) }, { type: "message", ...iterationUsage(cache, output) }];
  const both = (k: "uncached" | "read" | "write5m" | "write1h") => cache[k] + (summaryCache?.[k] ?? 0);
  const billed = { uncached: both("uncached"), cacheRead: both("read"), cacheWrite5m: both("write5m"), cacheWrite1h: both("write1h"), output: output + summaryOutput };
  const extras: JsonObject = {};
  if (isObject(body.context_management)) extras.context_management = { applied_edits: edited.applied_edits as unknown as Json[] };
  if (anthropicBetas(call.headers).includes(BINDING_BETA)) extras.input_transformations = verdict.dropped as unknown as Json[];
  const message = buildMessage(`msg_emu${String(call.seq).padStart(8, "0")}`, model, content, usage, extras);
  const stream = prop(body, "stream") === true;
  return answered(stream ? formatSse(streamMessage(message)) : JSON.stringify(message), stream, billed, anthropicCostNano, price);
}

/**
 * The answer to an on-demand compaction request (./on-demand-compaction.ts): one signed
 * `compaction` block and `stop_reason: "compaction"`; the summary reads the copy (through the
 * cache, billed as any prompt) and writes the block's tokens.
 */
function summaryAnswer(call: Call, copy: JsonObject, cacheOf: (copy: JsonObject) => ReturnType<typeof applyBreakpointCache>, price: ReturnType<typeof anthropicPrice>): HandlerResult {
  const cache = cacheOf(copy);
  const block = summaryBlock(copy);
  const output = outputTokens([block]);
  const usage: AnthropicUsage = { ...iterationUsage(cache, output), cache_creation: { ephemeral_5m_input_tokens: cache.write5m, ephemeral_1h_input_tokens: cache.write1h } };
  const billed = { uncached: cache.uncached, cacheRead: cache.read, cacheWrite5m: cache.write5m, cacheWrite1h: cache.write1h, output };
  const message = buildMessage(`msg_emu${String(call.seq).padStart(8, "0")}`, str(copy, "model")!, [block], usage, { stop_reason: "compaction" });
  const stream = prop(call.body, "stream") === true;
  return answered(stream ? formatSse(streamMessage(message)) : JSON.stringify(message), stream, billed, anthropicCostNano, price);
}
