/**
 * What broke the provider's prompt cache between two consecutive requests of a session (pure):
 * compares their prefix facts (../facts/prefix-facts.ts, with ../facts/cache-facts.ts) in the
 * provider's cache order — tools, system, other prefix members, history — and names the first
 * thing that differs, or the TTL lapsing (for all of the prefix, or, with a 1-hour breakpoint
 * before 5-minute ones, for what follows the last breakpoint still alive), or a mid-conversation
 * system message the model stopped reading (`clear_at`), or a breakpoint the new request no
 * longer reaches, or Sluice's own step, or a removal Sluice had to undo (a restored pair). A tool
 * added or removed mid-conversation (a `tool_addition` / `tool_removal` block of a system message
 * appended to the history) changes nothing before it, so it breaks nothing: only a changed
 * top-level `tools` is `tools_changed`. Counts, positions and offsets only, never text (DESIGN invariant 7).
 *
 * The verdict is a diagnosis from hashes; whether the cache really missed is the provider's
 * usage to say (src/observers/cache-diagnostics.ts confirms it when the answer's usage arrives).
 * Sources: Anthropic caches tools → system → messages, a prefix up to a `cache_control`
 * breakpoint, found from a later breakpoint by looking back at most 20 blocks, 5-minute TTL
 * refreshed on use (1 h with `ttl: "1h"`); OpenAI caches any prefix of 1,024+ tokens, 5–10 min
 * (platform.claude.com/docs/en/build-with-claude/prompt-caching; platform.openai.com prompt
 * caching guide); a `clear_at: "next_user_message"` system message stays in the request but is no
 * longer shown once a later user message exists (@anthropic-ai/sdk BetaSystemMessageParam).
 */
import { prefixMembers, sharedMessages, type PrefixFacts } from "../facts/prefix-facts";
import { SYSTEM_CHUNK_BYTES, type CacheFacts, type MarkerAt } from "../facts/cache-facts";

/** How far back from a breakpoint Anthropic looks for a cached prefix, blocks (prompt caching docs). Counted here in messages, which hold one block or more, so a reach is never under-stated. */
export const LOOKBACK_BLOCKS = 20;

/** Why the cache missed, in the order the diagnosis checks. */
export const CACHE_BREAK_CAUSES = [
  "ttl_expired", "tools_changed", "timestamp_in_prefix", "id_in_prefix", "system_changed", "settings_changed",
  "sluice_step", "sluice_restore", "system_message_cleared", "history_edited", "breakpoint_moved", "unexplained",
] as const;
export type CacheBreakCause = (typeof CACHE_BREAK_CAUSES)[number];

/** One request as the session remembers it (src/session/session-record.ts LastPrefix). */
export interface PrefixSnapshot {
  /** Epoch ms of the request. */
  at_ms: number;
  prefix: PrefixFacts & { cache?: CacheFacts };
  /** Estimated tokens per message, aligned with prefix.message_hashes. */
  message_tokens: number[];
  /** Estimated tokens of the whole request. */
  est_tokens: number;
}

/** Tool definitions between two requests, counted by name. */
export interface ToolChanges {
  added: number;
  removed: number;
  /** Same name, different definition. */
  changed: number;
  /** Kept tools whose place among the kept ones moved. */
  reordered: number;
}

/** Sluice's step on the current request, as the session decided it. */
export interface SluiceEdit {
  /** Index of the first message the step edits. */
  message_index: number;
  /** Estimated tokens the step removes from the request. */
  tokens_removed: number;
}

/**
 * Removals Sluice made on the previous request and undid on this one (src/core/cache/restored-pairs.ts):
 * the pair is back because a later result refers to it (DESIGN §6) or its result changed, so
 * the forwarded history changes there although the client's did not.
 */
export interface SluiceRestore {
  /** Index of the first message a restored pair comes back in. */
  message_index: number;
  /** How many pairs came back. */
  pairs: number;
}

/** Prices the step's cost is computed at, USD per token. */
export interface CachePrices {
  cache_write: number;
  cache_read: number;
}

/** The diagnosis of one pair of consecutive requests. */
export interface CacheBreak {
  cause: CacheBreakCause;
  /** System-prompt causes: offset of the first differing byte in the system value's JSON (exact when `offset_exact`, else the start of the first differing SYSTEM_CHUNK_BYTES chunk); else null. */
  byte_offset: number | null;
  offset_exact: boolean;
  /** history_edited, sluice_step, sluice_restore, system_message_cleared, breakpoint_moved, and ttl_expired when only the stretch after a live breakpoint lapsed: the first message index concerned; else null. */
  message_index: number | null;
  /** tools_changed: the counts; else null. */
  tools: ToolChanges | null;
  /** settings_changed: the top-level member keys that differ (field names, not content). */
  members: string[];
  /** Milliseconds between the two requests. */
  gap_ms: number;
  /** Estimated tokens of the previous request from the break on: what this call could not read from the cache. */
  tokens_affected: number;
  /** sluice_step, sluice_restore: tokens rewritten after the edit × the write price, minus the cache read of the tokens it replaced, USD; else null. */
  cost_usd: number | null;
}

