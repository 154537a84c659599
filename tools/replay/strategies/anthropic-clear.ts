/**
 * Strategy `anthropic-clear` (pure): Anthropic's server-side tool-result clearing
 * (`context_management.edits: [{type: "clear_tool_uses_20250919"}]`, beta header
 * context-management-2025-06-27), emulated client-side so it can run on every provider.
 *
 * Semantics (docs.claude.com/en/docs/build-with-claude/context-editing; defaults as listed in
 * the SDK types BetaClearToolUses20250919Edit and LangChain's ClearToolUsesEdit mirror):
 * 1. Stateless, per request: the server edits what the client sent; the client keeps the full
 *    history, so every request is judged afresh.
 * 2. Trigger: the request's input tokens exceed `trigger` (default 100,000 input tokens). Tokens
 *    are estimated as UTF-8 bytes / 4 of the body (src/core/tokens/estimate.ts).
 * 3. Keep: the `keep` most recent tool uses (default 3) keep their results; every older tool
 *    result is replaced by a placeholder, oldest first, chronologically. Tool inputs are kept
 *    (clear_tool_inputs default false); clear_at_least default none; exclude_tools default [].
 * 4. Placeholder: Anthropic does not publish its text; LangChain's mirror uses "[cleared]".
 * For OpenAI sessions the same rule applies to tool / *_call_output results.
 * A side effect the docs warn about: once over the trigger, every new tool use moves the
 * window, so the cleared prefix changes on almost every call and the prompt cache misses.
 */
import { estimateTokensFromBytes } from "../../../src/core/tokens/estimate";
import { historyOf, occurrenceKeys, replaceToolResults, toolCallsIn } from "../tool-pairs";
import type { PureStrategy } from "../types";

/** Knobs of the emulated edit (API field names). */
export interface ClearToolUsesConfig {
  /** Input tokens above which clearing happens (trigger.value, type input_tokens). */
  trigger_tokens: number;
  /** Most recent tool uses whose results are kept (keep.value, type tool_uses). */
  keep: number;
  /** Text put where a result was cleared. */
  placeholder: string;
}

export const CLEAR_TOOL_USES_DEFAULTS: ClearToolUsesConfig = { trigger_tokens: 100_000, keep: 3, placeholder: "[cleared]" };

/** Builds the strategy with the given knobs (defaults: the API's). */
export function createAnthropicClear(config: ClearToolUsesConfig = CLEAR_TOOL_USES_DEFAULTS): PureStrategy<null> {
  return {
    kind: "pure",
    name: "anthropic-clear",
    source: "Anthropic context editing clear_tool_uses_20250919 (docs.claude.com build-with-claude/context-editing): trigger 100k input tokens, keep 3 tool uses, placeholder",
    initial: () => null,
    apply(body, ctx, state) {
      const tokens = estimateTokensFromBytes(new TextEncoder().encode(JSON.stringify(body)).length);
      if (tokens <= config.trigger_tokens) return { body, state };
      const keyOf = occurrenceKeys();
      const calls = toolCallsIn(ctx.provider, historyOf(ctx.provider, body)).map((c) => keyOf(c.id));
      const kept = new Set(calls.slice(Math.max(0, calls.length - config.keep)));
      return { body: replaceToolResults(ctx.provider, body, (r) => (kept.has(r.key) ? null : config.placeholder)), state };
    },
  };
}
