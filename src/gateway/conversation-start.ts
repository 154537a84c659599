/**
 * The stable start of a conversation (pure), what the session keys hash (./session-id.ts,
 * DESIGN §6): the text of the system prompt and of the first user message, read so that what a
 * client changes between the calls of one conversation does not count:
 * - cache markers: a `cache_control` member anywhere in a part (SDK users and Claude Code put
 *   the breakpoint on the latest message, which on the first call is the first user message);
 * - known volatile system lines (VOLATILE_SYSTEM_LINES), such as Claude Code's per-request
 *   billing line;
 * - the serialisation of a text: a string `content` and one text part with the same text are
 *   the same start (a Responses client may send `input: "hi"` first and the item form later).
 * A non-text part (image, document, …) counts by its type and a hash of its bytes without cache
 * markers, so two conversations that open with the same words on different images stay apart.
 */
import { hashSlices } from "../core/hash";
import type { Provider } from "../core/view/types";
import { getMember, stringValue, type JsonNode } from "../providers/shared/json-scan";

/**
 * System-prompt lines that change from request to request within one conversation, each with a
 * substring that must be present (a cheap test before the pattern). Claude Code's billing line
 * ("x-anthropic-billing-header: cc_version=2.1.240.a1f; cc_entrypoint=cli; cch=1a2b3;"), sent as
 * the first system block or at the top of it: its `cch` changes with every request body
 * (anthropics/claude-code#68900, CaddyGlow/ccproxy-api#61, EasyMetaAu/helm-api#208).
 */
export const VOLATILE_SYSTEM_LINES: readonly { marker: string; line: RegExp }[] = [
  { marker: "x-anthropic-billing-header:", line: /^[ \t]*x-anthropic-billing-header:[^\n]*(?:\n|$)/gm },
];

/** `text` without its volatile lines (VOLATILE_SYSTEM_LINES); the same string when it has none. */
export function stripVolatileLines(text: string): string {
  let out = text;
  for (const v of VOLATILE_SYSTEM_LINES) if (out.includes(v.marker)) out = out.replace(v.line, "");
  return out;
}

/** Byte slices of a JSON value without its `cache_control` members, at any depth. */
function slicesWithoutCacheMarkers(node: JsonNode, out: { start: number; end: number }[]): void {
  if (node.type === "object") {
    for (const e of node.entries) {
      if (e.key === "cache_control") continue;
      out.push({ start: e.keyStart, end: e.value.start });
      slicesWithoutCacheMarkers(e.value, out);
    }
  } else if (node.type === "array") {
    for (const item of node.items) slicesWithoutCacheMarkers(item, out);
  } else out.push({ start: node.start, end: node.end });
}

/**
 * The text of a content value: a string, or its parts' `text` joined with U+0000 (a part without
 * text counts as `[type:hash]`, the hash over its bytes without cache markers). With
 * `volatile: "strip"`, volatile lines go (stripVolatileLines) and a part that held nothing else
 * is left out entirely.
 */
export function textOf(bytes: Uint8Array, node: JsonNode | undefined, volatile: "keep" | "strip" = "keep"): string {
  if (node === undefined) return "";
  const clean = (v: string) => (volatile === "strip" ? stripVolatileLines(v) : v);
  if (node.type === "string") return clean(stringValue(bytes, node));
  if (node.type !== "array") return node.type;
  const out: string[] = [];
  for (const part of node.items) {
    const t = getMember(part, "text");
    if (t?.type === "string") {
      const raw = stringValue(bytes, t);
      const v = clean(raw);
      if (v === "" && raw !== "") continue;
      out.push(v);
      continue;
    }
    const type = getMember(part, "type");
    const slices: { start: number; end: number }[] = [];
    slicesWithoutCacheMarkers(part, slices);
    out.push(`[${type?.type === "string" ? stringValue(bytes, type) : "part"}:${hashSlices(bytes, slices)}]`);
  }
  return out.join("\u0000");
}

/**
 * The conversation's stable start as one string: the system prompt (Anthropic `system`,
 * Responses `instructions`; OpenAI Chat system/developer messages before the first user
 * message), volatile lines stripped, then the first user message's text, U+0001/U+0000
 * separated. The same on every request of a conversation, since its history only grows.
 */
export function conversationStart(provider: Provider, bytes: Uint8Array, root: JsonNode): string {
  const parts: string[] = [];
  const system = getMember(root, provider === "anthropic" ? "system" : "instructions");
  if (system) parts.push(textOf(bytes, system, "strip"));
  parts.push("\u0001");
  const history = getMember(root, provider === "openai-responses" ? "input" : "messages");
  if (history?.type === "string") parts.push("\u0001", stringValue(bytes, history));
  else if (history?.type === "array") {
    for (const item of history.items) {
      const role = getMember(item, "role");
      const r = role?.type === "string" ? stringValue(bytes, role) : null;
      if (provider === "openai-chat" && (r === "system" || r === "developer")) parts.push(textOf(bytes, getMember(item, "content"), "strip"));
      if (r === "user") {
        parts.push("\u0001", textOf(bytes, getMember(item, "content")));
        break;
      }
    }
  }
  return parts.join("\u0000");
}
