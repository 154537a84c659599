/**
 * What the provider's prompt cache sees of a request, as hashes (pure): the hash and size of
 * every top-level member other than the history (Anthropic `system`, `tools`, `thinking`;
 * Responses `instructions`; any member a client sends) and the hash of every history element's
 * raw bytes. Two consecutive requests of a session share a cached prefix up to the first member
 * or message whose hash differs, so the session DO can tell, from hashes alone, how much of the
 * client's body the provider would have read from its cache without Sluice (the savings ledger)
 * and what broke the cache (the cache-breaker diagnostics). Counts and hashes only, never text
 * (DESIGN invariant 7).
 *
 * Cost: one pass over the body's bytes (src/core/hash.ts, ≈ 1 ns per byte), memoised per history
 * element node (../caches.ts messageHashes), which the scan cache (src/gateway/scan-cache.ts)
 * lends from the session's last body: in a session served by one isolate only the new messages
 * are hashed.
 */
import { Hasher, hashBytes, PREFIX_HASH_CHARS } from "../hash";
import type { JsonNode } from "../../providers/shared/json-scan";
import type { NodeMemo } from "../../providers/shared/node-memo";
import { cacheKeyHashes, type CacheFacts } from "./cache-facts";

/** Hex digits kept of each message and member hash (src/core/hash.ts PREFIX_HASH_CHARS). */
export const MESSAGE_HASH_CHARS = PREFIX_HASH_CHARS;

/** One top-level member of the request body. */
export interface MemberFacts {
  key: string;
  /** Hash (src/core/hash.ts, MESSAGE_HASH_CHARS hex) of the member's value bytes. */
  hash: string;
  /** UTF-8 bytes of the member's value. */
  bytes: number;
}

/** The request's cacheable prefix as hashes. */
export interface PrefixFacts {
  /** Every top-level member but the history, in body order. */
  members: MemberFacts[];
  /** Per history element, in order: hash (MESSAGE_HASH_CHARS hex) of its raw bytes, cache markers left out (cacheHash). */
  message_hashes: string[];
  /** What the cache-breaker diagnostics read besides (./cache-facts.ts); absent when not computed. */
  cache?: CacheFacts;
}

/**
 * Keys that mark a prompt-cache breakpoint and are not part of the cached content: Anthropic
 * `cache_control` (platform.claude.com prompt-caching: the marker moves to the newest block every
 * call and a moved marker still reads the cache), OpenAI GPT-5.6 `prompt_cache_breakpoint`.
 */
export const CACHE_MARKER_KEYS: ReadonlySet<string> = new Set(["cache_control", "prompt_cache_breakpoint"]);

/** Depth below a message or member where markers sit: message → content array → block → tool_result content → part. */
const MARKER_DEPTH = 4;

/** Byte ranges of `node` to skip so that its hash is the same with or without cache markers (an entry with its separating comma). */
function markerRanges(node: JsonNode, depth: number, out: { start: number; end: number }[]): void {
  if (depth > MARKER_DEPTH) return;
  if (node.type === "array") for (const it of node.items) markerRanges(it, depth + 1, out);
  if (node.type !== "object") return;
  node.entries.forEach((e, i) => {
    if (!CACHE_MARKER_KEYS.has(e.key)) return markerRanges(e.value, depth + 1, out);
    const prev = node.entries[i - 1], next = node.entries[i + 1];
    if (prev !== undefined) out.push({ start: prev.value.end, end: e.value.end });
    else out.push({ start: e.keyStart, end: next !== undefined ? next.keyStart : e.value.end });
  });
}

/**
 * Hash of `node`'s bytes as the prompt cache sees them: its raw bytes, minus every cache marker
 * entry (CACHE_MARKER_KEYS) within MARKER_DEPTH, so the message that carried the breakpoint in one
 * request hashes the same in the next, where the client moved the marker on.
 */
function cacheHash(bytes: Uint8Array, node: JsonNode): string {
  const skip: { start: number; end: number }[] = [];
  markerRanges(node, 0, skip);
  if (skip.length === 0) return hashBytes(bytes, node.start, node.end);
  // Fed piece by piece: the hash of the bytes the body would have without its markers, no copy.
  const h = new Hasher();
  let at = node.start;
  for (const r of skip) {
    h.feed(bytes, at, r.start);
    at = r.end;
  }
  return h.feed(bytes, at, node.end).digest();
}

