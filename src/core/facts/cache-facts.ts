/**
 * What the cache-breaker diagnostics read of a request beyond its prefix hashes (pure): each tool
 * definition as a name hash and a definition hash, the positions of Anthropic `cache_control`
 * markers, a marker-free hash of every message that carries one, and the system prompt as hashes
 * of fixed-size chunks. The session DO compares two consecutive requests' facts
 * (src/core/cache/diagnose-break.ts) to tell what made the provider's cache miss. Hashes, counts
 * and positions only, never text (DESIGN invariant 7).
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

/** What one message contributes: whether it carries a marker, its marker-free hash, whether a marker asks for 1 h. */
export interface MessageMarks {
  marked: boolean;
  unmarked: string;
  hour: boolean;
}

const UNMARKED: MessageMarks = { marked: false, unmarked: "", hour: false };

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
    f = { marked: true, unmarked: joinedHash(bytes, ranges).slice(0, MESSAGE_HASH_CHARS), hour: markers.some((e) => isLiteral(bytes, member(e.value, "ttl"), "1h")) };
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
  const markers: MarkerAt[] = [];
  const unmarked: [number, string][] = [];
  let hour = false;
  if (provider === "anthropic") {
    const toolMarks = toolNodes.flatMap((t) => (t.type === "object" ? t.entries.filter((e) => e.key === "cache_control") : []));
    const sysMarks = blocksOf(member(root, "system")).flatMap((b) => b.entries.filter((e) => e.key === "cache_control"));
    if (toolMarks.length > 0) markers.push("tools");
    if (sysMarks.length > 0) markers.push("system");
    hour = [...toolMarks, ...sysMarks].some((e) => isLiteral(bytes, member(e.value, "ttl"), "1h"));
    const history = member(root, history_key);
    (history?.type === "array" ? history.items : []).forEach((m, i) => {
      const f = messageMarks(bytes, m, caches.messageMarks);
      if (!f.marked) return;
      markers.push(i);
      unmarked.push([i, f.unmarked]);
      hour ||= f.hour;
    });
    const auto = member(root, "cache_control");
    if (auto !== undefined) {
      markers.push("auto");
      hour ||= isLiteral(bytes, member(auto, "ttl"), "1h");
    }
  }
  const retention = isLiteral(bytes, member(root, "prompt_cache_retention"), "24h");
  return {
    tools: toolNodes.map((t) => toolFacts(bytes, t, caches.toolHashes)),
    system: sys === null ? null : { at: sys.at, bytes: sys.node.end - sys.node.start, chunks: systemChunks(bytes, sys.node, caches.systemChunks), diff },
    markers,
    unmarked,
    ttl_ms: retention ? DAY_MS : hour ? ONE_HOUR_MS : null,
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
