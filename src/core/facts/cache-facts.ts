/**
 * What the cache-breaker diagnostics and the cost model read of a request beyond its prefix hashes
 * (pure): each tool definition as a name hash and a definition hash, the positions of Anthropic
 * `cache_control` markers with the TTL each asks for, a marker-free hash of every message that
 * carries one, the system prompt as hashes of fixed-size chunks, OpenAI's caching options
 * (`prompt_cache_options` mode and ttl, `prompt_cache_breakpoint` positions, `prompt_cache_retention`)
 * and the mid-conversation system messages the model no longer reads (`clear_at`). The session DO
 * compares two consecutive requests' facts (src/core/cache/diagnose-break.ts) to tell what made
 * the provider's cache miss; the cost model prices a step at the request's own cache lifetime
 * and write price (src/core/cost/cache-regime.ts). Hashes, counts and positions only, never text
 * (DESIGN invariant 7).
 *
 * Why marker-free hashes: a `cache_control` marker is not part of what the provider caches
 * (moving the breakpoint to the newest message is how clients keep hitting the cache), but it is
 * part of the message's bytes, so the message that carried it last call hashes differently this
 * call. The cache key of such a message leaves its markers out, and a single marked text block
 * counts as the string content it stands for (the API treats `"content": "x"` and
 * `[{"type":"text","text":"x"}]` alike).
 *
 * Cost: tool definitions and messages are memoised per lent node (../caches.ts, like
 * ./prefix-facts.ts); a top-level system prompt is not a lent node, so its bytes are hashed again
 * on each request (≈ 1 ns per byte).
 */
import { hashBytes, PREFIX_HASH_CHARS } from "../hash";
import type { JsonEntry, JsonNode } from "../../providers/shared/json-scan";
import type { Provider } from "../view/types";
import type { CoreCaches } from "../caches";
import type { NodeMemo } from "../../providers/shared/node-memo";

/** Bytes per system-prompt chunk: the diagnostics place a change to within this many bytes when the exact offset is not at hand. */
export const SYSTEM_CHUNK_BYTES = 256;
/** Hex digits kept of a chunk or tool hash: 32 bits, enough to tell two versions of one chunk or tool apart. */
export const SHORT_HASH_CHARS = 8;
/** The 1-hour cache TTL (Anthropic `cache_control.ttl: "1h"`), ms. */
export const ONE_HOUR_MS = 3_600_000;
/** OpenAI `prompt_cache_retention: "24h"`, ms. */
export const DAY_MS = 86_400_000;
/** The default Anthropic TTL (a marker without `ttl`, or `ttl: "5m"`), ms. */
export const FIVE_MINUTES_MS = 300_000;
/** OpenAI GPT-5.6 `prompt_cache_options.ttl: "30m"` (the one value the API takes: openai SDK 6.49 PromptCacheOptions), ms. */
export const THIRTY_MINUTES_MS = 1_800_000;

/** Where a cache_control marker sits, in the provider's cache order: a prefix member, a message index, or the automatic top-level marker. */
export type MarkerAt = "tools" | "system" | number | "auto";

/** Where the system prompt is: a top-level member (Anthropic `system`, Responses `instructions`) or the first history element (a Chat / Responses system or developer message). */
export type SystemAt = "system" | "instructions" | "history";

/** The system prompt as hashes. */
export interface SystemFacts {
  at: SystemAt;
  /** UTF-8 bytes of its JSON value (the member's value, or the whole first message). */
  bytes: number;
  /** Hash (SHORT_HASH_CHARS hex) of each consecutive SYSTEM_CHUNK_BYTES-byte chunk of those bytes. */
  chunks: string[];
  /** The exact first difference from the session's previous body, when the gateway still held it (../cache/system-diff.ts), else null. */
  diff: SystemDiff | null;
}

/** What a changed byte looks like (decided in the gateway, where the bytes are; no text leaves). */
export type VolatileKind = "timestamp" | "id";