/** Counts added / removed / changed / reordered tools from [name hash, definition hash] lists. */
export function toolChanges(prev: readonly [string, string][], cur: readonly [string, string][]): ToolChanges {
  const before = new Map(prev), after = new Map(cur);
  const kept = (list: readonly [string, string][], other: Map<string, string>) => list.map(([n]) => n).filter((n) => other.has(n));
  const a = kept(prev, after), b = kept(cur, before);
  return {
    added: cur.filter(([n]) => !before.has(n)).length,
    removed: prev.filter(([n]) => !after.has(n)).length,
    changed: cur.filter(([n, h]) => before.has(n) && before.get(n) !== h).length,
    reordered: a.filter((n, i) => b[i] !== n).length,
  };
}

const sum = (xs: readonly number[], from = 0, to = xs.length): number => {
  let s = 0;
  for (let i = from; i < to; i++) s += xs[i] ?? 0;
  return s;
};

/** The first differing chunk's byte offset, or null when the chunk lists agree. */
function chunkOffset(a: readonly string[], b: readonly string[]): number | null {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i * SYSTEM_CHUNK_BYTES;
  return null;
}

/**
 * Whether the current request still reaches the longest prefix the previous one wrote
 * (Anthropic): the previous request's furthest marker inside the shared part (a member marker
 * when the members agree, a message index below `shared`) has a current marker at or after it
 * within LOOKBACK_BLOCKS messages (the automatic marker sits on the last message; member
 * markers sit before the messages). True when the previous request wrote nothing shared.
 */
function breakpointReached(prev: readonly MarkerAt[], cur: readonly MarkerAt[], shared: number, prevMessages: number, curMessages: number): boolean {
  const pos = (m: MarkerAt, last: number): number => (m === "tools" || m === "system" ? -1 : m === "auto" ? last : m);
  const written = prev.map((m) => pos(m, prevMessages - 1)).filter((p) => p < shared);
  if (written.length === 0) return true;
  // The longest prefix the previous request wrote: reaching a shorter one is a partial miss.
  const w = Math.max(...written);
  return cur.some((m) => {
    const r = pos(m, curMessages - 1);
    return r >= w && r - w <= LOOKBACK_BLOCKS;
  });
}

/**
 * Diagnoses the pair (`prev`, `cur`) of consecutive requests: null when nothing in them explains a
 * miss (the cache should have been read up to the previous request's end). `ttl_ms` is the cache
 * lifetime that applies (the model's, or what the request asked for); `sluice` Sluice's step on
 * `cur` (null without one); `prices` for its cost; `restore` the removals Sluice undid on `cur`
 * (null without any). Order: TTL → tools → system (a timestamp or id, else a plain change) →
 * other prefix members → the first differing message (Sluice's step or restore when it comes
 * before the client's first change, the earlier of the two, the step on a tie; else a client
 * edit of old history) → a breakpoint no longer reached.
 */
export function diagnoseBreak(prev: PrefixSnapshot, cur: PrefixSnapshot, ttl_ms: number, sluice: SluiceEdit | null, prices: CachePrices, restore: SluiceRestore | null = null): CacheBreak | null {
  const gap_ms = cur.at_ms - prev.at_ms;
  const base = { byte_offset: null, offset_exact: false, message_index: null, tools: null, members: [] as string[], gap_ms, cost_usd: null };
  const all = prev.est_tokens;
  if (gap_ms > ttl_ms) return { ...base, cause: "ttl_expired", tokens_affected: all };
  const found = diagnoseChange(prev, cur, sluice, prices, restore, base);
  // Some breakpoints lapsed (a 5-minute one after a 1-hour one): what follows the last live one is written again, unless a change breaks the cache earlier.
  const live = liveThrough(prev, gap_ms);
  if (live === null) return found;
  const at = found === null ? Number.POSITIVE_INFINITY : found.message_index ?? -1;
  return at <= live ? found : { ...base, cause: "ttl_expired", message_index: live + 1, tokens_affected: sum(prev.message_tokens, live + 1) };
}

/**
 * The last message the previous request's cache still holds after `gap_ms` when some of its
 * breakpoints lapsed and an earlier one did not (-1: only the tools and system are held), or
 * null when no breakpoint lapsed (or the facts carry no TTL per breakpoint).
 */
function liveThrough(prev: PrefixSnapshot, gap_ms: number): number | null {
  const c = prev.prefix.cache;
  const ttls = c?.marker_ttls;
  if (!c || !ttls || ttls.length !== c.markers.length || ttls.every((t) => t >= gap_ms)) return null;
  const last = prev.prefix.message_hashes.length - 1;
  const pos = (m: MarkerAt): number => (m === "tools" || m === "system" ? -1 : m === "auto" ? last : m);
  const alive = c.markers.filter((_, i) => ttls[i]! >= gap_ms).map(pos);
  return alive.length === 0 ? null : Math.max(...alive);
}

