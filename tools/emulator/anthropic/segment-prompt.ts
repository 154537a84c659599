/**
 * Flattens a Messages request into prompt blocks in Anthropic's cache prefix order
 * tools → system → messages (pure); a cleared mid-conversation system message is left out
 * (`clearedSystemMessage`), and a mid-conversation tool change (`tool_addition` /
 * `tool_removal`, a block of a system message) is a block like any other, so it leaves the
 * prefix before it cached. Breakpoints: every block, tool or system entry carrying
 * `cache_control` (a marker inside a tool_result's content counts for the tool_result), plus the
 * automatic top-level `cache_control`, which applies to the last cacheable block
 * (platform.claude.com/docs/en/build-with-claude/prompt-caching, "Automatic caching").
 *
 * Tokens are an estimate (Anthropic's tokenizer is not public): o200k BPE of each block's text,
 * plus BLOCK_OVERHEAD per block and MESSAGE_OVERHEAD per message; images/documents count
 * MEDIA_TOKENS. Only consistency matters for cache and savings arithmetic.
 */
import { countTokens, MEDIA_TOKENS } from "../shared/count-tokens";
import { CACHE_MARKER_KEYS, isObject, prop, stableStringify, str, type Json } from "../shared/json";
import { chainBlocks, HOUR_MS, MINUTE_MS, type PromptBlock, type RawBlock } from "../shared/prompt-block";

/** Estimated framing tokens per content block and per message (role header). */
export const BLOCK_OVERHEAD = 3;
export const MESSAGE_OVERHEAD = 4;

/** TTL of a `cache_control` value: 1 h when `ttl: "1h"`, else 5 min; null when absent. */
export function cacheControlTtl(cc: Json | undefined): number | null {
  if (!isObject(cc)) return null;
  return cc.ttl === "1h" ? HOUR_MS : 5 * MINUTE_MS;
}

/** Text and media count a block is billed for. */
export function renderBlock(block: Json): { text: string; media: number } {
  const type = str(block, "type");
  switch (type) {
    case "text":
      return { text: str(block, "text") ?? "", media: 0 };
    case "thinking":
      return { text: str(block, "thinking") ?? "", media: 0 };
    case "redacted_thinking":
      return { text: "", media: 0 };
    case "compaction":
      return { text: str(block, "content") ?? "", media: 0 };
    case "tool_use":
      return { text: (str(block, "name") ?? "") + JSON.stringify(prop(block, "input") ?? {}), media: 0 };
    case "tool_result": {
      const c = prop(block, "content");
      if (typeof c === "string") return { text: c, media: 0 };
      if (!Array.isArray(c)) return { text: "", media: 0 };
      const parts = c.map(renderBlock);
      return { text: parts.map((p) => p.text).join("\n"), media: parts.reduce((n, p) => n + p.media, 0) };
    }
    case "image":
    case "document":
      return { text: "", media: 1 };
    default:
      return { text: stableStringify(block, CACHE_MARKER_KEYS), media: 0 };
  }
}

function blockTtl(block: Json): number | null {
  const own = cacheControlTtl(prop(block, "cache_control"));
  if (own !== null) return own;
  const inner = prop(block, "content");
  if (str(block, "type") === "tool_result" && Array.isArray(inner)) {
    for (const b of inner) {
      const t = cacheControlTtl(prop(b, "cache_control"));
      if (t !== null) return t;
    }
  }
  return null;
}

/**
 * Whether message `index` is a mid-conversation system message the model no longer reads: one
 * with `clear_at: "next_user_message"` once a later `role: "user"` message exists (`lastUser`,
 * the index of the last one). It stays in the request but is not rendered, so it neither counts
 * nor caches: the prefix before it still reads, what follows it is written again the first time
 * it is cleared (@anthropic-ai/sdk BetaSystemMessageParam.clear_at; beta
 * mid-conversation-system-clear-at-2026-08-21).
 */
export function clearedSystemMessage(m: Json, index: number, lastUser: number): boolean {
  return str(m, "role") === "system" && str(m, "clear_at") === "next_user_message" && lastUser > index;
}

/** Content of a message or `system` as blocks (a string becomes one text block). */
export function asBlocks(content: Json | undefined): Json[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content : [];
}

/** Prompt blocks of a (validated) Messages request body. */
export function segmentAnthropicPrompt(body: Json): PromptBlock[] {
  const raw: RawBlock[] = [];
  const tools = prop(body, "tools");
  for (const tool of Array.isArray(tools) ? tools : []) {
    const canon = "<tool>" + stableStringify(tool, CACHE_MARKER_KEYS);
    raw.push({ canon, tokens: BLOCK_OVERHEAD + countTokens(canon), breakpointTtlMs: cacheControlTtl(prop(tool, "cache_control")) });
  }
  asBlocks(prop(body, "system")).forEach((b, i) => raw.push(toRaw("system", b, i === 0)));
  const messages = prop(body, "messages");
  const list = Array.isArray(messages) ? messages : [];
  const lastUser = list.findLastIndex((m) => str(m, "role") === "user");
  list.forEach((m, k) => {
    const role = str(m, "role") ?? "user";
    if (clearedSystemMessage(m, k, lastUser)) return;
    asBlocks(prop(m, "content")).forEach((b, i) => raw.push(toRaw(role, b, i === 0)));
  });
  const auto = cacheControlTtl(prop(body, "cache_control"));
  const last = raw[raw.length - 1];
  if (auto !== null && last && last.breakpointTtlMs === null) last.breakpointTtlMs = auto;
  return chainBlocks(str(body, "model") ?? "", raw);
}

function toRaw(role: string, block: Json, first: boolean): RawBlock {
  const r = renderBlock(block);
  const tokens = BLOCK_OVERHEAD + (first ? MESSAGE_OVERHEAD : 0) + countTokens(r.text) + r.media * MEDIA_TOKENS;
  const canon = (first ? `<${role}>` : "") + stableStringify(block, CACHE_MARKER_KEYS);
  return { canon, tokens, breakpointTtlMs: blockTtl(block) };
}
