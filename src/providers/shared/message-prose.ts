/**
 * The prose of one history message (pure; one shape for the three wire formats): its `content`
 * when that is a string, else the `text` members of its `text` (Anthropic, Chat) and
 * `output_text` (Responses) parts joined with "\n". Thinking, reasoning, refusals, media, tool
 * calls and results are not prose. Read by the mention keys (./message-mentions.ts) and by the
 * summariser's stretch (src/core/summary/stretch-turns.ts).
 */
import { getMember, stringValue, type JsonNode } from "./json-scan";

/** Part types whose `text` member is prose. */
const PROSE_PARTS: ReadonlySet<string> = new Set(["text", "output_text"]);

/** The prose of `message` (scanned from `bytes`); "" when it has none. */
export function messageProse(bytes: Uint8Array, message: JsonNode): string {
  const content = getMember(message, "content");
  if (content?.type === "string") return stringValue(bytes, content);
  if (content?.type !== "array") return "";
  const texts: string[] = [];
  for (const part of content.items) {
    const type = getMember(part, "type");
    const text = getMember(part, "text");
    if (type?.type === "string" && text?.type === "string" && PROSE_PARTS.has(stringValue(bytes, type))) texts.push(stringValue(bytes, text));
  }
  return texts.join("\n");
}
