/**
 * The project key of a chat request (pure; DESIGN §7 project memory): the key under which a
 * completed session's tier map is kept for the next session of the same project.
 * - `cwd:<hash>`: the caller (hash of its credential header, none counts as "") plus the client's
 *   working directory, when the system prompt states it: Claude Code's environment block
 *   ("Working directory: /path" or "Primary working directory: /path") or a `<cwd>/path</cwd>`
 *   tag. Two sessions of one caller in one directory share it.
 * - `conv:<hash>`: else the caller plus the conversation fingerprint (./session-id.ts): only the
 *   same conversation's later sessions share it.
 * Only hashes leave this function: neither the directory nor the credential is sent or stored.
 */
import { hashText } from "../core/hash";
import type { Provider } from "../core/view/types";
import { getMember, type JsonNode } from "../providers/shared/json-scan";
import { conversationFingerprint, credentialOf, textOf } from "./session-id";

/** The working directory lines clients put in their system prompt (Claude Code's env block; a cwd tag). */
const CWD_PATTERNS = [/^\s*(?:Primary )?[Ww]orking directory:\s*(\S[^\n]*?)\s*$/m, /<cwd>\s*([^<\n]+?)\s*<\/cwd>/];

/** The working directory the system text states, or null. */
export function workingDirectoryOf(system: string): string | null {
  for (const re of CWD_PATTERNS) {
    const m = re.exec(system);
    if (m) return m[1]!;
  }
  return null;
}

/** The project key of a parsed chat request (`cwd:<hash>` or `conv:<hash>`, see above). */
export function projectKeyOf(provider: Provider, headers: Headers, bytes: Uint8Array, root: JsonNode): string {
  const caller = hashText(credentialOf(headers) ?? "");
  const cwd = workingDirectoryOf(textOf(bytes, getMember(root, provider === "anthropic" ? "system" : "instructions")));
  return cwd !== null ? `cwd:${hashText(`${caller}\u0000${cwd}`)}` : `conv:${hashText(`${caller}\u0000${conversationFingerprint(provider, bytes, root)}`)}`;
}
