/**
 * Session identity (pure), DESIGN §6: an explicit `x-sluice-session` header; else the session id
 * the client already sends (Claude Code: `X-Claude-Code-Session-Id` on every request; OpenAI
 * clients: body `prompt_cache_key`); else a fingerprint of model + system + first user message
 * (+ a hash of the client's credential), which is stable across the calls of one agent session
 * because the history only grows.
 */
import { hashBytes, hashText } from "../core/hash";
import type { Provider } from "../core/view/types";
import { getMember, stringValue, type JsonNode } from "../providers/shared/json-scan";

/** Where the session id came from. */
export type SessionIdSource = "header" | "client_session" | "prompt_cache_key" | "fingerprint";

export interface SessionId {
  id: string;
  source: SessionIdSource;
}

/** Longest accepted client-supplied id (characters); longer ones are hashed. */
export const MAX_SESSION_ID_CHARS = 200;

const clean = (v: string): string => (v.length <= MAX_SESSION_ID_CHARS ? v : `h:${hashBytes(new TextEncoder().encode(v))}`);

/** The session id named by a header (`x-sluice-session`, then Claude Code's), or null. Needs no body. */
export function headerSessionId(headers: Headers): SessionId | null {
  const explicit = headers.get("x-sluice-session")?.trim();
  if (explicit) return { id: clean(explicit), source: "header" };
  const claude = headers.get("x-claude-code-session-id")?.trim();
  if (claude) return { id: clean(`cc:${claude}`), source: "client_session" };
  return null;
}

/** Derives the session id of a chat request from its headers and scanned body. */
export function sessionIdOf(provider: Provider, headers: Headers, bytes: Uint8Array, root: JsonNode): SessionId {
  const named = headerSessionId(headers);
  if (named) return named;
  const pck = getMember(root, "prompt_cache_key");
  if (pck?.type === "string") {
    const v = stringValue(bytes, pck).trim();
    if (v) return { id: clean(`pck:${v}`), source: "prompt_cache_key" };
  }
  return { id: `fp:${fingerprint(provider, bytes, root, credentialOf(headers))}`, source: "fingerprint" };
}

/** Credential headers, in the order read: Anthropic, OpenAI, Azure OpenAI. */
const CREDENTIAL_HEADERS = ["x-api-key", "authorization", "api-key"] as const;

/** The request's credential header value, or null. Only its hash is ever used (never stored or logged). */
export function credentialOf(headers: Headers): string | null {
  for (const h of CREDENTIAL_HEADERS) {
    const v = headers.get(h)?.trim();
    if (v) return v;
  }
  return null;
}

/**
 * Hash of the raw bytes of model, system prompt and the first user message, and of the
 * client's credential when it sent one: two API keys opening the same conversation are two
 * sessions (their stats, alarms and tiers never mix; found by the fresh-user pass of
 * 2026-12-01). The credential enters as its own 64-bit hash, so the id reveals nothing of it.
 */
export function fingerprint(provider: Provider, bytes: Uint8Array, root: JsonNode, credential: string | null = null): string {
  const parts: Uint8Array[] = [];
  if (credential !== null) parts.push(new TextEncoder().encode(`credential:${hashText(credential)}`), new Uint8Array([0]));
  const add = (n: JsonNode | undefined) => {
    if (n) parts.push(bytes.subarray(n.start, n.end), new Uint8Array([0]));
    else parts.push(new Uint8Array([1]));
  };
  add(getMember(root, "model"));
  add(getMember(root, provider === "anthropic" ? "system" : "instructions"));
  const history = getMember(root, provider === "openai-responses" ? "input" : "messages");
  let firstUser: JsonNode | undefined;
  if (history?.type === "array") {
    for (const item of history.items) {
      const role = getMember(item, "role");
      if (role?.type === "string" && stringValue(bytes, role) === "system" && provider === "openai-chat") add(item);
      if (role?.type === "string" && stringValue(bytes, role) === "user") { firstUser = item; break; }
    }
  } else if (history?.type === "string") firstUser = history;
  add(firstUser);
  let len = 0;
  for (const p of parts) len += p.length;
  const all = new Uint8Array(len);
  let at = 0;
  for (const p of parts) { all.set(p, at); at += p.length; }
  return hashBytes(all);
}