/** The first change between the two requests that breaks the cache (diagnoseBreak's order after the TTL), or null. */
function diagnoseChange(prev: PrefixSnapshot, cur: PrefixSnapshot, sluice: SluiceEdit | null, prices: CachePrices, restore: SluiceRestore | null, base: Omit<CacheBreak, "cause" | "tokens_affected">): CacheBreak | null {
  const all = prev.est_tokens;
  const pc = prev.prefix.cache, cc = cur.prefix.cache;
  const pm = new Map(prefixMembers(prev.prefix).map((m) => [m.key, m.hash])), cm = new Map(prefixMembers(cur.prefix).map((m) => [m.key, m.hash]));
  const keys = [...new Set([...pm.keys(), ...cm.keys()])].filter((k) => pm.get(k) !== cm.get(k));
  // 1. Tools (a marker moving between tools changes the member's bytes, not a definition).
  if (keys.includes("tools") && pc && cc) {
    const t = toolChanges(pc.tools, cc.tools);
    if (t.added + t.removed + t.changed + t.reordered > 0) return { ...base, cause: "tools_changed", tools: t, tokens_affected: all };
  }
  // 2. The system prompt (a member, or the first history element for Chat).
  const ps = pc?.system ?? null, cs = cc?.system ?? null;
  const sysAt = cs?.at ?? ps?.at;
  const sysChanged = sysAt === "history" ? prev.prefix.message_hashes[0] !== cur.prefix.message_hashes[0] : sysAt !== undefined && keys.includes(sysAt);
  if (sysChanged) {
    const against = sysAt === "history" ? prev.prefix.message_hashes[0] : pm.get(sysAt!);
    const diff = cs?.diff != null && cs.diff.against === against ? cs.diff : null;
    const offset = diff !== null ? diff.offset : chunkOffset(ps?.chunks ?? [], cs?.chunks ?? []);
    const cause = diff?.volatile === "timestamp" ? "timestamp_in_prefix" : diff?.volatile === "id" ? "id_in_prefix" : "system_changed";
    return { ...base, cause, byte_offset: offset ?? 0, offset_exact: diff !== null, tokens_affected: all };
  }
  // 3. Any other prefix member (tool_choice, thinking, a marker moved among tools or system blocks…).
  const others = keys.filter((k) => k !== sysAt);
  if (others.length > 0) return { ...base, cause: "settings_changed", members: others, tokens_affected: all };
  // 4. The history: the first message whose cache key differs.
  const d = sharedMessages(prev.prefix, cur.prefix);
  const a = prev.prefix.message_hashes, b = cur.prefix.message_hashes;
  // Sluice breaks the cache first when its own change lies before the client's first change (d ≤ the previous length):
  // a step's edit, or a removal it undid. A restore removes nothing: all it replaced is written again.
  const step = sluice !== null && sluice.message_index < d ? sluice : null;
  const back = restore !== null && restore.message_index < d && (step === null || restore.message_index < step.message_index) ? restore : null;
  const own = back ?? step;
  // A system message the previous request showed and this one no longer does (clear_at): the rendered prompt changes there.
  const cleared = newlyCleared(pc, cc, Math.min(d, a.length));
  if (cleared !== null && (own === null || cleared < own.message_index)) return { ...base, cause: "system_message_cleared", message_index: cleared, tokens_affected: sum(prev.message_tokens, cleared) };
  if (own !== null) {
    const replaced = sum(prev.message_tokens, own.message_index);
    const rewritten = Math.max(0, replaced - (back === null ? step!.tokens_removed : 0));
    return { ...base, cause: back === null ? "sluice_step" : "sluice_restore", message_index: own.message_index, tokens_affected: replaced, cost_usd: rewritten * prices.cache_write - replaced * prices.cache_read };
  }
  if (d < a.length) return { ...base, cause: "history_edited", message_index: d, tokens_affected: sum(prev.message_tokens, d) };
  // 5. Anthropic breakpoints: the prefix is intact but no current marker reaches a written one.
  if (pc && cc && pc.markers.length > 0 && !breakpointReached(pc.markers, cc.markers, d, a.length, b.length)) {
    const firstMsg = cc.markers.find((m): m is number => typeof m === "number") ?? null;
    return { ...base, cause: "breakpoint_moved", message_index: firstMsg, tokens_affected: all };
  }
  return null;
}

/** The first message before `shared` that `cur` clears and `prev` did not (both requests hold it unchanged), or null. */
function newlyCleared(prev: CacheFacts | undefined, cur: CacheFacts | undefined, shared: number): number | null {
  const was = new Set(prev?.cleared ?? []);
  const now = (cur?.cleared ?? []).filter((i) => i < shared && !was.has(i));
  return now.length === 0 ? null : Math.min(...now);
}
