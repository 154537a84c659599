/**
 * The cache-breaker classifier (src/core/cache/diagnose-break.ts) on hand-built prefix facts:
 * every cause, with its whole output.
 */
import { describe, expect, it } from "vitest";
import { diagnoseBreak, toolChanges, type PrefixSnapshot } from "../../src/core/cache/diagnose-break";
import type { CacheFacts } from "../../src/core/facts/cache-facts";

const TTL = 300_000;
const PRICES = { cache_write: 3.75e-6, cache_read: 0.3e-6 };

/** A request at `at_ms`: system and tools members, messages "m0".."m{n-1}" of 100 tokens each. */
function snap(at_ms: number, n: number, over: { system?: string; tools?: string; cache?: Partial<CacheFacts>; hashes?: string[]; members?: { key: string; hash: string; bytes: number }[] } = {}): PrefixSnapshot {
  const hashes = over.hashes ?? Array.from({ length: n }, (_, i) => `m${i}`);
  const cache: CacheFacts = { tools: [["ta", "da"], ["tb", "db"]], system: { at: "system", bytes: 600, chunks: ["c0", "c1", "c2"], diff: null }, markers: [], unmarked: [], ttl_ms: null, ...over.cache };
  return {
    at_ms,
    prefix: {
      members: over.members ?? [{ key: "model", hash: "x", bytes: 1 }, { key: "system", hash: over.system ?? "s1", bytes: 600 }, { key: "tools", hash: over.tools ?? "t1", bytes: 400 }],
      message_hashes: hashes,
      cache,
    },
    message_tokens: hashes.map(() => 100),
    est_tokens: 500 + 100 * hashes.length,
  };
}

const NONE = { byte_offset: null, offset_exact: false, message_index: null, tools: null, members: [] };

