/**
 * POST /v1/responses/input_tokens (pure over the call and the key's state): the input tokens a
 * Responses request would hold, without answering, caching or billing (openai SDK
 * `responses.inputTokens.count`: `{"object": "response.input_tokens", "input_tokens": n}`).
 * Validated as POST /v1/responses is (./validate-request.ts), except that `model` may be absent
 * (the SDK's InputTokenCountParams makes every field optional); counted as ./segment-prompt.ts
 * counts the prompt. No window check and no learned reasoning links.
 */
import type { Call, CountResult } from "../shared/call";
import { isObject, type JsonObject } from "../shared/json";
import { openaiPrice } from "../shared/prices";
import { totalTokens } from "../shared/prompt-block";
import { segmentResponsesPrompt } from "./segment-prompt";
import { validateResponsesRequest } from "./validate-request";

/** Counts the input tokens of `call.body` (module header). */
export function handleInputTokens(call: Call): CountResult {
  const body = isObject(call.body) && typeof call.body.model !== "string" ? { ...call.body, model: "" } : call.body;
  const rejection = validateResponsesRequest(body, call.key);
  if (rejection) return { kind: "rejected", rejection };
  const price = openaiPrice(String((body as JsonObject).model));
  return { kind: "counted", body: { object: "response.input_tokens", input_tokens: totalTokens(segmentResponsesPrompt(body, price.cache === "breakpoints")) } };
}