/** cacheHash of `node` in `bytes`, memoised per node in `memo` (a lent node has the same bytes). */
function nodeHash(bytes: Uint8Array, node: JsonNode, memo: NodeMemo<string>): string {
  let h = memo.peek(node);
  if (h === undefined) memo.set(node, (h = cacheHash(bytes, node).slice(0, MESSAGE_HASH_CHARS)));
  return h;
}

/**
 * The prefix facts of a parsed body: `root` is `scanJson(bytes)`, `history_key` the adapter's
 * history array member ("messages" / "input"); `memo` keeps each history element's hash
 * (../caches.ts messageHashes). A body whose root is not an object, or whose history is not an
 * array, yields no messages (adapters reject such bodies before this runs).
 */
export function prefixFactsOf(bytes: Uint8Array, root: JsonNode, history_key: string, memo: NodeMemo<string>): PrefixFacts {
  const members: MemberFacts[] = [];
  let message_hashes: string[] = [];
  if (root.type !== "object") return { members, message_hashes };
  for (const e of root.entries) {
    if (e.key === history_key) {
      if (e.value.type === "array") message_hashes = e.value.items.map((m) => nodeHash(bytes, m, memo));
      continue;
    }
    members.push({ key: e.key, hash: cacheHash(bytes, e.value).slice(0, MESSAGE_HASH_CHARS), bytes: e.value.end - e.value.start });
  }
  return { members, message_hashes };
}

/**
 * Top-level members that are request knobs, not prompt: they are not part of the cached prefix
 * (Anthropic and OpenAI prompt caching hash tools, system / instructions and the history; a
 * different `max_tokens` or `stream` still reads the cache).
 */
export const NOT_PREFIX_MEMBERS: ReadonlySet<string> = new Set([
  "model", "max_tokens", "max_completion_tokens", "max_output_tokens", "stream", "stream_options", "temperature", "top_p", "top_k",
  "metadata", "stop", "stop_sequences", "user", "store", "service_tier", "parallel_tool_calls", "prompt_cache_key", "prompt_cache_retention",
  "include", "n", "seed", "safety_identifier", "truncation", "background",
]);

/** The members of `p` that belong to the cached prefix (not NOT_PREFIX_MEMBERS), in body order. */
export function prefixMembers(p: PrefixFacts): MemberFacts[] {
  return p.members.filter((m) => !NOT_PREFIX_MEMBERS.has(m.key));
}

/**
 * How far two requests' prefixes agree: `members_equal` when their prefix members
 * (prefixMembers) have the same keys, order and hashes; `shared_messages` = the number of leading
 * history elements with equal cache keys (./cache-facts.ts cacheKeyHashes: the hashes, a marked
 * message's without its markers; 0 when the members differ, since the history follows them in
 * the cache).
 */
export function sharedPrefix(prev: PrefixFacts, cur: PrefixFacts): { members_equal: boolean; shared_messages: number } {
  const a = prefixMembers(prev), b = prefixMembers(cur);
  const members_equal = a.length === b.length && a.every((m, i) => m.key === b[i]!.key && m.hash === b[i]!.hash);
  if (!members_equal) return { members_equal, shared_messages: 0 };
  return { members_equal, shared_messages: sharedMessages(prev, cur) };
}

/**
 * The number of leading history elements two requests share, compared as the provider's cache
 * keys them (cache-facts.ts cacheKeyHashes): a cache_control marker that moved off a message
 * changes its bytes, not its key.
 */
export function sharedMessages(prev: Pick<PrefixFacts, "message_hashes" | "cache">, cur: Pick<PrefixFacts, "message_hashes" | "cache">): number {
  const ka = cacheKeyHashes(prev), kb = cacheKeyHashes(cur);
  const n = Math.min(ka.length, kb.length);
  let i = 0;
  while (i < n && ka[i] === kb[i]) i++;
  return i;
}
