/**
 * The request body an agent sent for one call, from the session frame and the history up to
 * that call (pure). Rules per MANIFEST.md:
 * - Anthropic: {model, max_tokens, system?, tools?, messages}. Claude Code marks its last
 *   message with a prompt-cache breakpoint on every call; recorded transcripts drop it, so the
 *   replay puts `cache_control: {type:"ephemeral"}` back on the last block of the last message
 *   (docs.anthropic.com prompt-caching: the breakpoint caches everything up to that block).
 *   Without it the no-compaction baseline would pay full price for every token.
 * - OpenAI Chat: {model, messages: [{role:"system", content: system}]? + history, tools?}.
 * - OpenAI Responses: {model, instructions?, input: history, tools?, store:false} (Codex CLI
 *   sends store:false and keeps the whole history client-side).
 * OpenAI caches prefixes automatically, so nothing is marked there. History items are shared,
 * never mutated; only the Anthropic last message is copied to carry the breakpoint.
 */
import { ANTHROPIC_MAX_TOKENS } from "./defaults";
import type { Json, JsonObject, Provider } from "./types";

/** What every call of a session shares. */
export interface SessionFrame {
  provider: Provider;
  model: string;
  system: Json | null;
  tools: JsonObject[];
}

const EPHEMERAL: JsonObject = { type: "ephemeral" };

/** Request body for a call whose history (messages / input items) is `history`. */
export function buildRequestBody(frame: SessionFrame, history: readonly Json[]): JsonObject {
  const tools: JsonObject = frame.tools.length > 0 ? { tools: frame.tools } : {};
  switch (frame.provider) {
    case "anthropic":
      return {
        model: frame.model,
        max_tokens: ANTHROPIC_MAX_TOKENS,
        ...(frame.system !== null ? { system: frame.system } : {}),
        ...tools,
        messages: withLastBreakpoint(history),
      };
    case "openai-chat":
      return {
        model: frame.model,
        messages: [...(frame.system !== null ? [{ role: "system", content: frame.system }] : []), ...history],
        ...tools,
      };
    case "openai-responses":
      return {
        model: frame.model,
        ...(frame.system !== null ? { instructions: frame.system } : {}),
        input: [...history],
        ...tools,
        store: false,
      };
    default: {
      const never: never = frame.provider;
      throw new Error(`unknown provider ${String(never)}`);
    }
  }
}

/** History with `cache_control` on the last content block of the last message (string content becomes one text block). */
function withLastBreakpoint(history: readonly Json[]): Json[] {
  const out = [...history];
  const last = out[out.length - 1];
  if (typeof last !== "object" || last === null || Array.isArray(last)) return out;
  const content = last.content;
  if (typeof content === "string") {
    out[out.length - 1] = { ...last, content: [{ type: "text", text: content, cache_control: EPHEMERAL }] };
  } else if (Array.isArray(content) && content.length > 0) {
    const blocks = [...content];
    const b = blocks[blocks.length - 1];
    if (typeof b === "object" && b !== null && !Array.isArray(b)) blocks[blocks.length - 1] = { ...b, cache_control: EPHEMERAL };
    out[out.length - 1] = { ...last, content: blocks };
  }
  return out;
}
