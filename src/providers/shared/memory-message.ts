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
 * The first user element of the top-level array `historyKey` in `bytes` (scanned as `root`) when
 * the memory block may go directly after it, else null (pure; one rule for the three formats):
 * - Anthropic Messages: the element after it is an assistant message or there is none. A client's
 *   own element there (Claude Code's `role: "system"` message, a second user message) would put
 *   the block's system message before something other than an assistant message, or a system
 *   message directly after it, which the API refuses (docs/emulator.md rule A17);
 * - OpenAI Chat and Responses: any element may follow (the APIs put no order on system/developer
 *   messages: tools/emulator/openai-chat and openai-responses validate none; Codex sends several
 *   user messages in a row).
 * Null too when the history is not an array or holds no user message.
 */
export function memoryAnchor(provider: Provider, bytes: Uint8Array, root: JsonNode, historyKey: string): JsonNode | null {
  const history = getMember(root, historyKey);
  if (history?.type !== "array") return null;
  const k = history.items.findIndex((m) => roleOf(bytes, m) === "user");
  if (k < 0) return null;
  const next = history.items[k + 1];
  if (provider === "anthropic" && next !== undefined && roleOf(bytes, next) !== "assistant") return null;
  return history.items[k]!;
}

/** Whether the memory block has a place in the request (memoryAnchor finds one); the gateway tells the session before it claims a map. */
export function memoryPlaceable(provider: Provider, bytes: Uint8Array, root: JsonNode, historyKey: string): boolean {
  return memoryAnchor(provider, bytes, root, historyKey) !== null;
}

/**
 * The insertion placing `element` directly after the first user element of `historyKey` (in
 * `bytes` scanned as `root`), or null when it has no place there (memoryAnchor; the request then
 * goes without the block).
 */
export function memoryInsertion(provider: Provider, bytes: Uint8Array, root: JsonNode, historyKey: string, element: Uint8Array): Insertion | null {
  const first = memoryAnchor(provider, bytes, root, historyKey);
  if (first === null) return null;
  const out = new Uint8Array(element.length + 1);
  out[0] = 0x2c; // ","
  out.set(element, 1);
  return { at: first.end, bytes: out };
}

function roleOf(bytes: Uint8Array, m: JsonNode): string | null {
  const role = getMember(m, "role");
  return role?.type === "string" ? stringValue(bytes, role) : null;
}