describe("diagnoseBreak", () => {
  it("the next call of an unchanged session (the history grows): no break", () => {
    expect(diagnoseBreak(snap(0, 4), snap(60_000, 6), TTL, null, PRICES)).toBeNull();
  });

  it("ttl_expired: the gap exceeds the TTL (the whole previous request is affected)", () => {
    expect(diagnoseBreak(snap(0, 4), snap(300_001, 6), TTL, null, PRICES)).toEqual({ ...NONE, cause: "ttl_expired", gap_ms: 300_001, tokens_affected: 900, cost_usd: null });
    expect(diagnoseBreak(snap(0, 4), snap(300_000, 6), TTL, null, PRICES)).toBeNull();
  });

  it("ttl_expired for what follows the last live breakpoint: a 1-hour marker on message 1, 5-minute ones after", () => {
    const HOUR = 3_600_000;
    const marks = { markers: [1, 3] as number[], marker_ttls: [HOUR, TTL], ttl_ms: HOUR };
    // 10 minutes later: the entry at message 1 lives, the one at 3 lapsed — messages 2 and 3 (200 tokens) are written again.
    expect(diagnoseBreak(snap(0, 4, { cache: marks }), snap(600_000, 6, { cache: { ...marks, markers: [1, 5] } }), HOUR, null, PRICES))
      .toEqual({ ...NONE, cause: "ttl_expired", message_index: 2, gap_ms: 600_000, tokens_affected: 200, cost_usd: null });
    // A client edit before the live breakpoint breaks the cache first.
    const edited = snap(600_000, 6, { hashes: ["m0", "x1", "m2", "m3", "m4", "m5"], cache: { ...marks, markers: [1, 5] } });
    expect(diagnoseBreak(snap(0, 4, { cache: marks }), edited, HOUR, null, PRICES)).toMatchObject({ cause: "history_edited", message_index: 1, tokens_affected: 300 });
    // Within 5 minutes nothing lapsed; after an hour everything did.
    expect(diagnoseBreak(snap(0, 4, { cache: marks }), snap(60_000, 6, { cache: marks }), HOUR, null, PRICES)).toBeNull();
    expect(diagnoseBreak(snap(0, 4, { cache: marks }), snap(HOUR + 1, 6, { cache: marks }), HOUR, null, PRICES)).toMatchObject({ cause: "ttl_expired", message_index: null, tokens_affected: 900 });
  });

  it("system_message_cleared: a clear_at system message the next request no longer shows breaks the cache at it, not before", () => {
    // Message 2 is a clear_at system message; the previous request showed it, this one (a user message later) does not.
    const prev = snap(0, 4), cur = snap(60_000, 6, { cache: { cleared: [2] } });
    expect(diagnoseBreak(prev, cur, TTL, null, PRICES)).toEqual({ ...NONE, cause: "system_message_cleared", message_index: 2, gap_ms: 60_000, tokens_affected: 200, cost_usd: null });
    // Already cleared in the previous request: nothing changes.
    expect(diagnoseBreak(snap(0, 4, { cache: { cleared: [2] } }), cur, TTL, null, PRICES)).toBeNull();
    // Sluice's step editing message 1 comes first.
    expect(diagnoseBreak(prev, cur, TTL, { message_index: 1, tokens_removed: 50 }, PRICES)).toMatchObject({ cause: "sluice_step", message_index: 1 });
  });

  it("tools_changed: one added, one changed, two kept tools swapped", () => {
    const prev = snap(0, 4, { cache: { tools: [["ta", "da"], ["tb", "db"], ["tc", "dc"]] } });
    const cur = snap(1_000, 6, { tools: "t2", cache: { tools: [["tc", "dc"], ["ta", "da2"], ["tb", "db"], ["td", "dd"]] } });
    expect(diagnoseBreak(prev, cur, TTL, null, PRICES)).toEqual({ ...NONE, cause: "tools_changed", tools: { added: 1, removed: 0, changed: 1, reordered: 3 }, gap_ms: 1_000, tokens_affected: 900, cost_usd: null });
  });

  it("tools member bytes changed but no definition did (a marker moved): not a tools change", () => {
    const cur = snap(1_000, 6, { tools: "t2", cache: { markers: [] } });
    expect(diagnoseBreak(snap(0, 4), cur, TTL, null, PRICES)).toEqual({ ...NONE, cause: "settings_changed", members: ["tools"], gap_ms: 1_000, tokens_affected: 900, cost_usd: null });
  });

  it("system_changed: placed by the first differing chunk when no exact diff holds", () => {
    const cur = snap(1_000, 6, { system: "s2", cache: { system: { at: "system", bytes: 600, chunks: ["c0", "c1x", "c2"], diff: null } } });
    expect(diagnoseBreak(snap(0, 4), cur, TTL, null, PRICES)).toEqual({ ...NONE, cause: "system_changed", byte_offset: 256, offset_exact: false, gap_ms: 1_000, tokens_affected: 900, cost_usd: null });
  });

  it("timestamp_in_prefix / id_in_prefix: the exact diff against the previous system hash names the kind and the offset", () => {
    for (const [volatile, cause] of [["timestamp", "timestamp_in_prefix"], ["id", "id_in_prefix"], [null, "system_changed"]] as const) {
      const cur = snap(1_000, 6, { system: "s2", cache: { system: { at: "system", bytes: 600, chunks: ["c0", "c1x", "c2"], diff: { against: "s1", offset: 301, volatile } } } });
      expect(diagnoseBreak(snap(0, 4), cur, TTL, null, PRICES)).toEqual({ ...NONE, cause, byte_offset: 301, offset_exact: true, gap_ms: 1_000, tokens_affected: 900, cost_usd: null });
    }
  });

  it("an exact diff computed against another previous body is not used (chunk offset instead)", () => {
    const cur = snap(1_000, 6, { system: "s2", cache: { system: { at: "system", bytes: 600, chunks: ["c0x", "c1", "c2"], diff: { against: "other", offset: 301, volatile: "timestamp" } } } });
    expect(diagnoseBreak(snap(0, 4), cur, TTL, null, PRICES)).toMatchObject({ cause: "system_changed", byte_offset: 0, offset_exact: false });
  });

  it("a Chat system message (the first history element) that changed is a system change", () => {
    const chat = (at: number, h0: string, chunks: string[]) => snap(at, 4, { members: [{ key: "model", hash: "x", bytes: 1 }], hashes: [h0, "m1", "m2", "m3"], cache: { tools: [], system: { at: "history", bytes: 700, chunks, diff: null } } });
    expect(diagnoseBreak(chat(0, "h0", ["a", "b", "c"]), chat(1_000, "h0'", ["a", "b", "c'"]), TTL, null, PRICES)).toEqual({ ...NONE, cause: "system_changed", byte_offset: 512, offset_exact: false, gap_ms: 1_000, tokens_affected: 900, cost_usd: null });
  });

  it("settings_changed: another prefix member differs; knobs (model, max_tokens) do not count", () => {
    const cur = snap(1_000, 6, { members: [{ key: "model", hash: "y", bytes: 1 }, { key: "system", hash: "s1", bytes: 600 }, { key: "tools", hash: "t1", bytes: 400 }, { key: "tool_choice", hash: "q", bytes: 10 }] });
    expect(diagnoseBreak(snap(0, 4), cur, TTL, null, PRICES)).toEqual({ ...NONE, cause: "settings_changed", members: ["tool_choice"], gap_ms: 1_000, tokens_affected: 900, cost_usd: null });
  });

  it("history_edited: the client changed message 2 of 4 (tokens of messages 2 and 3 affected)", () => {
    const cur = snap(1_000, 6, { hashes: ["m0", "m1", "m2'", "m3", "m4", "m5"] });
    expect(diagnoseBreak(snap(0, 4), cur, TTL, null, PRICES)).toEqual({ ...NONE, cause: "history_edited", message_index: 2, gap_ms: 1_000, tokens_affected: 200, cost_usd: null });
    // Dropping the last messages is an edit too.
    expect(diagnoseBreak(snap(0, 4), snap(1_000, 3), TTL, null, PRICES)).toMatchObject({ cause: "history_edited", message_index: 3, tokens_affected: 100 });
  });

  it("a marker moving off a message is no edit: its marker-free hash is the cache key", () => {
    const prev = snap(0, 4, { hashes: ["m0", "m1", "m2", "m3*"], cache: { markers: [3], unmarked: [[3, "m3"]] } });
    const cur = snap(1_000, 6, { hashes: ["m0", "m1", "m2", "m3", "m4", "m5*"], cache: { markers: [5], unmarked: [[5, "m5"]] } });
    expect(diagnoseBreak(prev, cur, TTL, null, PRICES)).toBeNull();
  });

  it("sluice_step: its edit at message 1 comes before any client change; cost = rewritten × write − replaced × read", () => {
    // Replaced: messages 1..3 of the previous request (300 tokens); the step removes 120 → 180 rewritten.
    const out = diagnoseBreak(snap(0, 4), snap(1_000, 6), TTL, { message_index: 1, tokens_removed: 120 }, PRICES);
    expect(out).toEqual({ ...NONE, cause: "sluice_step", message_index: 1, gap_ms: 1_000, tokens_affected: 300, cost_usd: 180 * 3.75e-6 - 300 * 0.3e-6 });
    // An edit only in messages the previous request did not have breaks nothing.
    expect(diagnoseBreak(snap(0, 4), snap(1_000, 6), TTL, { message_index: 4, tokens_removed: 50 }, PRICES)).toBeNull();
    // The client's own earlier edit wins.
    expect(diagnoseBreak(snap(0, 4), snap(1_000, 6, { hashes: ["m0'", "m1", "m2", "m3", "m4", "m5"] }), TTL, { message_index: 1, tokens_removed: 50 }, PRICES)).toMatchObject({ cause: "history_edited", message_index: 0 });
  });

  it("sluice_restore: a removal undone at message 2, before any client change; nothing removed, so all it replaced is rewritten", () => {
    // Replaced: messages 2..3 of the previous request (200 tokens), all written again.
    const out = diagnoseBreak(snap(0, 4), snap(1_000, 6), TTL, null, PRICES, { message_index: 2, pairs: 1 });
    expect(out).toEqual({ ...NONE, cause: "sluice_restore", message_index: 2, gap_ms: 1_000, tokens_affected: 200, cost_usd: 200 * 3.75e-6 - 200 * 0.3e-6 });
    // Before a later step's edit it comes first; after it (or on the same message) the step does.
    expect(diagnoseBreak(snap(0, 4), snap(1_000, 6), TTL, { message_index: 3, tokens_removed: 50 }, PRICES, { message_index: 2, pairs: 2 })).toMatchObject({ cause: "sluice_restore", message_index: 2, tokens_affected: 200 });
    expect(diagnoseBreak(snap(0, 4), snap(1_000, 6), TTL, { message_index: 1, tokens_removed: 50 }, PRICES, { message_index: 2, pairs: 1 })).toMatchObject({ cause: "sluice_step", message_index: 1, tokens_affected: 300 });
    expect(diagnoseBreak(snap(0, 4), snap(1_000, 6), TTL, { message_index: 2, tokens_removed: 50 }, PRICES, { message_index: 2, pairs: 1 })).toMatchObject({ cause: "sluice_step", message_index: 2 });
    // A restore at or after the client's first change is the client's edit; one in messages the previous request did not have breaks nothing.
    expect(diagnoseBreak(snap(0, 4), snap(1_000, 6, { hashes: ["m0", "m1'", "m2", "m3", "m4", "m5"] }), TTL, null, PRICES, { message_index: 2, pairs: 1 })).toMatchObject({ cause: "history_edited", message_index: 1 });
    expect(diagnoseBreak(snap(0, 4), snap(1_000, 6), TTL, null, PRICES, { message_index: 4, pairs: 1 })).toBeNull();
  });

  it("breakpoint_moved: the previous breakpoint is no longer reached from any current one (more than 20 messages on, or none)", () => {
    const prev = snap(0, 4, { hashes: ["m0", "m1", "m2", "m3*"], cache: { markers: [3], unmarked: [[3, "m3"]] } });
    const far = Array.from({ length: 30 }, (_, i) => (i === 29 ? "m29*" : `m${i}`));
    const cur = snap(1_000, 30, { hashes: far, cache: { markers: [29], unmarked: [[29, "m29"]] } });
    expect(diagnoseBreak(prev, cur, TTL, null, PRICES)).toEqual({ ...NONE, cause: "breakpoint_moved", message_index: 29, gap_ms: 1_000, tokens_affected: 900, cost_usd: null });
    const none = snap(1_000, 6, { cache: { markers: [] } });
    expect(diagnoseBreak(prev, none, TTL, null, PRICES)).toMatchObject({ cause: "breakpoint_moved", message_index: null });
    // A system-prompt breakpoint kept in place still reaches the cached system prefix; the automatic marker sits on the last message.
    expect(diagnoseBreak(snap(0, 4, { cache: { markers: ["system"] } }), snap(1_000, 40, { cache: { markers: ["system"] } }), TTL, null, PRICES)).toBeNull();
    expect(diagnoseBreak(snap(0, 4, { cache: { markers: ["auto"] } }), snap(1_000, 6, { cache: { markers: ["auto"] } }), TTL, null, PRICES)).toBeNull();
    // Reaching only the system breakpoint loses the messages the previous request cached: a partial miss.
    const both = snap(1_000, 30, { hashes: far, cache: { markers: ["system", 29], unmarked: [[29, "m29"]] } });
    expect(diagnoseBreak(snap(0, 4, { hashes: ["m0", "m1", "m2", "m3*"], cache: { markers: ["system", 3], unmarked: [[3, "m3"]] } }), both, TTL, null, PRICES)).toMatchObject({ cause: "breakpoint_moved", message_index: 29 });
  });
});

describe("toolChanges", () => {
  it("counts by name: removed, added, changed, reordered", () => {
    expect(toolChanges([["a", "1"], ["b", "2"], ["c", "3"]], [["b", "2"], ["a", "1"], ["d", "4"]])).toEqual({ added: 1, removed: 1, changed: 0, reordered: 2 });
    expect(toolChanges([["a", "1"], ["b", "2"]], [["a", "1"], ["b", "2"]])).toEqual({ added: 0, removed: 0, changed: 0, reordered: 0 });
  });
});
