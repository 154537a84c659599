/**
 * Mention keys of each message's assistant prose (src/core/text/mention-keys.ts), read from the
 * parsed body (pure in effect; one shape for the three wire formats). The history is the body's
 * `messages` (Anthropic Messages, OpenAI Chat) or `input` (OpenAI Responses) array; an element
 * with `role: "assistant"` contributes the text of its `content` when that is a string, else of
 * its `text` / `output_text` parts. Tool calls, tool results, thinking and reasoning are never
 * read: only the agent's own words, which are short next to the results.
 *
 * Memoised per message node (./node-memo.ts): a node the scan reuses from the session's last body
 * is not read again, so a request pays only for its new assistant messages.
 */
import { proseMentionKeys } from "../../core/text/mention-keys";
import type { ParsedRequest } from "../types";
import { getMember, stringValue, type JsonNode } from "./json-scan";
import { NodeMemo } from "./node-memo";

const MEMO = new NodeMemo<readonly string[]>();
const NONE: readonly string[] = Object.freeze([]);
const PROSE_PARTS = new Set(["text", "output_text"]);

/**
 * Per message of `parsed.view` (same order), its prose mention keys; [] for every message that is
 * not an assistant message. All [] when the history array does not line up with the view's
 * messages (a shape this reader does not know): no mention, so no pair is kept for one.
 */
export function messageMentions(parsed: Pick<ParsedRequest, "bytes" | "root" | "view">): (readonly string[])[] {
  const n = parsed.view.messages.length;
  const history = getMember(parsed.root, parsed.view.provider === "openai-responses" ? "input" : "messages");
  if (history?.type !== "array" || history.items.length !== n) return new Array<readonly string[]>(n).fill(NONE);
  return history.items.map((node) => MEMO.get(node, () => keysOf(parsed.bytes, node)));
}

function keysOf(bytes: Uint8Array, node: JsonNode): readonly string[] {
  const role = getMember(node, "role");
  if (role?.type !== "string" || stringValue(bytes, role) !== "assistant") return NONE;
  const content = getMember(node, "content");
  if (content === undefined) return NONE;
  let prose = "";
  if (content.type === "string") prose = stringValue(bytes, content);
  else if (content.type === "array") {
    for (const part of content.items) {
      const type = getMember(part, "type");
      const text = getMember(part, "text");
      if (type?.type === "string" && text?.type === "string" && PROSE_PARTS.has(stringValue(bytes, type))) prose += `${stringValue(bytes, text)}\n`;
    }
  }
  if (prose === "") return NONE;
  const keys = proseMentionKeys(prose);
  return keys.length === 0 ? NONE : keys;
}
