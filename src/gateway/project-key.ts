/**
 * The project key of a chat request (pure; DESIGN §7 project memory): the key under which a
 * completed session's tier map is kept for the next session of the same project.
 * - `cwd:<hash>`: the caller (hash of its API key, providerKeyOf: `x-api-key: K` and
 *   `Authorization: Bearer K` are one caller; none counts as "") plus the client's working
 *   directory, when the request states it (statedDirectoryOf). Two sessions of one caller in one
 *   directory share it.
 * - `conv:<hash>`: else the caller plus the conversation fingerprint (./session-id.ts): only the
 *   same conversation's later sessions share it.
 * Only hashes leave this function: neither the directory nor the credential is sent or stored.
 */
import { hashText } from "../core/hash";
import type { Provider } from "../core/view/types";
import { getMember, stringValue, type JsonNode } from "../providers/shared/json-scan";
import { textOf } from "./conversation-start";
import { conversationFingerprint, providerKeyOf } from "./session-id";

/**
 * The working directory lines clients put in their system prompt: Claude Code's environment
 * section, ` - Primary working directory: /path` (2.x, a bullet) or `Working directory: /path`
 * (inside `<env>`, 1.x); a `<cwd>/path</cwd>` tag (Codex's environment context).
 */
const CWD_PATTERNS = [/^[ \t]*(?:[-*][ \t]+)?(?:Primary )?[Ww]orking directory:[ \t]*(\S[^\r\n]*?)[ \t]*$/m, /<cwd>\s*([^<\n]+?)\s*<\/cwd>/];

/** Codex's environment context (a user input item): the only directory a user message is trusted to state. */
const ENVIRONMENT_CWD = /<environment_context>[\s\S]*?<cwd>\s*([^<\n]+?)\s*<\/cwd>/;

/**
 * History items read for a stated directory: clients state it at the conversation's start
 * (Codex 0.60: the first input item; the Codex the e2e runs record puts a developer item
 * before it), so a long history is never scanned.
 */
const MAX_ITEMS_SCANNED = 8;

/** The working directory the system text states, or null. */
export function workingDirectoryOf(system: string): string | null {
  for (const re of CWD_PATTERNS) {
    const m = re.exec(system);
    if (m) return m[1]!;
  }
  return null;
}

/**
 * The working directory a parsed chat request states, or null: in its system prompt (Anthropic
 * `system`, Responses `instructions`), else in the first MAX_ITEMS_SCANNED history items: a
 * system or developer message (any CWD_PATTERNS form; OpenAI Chat's system prompt, Responses
 * developer items) or a user message holding an `<environment_context>` with a `<cwd>` (Codex).
 */
export function statedDirectoryOf(provider: Provider, bytes: Uint8Array, root: JsonNode): string | null {
  const system = workingDirectoryOf(textOf(bytes, getMember(root, provider === "anthropic" ? "system" : "instructions")));
  if (system !== null) return system;
  const history = getMember(root, provider === "openai-responses" ? "input" : "messages");
  if (history?.type !== "array") return null;
  for (const item of history.items.slice(0, MAX_ITEMS_SCANNED)) {
    const role = getMember(item, "role");
    const r = role?.type === "string" ? stringValue(bytes, role) : null;
    if (r !== "system" && r !== "developer" && r !== "user") continue;
    const text = textOf(bytes, getMember(item, "content"));
    const found = r === "user" ? (ENVIRONMENT_CWD.exec(text)?.[1] ?? null) : workingDirectoryOf(text);
    if (found !== null) return found;
  }
  return null;
}

/** The project key of a parsed chat request (`cwd:<hash>` or `conv:<hash>`, see above). */
export function projectKeyOf(provider: Provider, headers: Headers, bytes: Uint8Array, root: JsonNode): string {
  const caller = hashText(providerKeyOf(headers) ?? "");
  const cwd = statedDirectoryOf(provider, bytes, root);
  return cwd !== null ? `cwd:${hashText(`${caller}\u0000${cwd}`)}` : `conv:${hashText(`${caller}\u0000${conversationFingerprint(provider, bytes, root)}`)}`;
}
