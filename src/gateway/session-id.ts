/**
 * Session identity (pure), DESIGN §6. The session key names one conversation:
 * 1. an explicit `x-sluice-session` header, as sent (the operator's choice);
 * 2. Claude Code (`X-Claude-Code-Session-Id` on every request): that id plus the conversation
 *    within it — Claude Code sends the same session id for the main conversation and for every
 *    sub-agent's, so the key adds the sub-agent's `X-Claude-Code-Agent-Id` when one is sent
 *    (Claude Code 2.1.234+ sends it, with `X-Claude-Code-Parent-Agent-Id`, on sub-agent requests:
 *    router-for-me/CLIProxyAPI#5084, BYK/loreai#1701), else a fingerprint of the conversation's
 *    start (conversationFingerprint): `cc:<session>:agent:<agent id>` or `cc:<session>:conv:<hash>`;
 * 3. OpenAI clients' body `prompt_cache_key`: `pck:<key>`;
 * 4. else a fingerprint of model + the conversation's stable start (system prompt and first user
 *    message, without cache markers or volatile lines) + a hash of the client's credential:
 *    `fp:<hash>`, stable across the calls of one conversation because the history only grows.
 * A key over MAX_SESSION_ID_CHARS becomes `h:<hash>`.
 */
import { hashBytes, hashText } from "../core/hash";
import type { Provider } from "../core/view/types";
import { getMember, stringValue, type JsonNode } from "../providers/shared/json-scan";
import { conversationStart } from "./conversation-start";

/**
 * Where the session id came from: `header` (x-sluice-session), `client_agent` (Claude Code
 * session + agent id), `client_conversation` (Claude Code session + conversation fingerprint),
 * `client_session` (Claude Code session alone: only from headerSessionId, before a body is read),
 * `prompt_cache_key`, `fingerprint`.
 */
export type SessionIdSource = "header" | "client_agent" | "client_conversation" | "client_session" | "prompt_cache_key" | "fingerprint";

export interface SessionId {
  id: string;
  source: SessionIdSource;
}

/** Longest accepted client-supplied id (characters); longer ones are hashed. */
export const MAX_SESSION_ID_CHARS = 200;

const clean = (v: string): string => (v.length <= MAX_SESSION_ID_CHARS ? v : `h:${hashBytes(new TextEncoder().encode(v))}`);

/**
 * The session id the headers alone name, or null: used before (or without) a parsed body — the
 * gateway's scan-cache key and the count of bodies that fail to parse. For Claude Code without
 * an agent id this is the client's session (`cc:<session>`, source `client_session`), which
 * sessionIdOf refines with the conversation fingerprint.
 */
export function headerSessionId(headers: Headers): SessionId | null {
  const explicit = headers.get("x-sluice-session")?.trim();
  if (explicit) return { id: clean(explicit), source: "header" };
  const claude = headers.get("x-claude-code-session-id")?.trim();
  if (!claude) return null;
  const agent = headers.get("x-claude-code-agent-id")?.trim();
  if (agent) return { id: clean(`cc:${claude}:agent:${agent}`), source: "client_agent" };
  return { id: clean(`cc:${claude}`), source: "client_session" };
}

/** Derives the session id of a chat request from its headers and scanned body. */
export function sessionIdOf(provider: Provider, headers: Headers, bytes: Uint8Array, root: JsonNode): SessionId {
  const named = headerSessionId(headers);
  if (named?.source === "client_session") {
    const claude = headers.get("x-claude-code-session-id")!.trim();
    return { id: clean(`cc:${claude}:conv:${conversationFingerprint(provider, bytes, root)}`), source: "client_conversation" };
  }
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
 * The API key itself: credentialOf without an `Authorization` header's `Bearer ` scheme, or null
 * when none is sent or it is empty. One key sent as `x-api-key: K` or as `Authorization: Bearer K`
 * gives the same value, so it names one caller (project key, rate-limit caller id).
 */
export function providerKeyOf(headers: Headers): string | null {
  return credentialOf(headers)?.replace(/^bearer\s+/i, "") || null;
}

/**
 * Hash of the model, the conversation's stable start (./conversation-start.ts: system prompt
 * and first user message, read without cache markers or volatile system lines, so the call
 * whose `cache_control` breakpoint sits on the first message and the calls after it share the
 * key) and the client's credential when it sent one: two API keys opening the same
 * conversation are two sessions (their stats, alarms and tiers never mix; found by the
 * fresh-user pass of 2026-12-01). The credential enters as its own 64-bit hash, so the id
 * reveals nothing of it. It is the header value as sent (`Bearer ` included; the project key
 * uses providerKeyOf): a client sends its key one way throughout a session.
 */
export function fingerprint(provider: Provider, bytes: Uint8Array, root: JsonNode, credential: string | null = null): string {
  const model = getMember(root, "model");
  return hashText([
    credential !== null ? `credential:${hashText(credential)}` : "\u0001",
    model?.type === "string" ? stringValue(bytes, model) : "\u0001",
    conversationStart(provider, bytes, root),
  ].join("\u0000"));
}

/**
 * Hash of a conversation's start (./conversation-start.ts), the same on every request of that
 * conversation and different between the conversations of one client session (a sub-agent has
 * its own system prompt and its own first user message, the task it was given). Two sub-agents
 * given the same system prompt and the same task share a key.
 */
export function conversationFingerprint(provider: Provider, bytes: Uint8Array, root: JsonNode): string {
  return hashText(conversationStart(provider, bytes, root));
}
