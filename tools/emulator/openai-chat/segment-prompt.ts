/**
 * Flattens a Chat Completions request into prompt blocks (pure): one block per tool definition,
 * then one per message, in that order. Tokens: o200k BPE of the message's text parts, tool-call
 * names and arguments, plus MESSAGE_OVERHEAD framing tokens per message (the OpenAI cookbook's
 * "3 tokens per message"); image parts count MEDIA_TOKENS.
 */
import { countTokens, MEDIA_TOKENS } from "../shared/count-tokens";
import { CACHE_MARKER_KEYS, prop, stableStringify, str, type Json } from "../shared/json";
import { explicitMarker, selectBreakpoints, type BreakpointCandidate } from "../shared/openai-cache-policy";
import { chainBlocks, type PromptBlock, type RawBlock } from "../shared/prompt-block";

export const MESSAGE_OVERHEAD = 3;

/** Text and media count of a content value (string or array of parts). */
export function renderParts(content: Json | undefined): { text: string; media: number } {
  if (typeof content === "string") return { text: content, media: 0 };
  if (!Array.isArray(content)) return { text: "", media: 0 };
  let media = 0;
  const texts: string[] = [];
  for (const p of content) {
    const t = str(p, "text");
    if (t !== undefined) texts.push(t);
    else if (typeof p === "string") texts.push(p);
    else if (/image|file|audio/.test(str(p, "type") ?? "")) media++;
  }
  return { text: texts.join("\n"), media };
}

/**
 * Prompt blocks of a (validated) Chat Completions body. `breakpoints` = true applies GPT-5.6
 * breakpoint selection; otherwise no block is a breakpoint (automatic prefix caching).
 */
export function segmentChatPrompt(body: Json, breakpoints: boolean): PromptBlock[] {
  const raw: RawBlock[] = [];
  const candidates: BreakpointCandidate[] = [];
  const tools = prop(body, "tools");
  for (const tool of Array.isArray(tools) ? tools : []) {
    const canon = "<tool>" + stableStringify(tool, CACHE_MARKER_KEYS);
    raw.push({ canon, tokens: countTokens(canon), breakpointTtlMs: null });
    candidates.push({ userOrTool: false, explicit: null });
  }
  const messages = prop(body, "messages");
  for (const m of Array.isArray(messages) ? messages : []) {
    const role = str(m, "role") ?? "";
    const r = renderParts(prop(m, "content"));
    const calls = prop(m, "tool_calls");
    const text = [role, r.text, calls === undefined ? "" : JSON.stringify(calls), str(m, "tool_call_id") ?? ""].join("\n");
    raw.push({ canon: stableStringify(m, CACHE_MARKER_KEYS), tokens: MESSAGE_OVERHEAD + countTokens(text) + r.media * MEDIA_TOKENS, breakpointTtlMs: null });
    candidates.push({ userOrTool: role === "user" || role === "tool", explicit: explicitMarker(prop(m, "content")) });
  }
  if (breakpoints) selectBreakpoints(body, candidates).forEach((ttl, i) => (raw[i]!.breakpointTtlMs = ttl));
  return chainBlocks(str(body, "model") ?? "", raw);
}
