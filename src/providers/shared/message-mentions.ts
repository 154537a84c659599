/**
 * Mention keys of each message's assistant prose (src/core/text/mention-keys.ts), read from the
 * parsed body (pure in effect; one shape for the three wire formats). The history is the body's
 * `messages` (Anthropic Messages, OpenAI Chat) or `input` (OpenAI Responses) array; an element
 * with `role: "assistant"` contributes its prose (./message-prose.ts). Tool calls, tool results, thinking and reasoning are never
 * read: only the agent's own words, which are short next to the results.
 *
 * Memoised per message node (src/core/caches.ts mentions): a node the scan reuses from the
 * session's last body is not read again, so a request pays only for its new assistant messages.
 */
import { proseMentionKeys } from "../../core/text/mention-keys";
import type { ParsedRequest } from "../types";
import { getMember, stringValue, type JsonNode } from "./json-scan";
import { messageProse } from "./message-prose";

const NONE: readonly string[] = Object.freeze([]);

/**
 * Per message of `parsed.view` (same order), its prose mention keys; [] for every message that is
 * not an assistant message. All [] when the history array does not line up with the view's
 * messages (a shape this reader does not know): no mention, so no pair is kept for one.
 */
export function messageMentions(parsed: Pick<ParsedRequest, "bytes" | "root" | "view" | "caches">): (readonly string[])[] {
  const n = parsed.view.messages.length;
  const history = getMember(parsed.root, parsed.view.provider === "openai-responses" ? "input" : "messages");
  if (history?.type !== "array" || history.items.length !== n) return new Array<readonly string[]>(n).fill(NONE);
  const memo = parsed.caches.mentions;
  return history.items.map((node) => memo.get(node, () => keysOf(parsed.bytes, node)));
}

function keysOf(bytes: Uint8Array, node: JsonNode): readonly string[] {
  const role = getMember(node, "role");
  if (role?.type !== "string" || stringValue(bytes, role) !== "assistant") return NONE;
  const prose = messageProse(bytes, node);
  if (prose === "") return NONE;
  const keys = proseMentionKeys(prose);
  return keys.length === 0 ? NONE : keys;
}
