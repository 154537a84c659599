/**
 * Where and how the memory block (src/core/memory/render-memory-block.ts) goes into a request
 * (pure; one implementation for the three wire formats). The block is one history element of
 * its own, inserted directly after the FIRST user message, so every request of the session
 * carries it at the same place with the same bytes and the prefix after it stays cacheable:
 * - Anthropic Messages: `{"role":"system","content":<text>}` — a mid-conversation system message,
 *   which must directly follow a user message (docs/emulator.md rule A17);
 * - OpenAI Chat: `{"role":"developer","content":<text>}`;
 * - OpenAI Responses: the input item `{"type":"message","role":"developer","content":<text>}`.
 * The element's bytes are JSON.stringify of those objects (no whitespace), inserted as `,` +
 * element right after the first user element's closing brace; the guarantee checker accepts
 * exactly that (src/core/plan/inserted-message.ts).
 */
import type { Provider } from "../../core/view/types";
import type { Insertion } from "../../core/plan/placeholder";
import { getMember, stringValue, type JsonNode } from "./json-scan";

const encoder = new TextEncoder();

/** The memory block's history element for `provider`, as bytes. */
export function memoryMessageBytes(provider: Provider, text: string): Uint8Array {
  const element = provider === "anthropic" ? { role: "system", content: text }
    : provider === "openai-chat" ? { role: "developer", content: text }
    : { type: "message", role: "developer", content: text };
  return encoder.encode(JSON.stringify(element));
}

/**
 * The insertion placing `element` directly after the first element of the top-level array
 * `historyKey` whose `role` is "user", in `bytes` scanned as `root`. Null when the history is not
 * an array or holds no user message (the request then goes without the block).
 */
export function memoryInsertion(bytes: Uint8Array, root: JsonNode, historyKey: string, element: Uint8Array): Insertion | null {
  const history = getMember(root, historyKey);
  if (history?.type !== "array") return null;
  const first = history.items.find((m) => {
    const role = getMember(m, "role");
    return role?.type === "string" && stringValue(bytes, role) === "user";
  });
  if (first === undefined) return null;
  const out = new Uint8Array(element.length + 1);
  out[0] = 0x2c; // ","
  out.set(element, 1);
  return { at: first.end, bytes: out };
}