/** The system prompt's first differing byte against a previous body. */
export interface SystemDiff {
  /** Hash (prefix-facts MESSAGE_HASH_CHARS hex) of the previous body's system value: the diff holds only against that one. */
  against: string;
  /** Byte offset of the first differing byte, from the start of the system value's JSON. */
  offset: number;
  /** The changed token looks like a date / time (timestamp) or a uuid / long id (id); null: neither. */
  volatile: VolatileKind | null;
}

/** The request's cache facts. */
export interface CacheFacts {
  /** Per tool definition, in order: [hash of its name, hash of its definition without markers] (SHORT_HASH_CHARS hex each). */
  tools: [string, string][];
  system: SystemFacts | null;
  /** cache_control markers in cache order (tools, system, messages, auto); [] for OpenAI. */
  markers: MarkerAt[];
  /** [message index, marker-free hash (prefix-facts MESSAGE_HASH_CHARS hex)] of every message carrying a marker. */
  unmarked: [number, string][];
  /** The longest cache lifetime the request asks for (a 1-hour marker, 24-hour retention), ms; null: the model's default. */
  ttl_ms: number | null;
  /**
   * Anthropic: the TTL each marker of `markers` asks for, ms, aligned with it (FIVE_MINUTES_MS or
   * ONE_HOUR_MS; for "tools" and "system" the member's last marker). Absent in facts stored before
   * it was recorded.
   */
  marker_ttls?: number[];
  /** OpenAI: the request's caching options; absent for Anthropic (and in facts stored before they were recorded). */
  openai?: OpenAiCacheOptions;
  /**
   * Anthropic: message indexes of mid-conversation `role: "system"` messages with
   * `clear_at: "next_user_message"` that a later user message follows: they stay in the request
   * but the model no longer reads them (@anthropic-ai/sdk BetaSystemMessageParam.clear_at), so the
   * provider's cached prompt changes at the first request that clears one. Absent: none recorded.
   */
  cleared?: number[];
}

/** OpenAI's prompt-caching options of a request (openai SDK 6.49: PromptCacheOptions, prompt_cache_breakpoint, prompt_cache_retention). */
export interface OpenAiCacheOptions {
  /** `prompt_cache_options.mode` (default implicit: one breakpoint near the latest user or tool message; explicit: only the marked ones). */
  mode: "implicit" | "explicit";
  /** `prompt_cache_options.ttl` in ms, or null when the request sets none (the model's default). */
  ttl_ms: number | null;
  /** History indexes whose content carries a `prompt_cache_breakpoint` (explicit breakpoints). */
  breakpoints: number[];
  /** `prompt_cache_retention` as sent, or null. */
  retention: "in_memory" | "24h" | null;
}

/** Hex digits of a marker-free message hash: the same as a message hash, so the two compare. */
const MESSAGE_HASH_CHARS = PREFIX_HASH_CHARS;

const member = (n: JsonNode | undefined, key: string): JsonNode | undefined => (n?.type === "object" ? n.entries.find((e) => e.key === key)?.value : undefined);

/** Whether the JSON string node `n` is exactly the ASCII literal `text` (no escapes). */
function isLiteral(bytes: Uint8Array, n: JsonNode | undefined, text: string): boolean {
  if (n === undefined || n.type !== "string" || n.end - n.start !== text.length + 2) return false;
  for (let i = 0; i < text.length; i++) if (bytes[n.start + 1 + i] !== text.charCodeAt(i)) return false;
  return true;
}

const short = (bytes: Uint8Array, n: JsonNode): string => hashBytes(bytes, n.start, n.end).slice(0, SHORT_HASH_CHARS);

