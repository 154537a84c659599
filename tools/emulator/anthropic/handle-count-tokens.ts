/**
 * POST /v1/messages/count_tokens (pure over the call and the key's state): the prompt tokens a
 * Messages request would be billed for, without answering, caching or billing
 * (platform.claude.com/docs/en/build-with-claude/token-counting; @anthropic-ai/sdk
 * MessageTokensCount, BetaMessageTokensCount).
 *
 * 1. Validate as POST /v1/messages does (./validate-messages.ts), except that `max_tokens` is not
 *    required (the SDK's MessageCountTokensParams has none).
 * 2. Count the emulator's copy as ./handle-messages.ts builds it: thinking blocks the API drops
 *    left out, read from the last compaction block on, `context_management` edits applied.
 * 3. Answer `{"input_tokens": n}`; a request with `context_management` also gets
 *    `context_management: {original_input_tokens}` (the count before the edits).
 * No window check: counting a prompt that is too long is what the endpoint is for.
 */
import type { Json, JsonObject } from "../shared/json";
import { isObject } from "../shared/json";
import { totalTokens } from "../shared/prompt-block";
import type { Call, CountResult } from "../shared/call";
import { applyContextEdits } from "./apply-context-edits";
import { fromLastCompaction } from "./apply-compaction";
import { segmentAnthropicPrompt } from "./segment-prompt";
import { withoutBlocks } from "./thinking-binding";
import { validateMessagesRequest } from "./validate-messages";

/** Counts the prompt tokens of `call.body` (module header). */
export function handleCountTokens(call: Call): CountResult {
  // `max_tokens` is not a count_tokens parameter: give the validator one when the client sent none.
  const asMessages = isObject(call.body) && call.body.max_tokens === undefined ? { ...call.body, max_tokens: 1 } : call.body;
  const verdict = validateMessagesRequest(asMessages, call.headers, {
    issuedThinking: call.key.issuedThinking,
    bindings: (k) => call.key.thinkingBindings.get(k),
  });
  if (!verdict.ok) return { kind: "rejected", rejection: verdict.rejection };
  const copy = fromLastCompaction(withoutBlocks(call.body, verdict.dropped) as JsonObject);
  const edited = applyContextEdits(copy);
  const input_tokens = totalTokens(segmentAnthropicPrompt(edited.body));
  const body: JsonObject = { input_tokens };
  if (isObject((call.body as JsonObject).context_management)) body.context_management = { original_input_tokens: totalTokens(segmentAnthropicPrompt(copy)) } as Json;
  return { kind: "counted", body };
}