/** [name hash, marker-free definition hash] of one tool definition (Anthropic / Responses `name`, Chat `function.name` or `custom.name`, else `type`), memoised in `toolMemo`. */
function toolFacts(bytes: Uint8Array, tool: JsonNode, toolMemo: NodeMemo<[string, string]>): [string, string] {
  let f = toolMemo.peek(tool);
  if (f !== undefined) return f;
  const name = member(tool, "name") ?? member(member(tool, "function"), "name") ?? member(member(tool, "custom"), "name") ?? member(tool, "type") ?? tool;
  const cuts = tool.type === "object" ? markerCuts(tool) : [];
  f = [short(bytes, name), joinedHash(bytes, keep(tool, cuts)).slice(0, SHORT_HASH_CHARS)];
  toolMemo.set(tool, f);
  return f;
}

/** Byte ranges of `obj`'s `cache_control` entries with their separating comma: `,"cache_control":{…}` (or `"cache_control":{…},` when first). */
function markerCuts(obj: Extract<JsonNode, { type: "object" }>): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  obj.entries.forEach((e, i) => {
    if (e.key !== "cache_control") return;
    const prev = obj.entries[i - 1], next = obj.entries[i + 1];
    if (prev !== undefined) out.push({ start: prev.value.end, end: e.value.end });
    else out.push({ start: e.keyStart, end: next !== undefined ? next.keyStart : e.value.end });
  });
  return out;
}

/** The ranges of `n` left after removing `cuts` (sorted, disjoint, inside `n`). */
function keep(n: JsonNode, cuts: { start: number; end: number }[]): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let at = n.start;
  for (const c of cuts) {
    out.push({ start: at, end: c.start });
    at = c.end;
  }
  out.push({ start: at, end: n.end });
  return out;
}

/** The blocks of a content value (an array's object items; none for a string). */
const blocksOf = (content: JsonNode | undefined): Extract<JsonNode, { type: "object" }>[] =>
  content?.type === "array" ? content.items.filter((b): b is Extract<JsonNode, { type: "object" }> => b.type === "object") : [];

/** The marker entries of a block and of the blocks inside its `content` (a tool_result's). */
function blockMarkers(block: Extract<JsonNode, { type: "object" }>): JsonEntry[] {
  const own = block.entries.filter((e) => e.key === "cache_control");
  return [...own, ...blocksOf(member(block, "content")).flatMap((b) => b.entries.filter((e) => e.key === "cache_control"))];
}

/** What one message contributes: whether it carries a marker, its marker-free hash, whether a marker asks for 1 h, the TTL its last marker asks for. */
export interface MessageMarks {
  marked: boolean;
  unmarked: string;
  hour: boolean;
  /** TTL of the message's last marker, ms (0 when unmarked). */
  last_ttl_ms: number;
}

const UNMARKED: MessageMarks = { marked: false, unmarked: "", hour: false, last_ttl_ms: 0 };

/** The TTL a `cache_control` entry asks for, ms: one hour for `ttl: "1h"`, else five minutes. */
function markerTtl(bytes: Uint8Array, e: JsonEntry): number {
  return isLiteral(bytes, member(e.value, "ttl"), "1h") ? ONE_HOUR_MS : FIVE_MINUTES_MS;
}

/** The marks of one Anthropic message (memoised per node in `messageMemo`). */
function messageMarks(bytes: Uint8Array, m: JsonNode, messageMemo: NodeMemo<MessageMarks>): MessageMarks {
  let f = messageMemo.peek(m);
  if (f !== undefined) return f;
  const content = member(m, "content");
  const blocks = blocksOf(content);
  const markers = blocks.flatMap(blockMarkers);
  if (markers.length === 0) f = UNMARKED;
  else {
    const only = blocks.length === 1 && content!.type === "array" && content!.items.length === 1 ? blocks[0]! : null;
    const text = only !== null && isLiteral(bytes, member(only, "type"), "text") && only.entries.every((e) => e.key === "type" || e.key === "text" || e.key === "cache_control") ? member(only, "text") : undefined;
    // A lone marked text block stands for its string: hash the message with the string in the content's place.
    const ranges = text !== undefined ? [{ start: m.start, end: content!.start }, { start: text.start, end: text.end }, { start: content!.end, end: m.end }]
      : keep(m, blocks.flatMap((b) => [...markerCuts(b), ...blocksOf(member(b, "content")).flatMap(markerCuts)]).sort((a, b) => a.start - b.start));
    f = { marked: true, unmarked: joinedHash(bytes, ranges).slice(0, MESSAGE_HASH_CHARS), hour: markers.some((e) => isLiteral(bytes, member(e.value, "ttl"), "1h")), last_ttl_ms: markerTtl(bytes, markers[markers.length - 1]!) };
  }
  messageMemo.set(m, f);
  return f;
}

/** Hash of the concatenation of `ranges` of `bytes`: equal to the hash of a node with exactly those bytes. */
function joinedHash(bytes: Uint8Array, ranges: { start: number; end: number }[]): string {
  if (ranges.length === 1) return hashBytes(bytes, ranges[0]!.start, ranges[0]!.end);
  const n = ranges.reduce((s, r) => s + r.end - r.start, 0);
  const joined = new Uint8Array(n);
  let at = 0;
  for (const r of ranges) {
    joined.set(bytes.subarray(r.start, r.end), at);
    at += r.end - r.start;
  }
  return hashBytes(joined);
}

/** Hashes of the SYSTEM_CHUNK_BYTES-byte chunks of `n`'s bytes (memoised per node in `chunkMemo`: a lent first message is hashed once). */
export function systemChunks(bytes: Uint8Array, n: JsonNode, chunkMemo: NodeMemo<string[]>): string[] {
  let c = chunkMemo.peek(n);
  if (c !== undefined) return c;
  c = [];
  for (let at = n.start; at < n.end; at += SYSTEM_CHUNK_BYTES) c.push(hashBytes(bytes, at, Math.min(at + SYSTEM_CHUNK_BYTES, n.end)).slice(0, SHORT_HASH_CHARS));
  chunkMemo.set(n, c);
  return c;
}

/** The system prompt's node and where it is: `system` / `instructions` member, else a first history element with role system or developer. */
export function systemNode(bytes: Uint8Array, root: JsonNode, history_key: string): { at: SystemAt; node: JsonNode } | null {
  const sys = member(root, "system") ?? member(root, "instructions");
  if (sys !== undefined) return { at: member(root, "system") !== undefined ? "system" : "instructions", node: sys };
  const history = member(root, history_key);
  const first = history?.type === "array" ? history.items[0] : undefined;
  const role = member(first, "role");
  return first !== undefined && (isLiteral(bytes, role, "system") || isLiteral(bytes, role, "developer")) ? { at: "history", node: first } : null;
}

/**
 * The cache facts of a parsed body (`root` = scanJson(bytes), `history_key` the adapter's history
 * member), memoised per node in `caches`. `diff`, when the gateway computed one
 * (../cache/system-diff.ts), goes into `system.diff`. Markers are read for Anthropic only (OpenAI
 * caches without them).
 */
export function cacheFactsOf(bytes: Uint8Array, root: JsonNode, history_key: string, provider: Provider, caches: Pick<CoreCaches, "toolHashes" | "messageMarks" | "systemChunks">, diff: SystemDiff | null = null): CacheFacts {
  const tools = member(root, "tools");
  const toolNodes = tools?.type === "array" ? tools.items : [];
  const sys = systemNode(bytes, root, history_key);
  const history = member(root, history_key);
  const items = history?.type === "array" ? history.items : [];
  const markers: MarkerAt[] = [];
  const marker_ttls: number[] = [];
  const unmarked: [number, string][] = [];
  const cleared: number[] = [];
  let hour = false;
  if (provider === "anthropic") {
    const toolMarks = toolNodes.flatMap((t) => (t.type === "object" ? t.entries.filter((e) => e.key === "cache_control") : []));
    const sysMarks = blocksOf(member(root, "system")).flatMap((b) => b.entries.filter((e) => e.key === "cache_control"));
    for (const [at, marks] of [["tools", toolMarks], ["system", sysMarks]] as const) {
      if (marks.length === 0) continue;
      markers.push(at);
      marker_ttls.push(markerTtl(bytes, marks[marks.length - 1]!));
    }
    hour = [...toolMarks, ...sysMarks].some((e) => isLiteral(bytes, member(e.value, "ttl"), "1h"));
    let lastUser = -1;
    items.forEach((m, i) => {
      if (isLiteral(bytes, member(m, "role"), "user")) lastUser = i;
      const f = messageMarks(bytes, m, caches.messageMarks);
      if (!f.marked) return;
      markers.push(i);
      marker_ttls.push(f.last_ttl_ms);
      unmarked.push([i, f.unmarked]);
      hour ||= f.hour;
    });
    items.forEach((m, i) => {
      if (i < lastUser && isLiteral(bytes, member(m, "role"), "system") && isLiteral(bytes, member(m, "clear_at"), "next_user_message")) cleared.push(i);
    });
    const auto = member(root, "cache_control");
    if (auto !== undefined) {
      markers.push("auto");
      marker_ttls.push(isLiteral(bytes, member(auto, "ttl"), "1h") ? ONE_HOUR_MS : FIVE_MINUTES_MS);
      hour ||= isLiteral(bytes, member(auto, "ttl"), "1h");
    }
  }
  const retentionNode = member(root, "prompt_cache_retention");
  const retention = isLiteral(bytes, retentionNode, "24h") ? "24h" : isLiteral(bytes, retentionNode, "in_memory") ? "in_memory" : null;
  const base: CacheFacts = {
    tools: toolNodes.map((t) => toolFacts(bytes, t, caches.toolHashes)),
    system: sys === null ? null : { at: sys.at, bytes: sys.node.end - sys.node.start, chunks: systemChunks(bytes, sys.node, caches.systemChunks), diff },
    markers,
    unmarked,
    ttl_ms: retention === "24h" ? DAY_MS : hour ? ONE_HOUR_MS : null,
  };
  if (provider === "anthropic") return { ...base, marker_ttls, cleared };
  return { ...base, openai: openaiOptions(bytes, root, items, retention) };
}

/** OpenAI's caching options of a request: `prompt_cache_options` and the history items whose content carries a `prompt_cache_breakpoint`. */
function openaiOptions(bytes: Uint8Array, root: JsonNode, items: readonly JsonNode[], retention: OpenAiCacheOptions["retention"]): OpenAiCacheOptions {
  const opts = member(root, "prompt_cache_options");
  const ttl = member(opts, "ttl");
  const breakpoints: number[] = [];
  items.forEach((m, i) => {
    if (blocksOf(member(m, "content")).some((b) => b.entries.some((e) => e.key === "prompt_cache_breakpoint"))) breakpoints.push(i);
  });
  return {
    mode: isLiteral(bytes, member(opts, "mode"), "explicit") ? "explicit" : "implicit",
    ttl_ms: isLiteral(bytes, ttl, "30m") ? THIRTY_MINUTES_MS : null,
    breakpoints,
    retention,
  };
}

/**
 * The history hashes as the provider's cache keys them: `message_hashes` with every marked
 * message's hash replaced by its marker-free one (`cache.unmarked`); the hashes as they are
 * without cache facts.
 */
export function cacheKeyHashes(p: { message_hashes: string[]; cache?: CacheFacts }): string[] {
  const unmarked = p.cache?.unmarked ?? [];
  if (unmarked.length === 0) return p.message_hashes;
  const h = [...p.message_hashes];
  for (const [i, u] of unmarked) if (i < h.length) h[i] = u;
  return h;
}
