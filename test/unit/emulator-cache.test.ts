import { describe, expect, it } from "vitest";
import { segmentAnthropicPrompt } from "../../tools/emulator/anthropic/segment-prompt";
import { applyOpenAiCache } from "../../tools/emulator/shared/apply-openai-cache";
import { applyBreakpointCache, type CacheStore } from "../../tools/emulator/shared/breakpoint-cache";
import { countTokens } from "../../tools/emulator/shared/count-tokens";
import { prefixCacheTtl, selectBreakpoints } from "../../tools/emulator/shared/openai-cache-policy";
import { applyPrefixCache } from "../../tools/emulator/shared/prefix128-cache";
import { openaiPrice } from "../../tools/emulator/shared/prices";
import { chainBlocks, type PromptBlock } from "../../tools/emulator/shared/prompt-block";

const MIN = 60_000;
const HOUR = 3_600_000;

/** `n` blocks of `tokens` each, named b0..; `bps` maps block index → breakpoint TTL; `edit` renames one block. */
function blocks(n: number, tokens: number, bps: Record<number, number> = {}, edit?: number): PromptBlock[] {
  return chainBlocks(
    "m",
    Array.from({ length: n }, (_, i) => ({ canon: i === edit ? `edited${i}` : `b${i}`, tokens, breakpointTtlMs: bps[i] ?? null })),
  );
}
const anthropic = (b: PromptBlock[], store: CacheStore, now: number) => applyBreakpointCache(b, store, now, { lookbackBlocks: 20, minTokens: 1024 });

describe("Anthropic breakpoint cache", () => {
  it("writes at the breakpoint, then reads the same prefix and writes only the new tail", () => {
    const store: CacheStore = new Map();
    expect(anthropic(blocks(10, 200, { 9: 5 * MIN }), store, 0)).toEqual({ total: 2000, read: 0, write5m: 2000, write1h: 0, uncached: 0 });
    expect(anthropic(blocks(13, 200, { 11: 5 * MIN }), store, MIN)).toEqual({ total: 2600, read: 2000, write5m: 400, write1h: 0, uncached: 200 });
  });

  it("expires entries 5 minutes after their last use (virtual clock), a hit refreshing the TTL", () => {
    const store: CacheStore = new Map();
    anthropic(blocks(10, 200, { 9: 5 * MIN }), store, 0);
    expect(anthropic(blocks(10, 200, { 9: 5 * MIN }), store, 4 * MIN).read).toBe(2000); // refreshed to 9 min
    expect(anthropic(blocks(10, 200, { 9: 5 * MIN }), store, 9 * MIN - 1).read).toBe(2000);
    const expired = anthropic(blocks(10, 200, { 9: 5 * MIN }), store, 14 * MIN);
    expect(expired).toEqual({ total: 2000, read: 0, write5m: 2000, write1h: 0, uncached: 0 });
  });

  it("a 1-hour breakpoint outlives the 5-minute one and is billed in its own bucket", () => {
    const store: CacheStore = new Map();
    expect(anthropic(blocks(10, 200, { 5: HOUR, 9: 5 * MIN }), store, 0)).toEqual({ total: 2000, read: 0, write5m: 800, write1h: 1200, uncached: 0 });
    expect(anthropic(blocks(10, 200, { 5: HOUR, 9: 5 * MIN }), store, 30 * MIN)).toEqual({ total: 2000, read: 1200, write5m: 800, write1h: 0, uncached: 0 });
  });

  it("a changed block misses every entry after it", () => {
    const store: CacheStore = new Map();
    anthropic(blocks(10, 200, { 5: 5 * MIN, 9: 5 * MIN }), store, 0);
    expect(anthropic(blocks(10, 200, { 5: 5 * MIN, 9: 5 * MIN }, 7), store, MIN)).toEqual({ total: 2000, read: 1200, write5m: 800, write1h: 0, uncached: 0 });
    expect(anthropic(blocks(10, 200, { 5: 5 * MIN, 9: 5 * MIN }, 0), store, MIN)).toEqual({ total: 2000, read: 0, write5m: 2000, write1h: 0, uncached: 0 });
  });

  it("looks back at most 20 blocks from a breakpoint", () => {
    const seed = () => {
      const s: CacheStore = new Map();
      anthropic(blocks(6, 200, { 5: 5 * MIN }), s, 0);
      return s;
    };
    expect(anthropic(blocks(30, 200, { 24: 5 * MIN }), seed(), MIN)).toMatchObject({ read: 1200, write5m: 3800 }); // 24−5 = 19 back
    expect(anthropic(blocks(30, 200, { 25: 5 * MIN }), seed(), MIN)).toMatchObject({ read: 0, write5m: 5200 }); // 20 back: out of reach
  });

  it("does not write a prefix shorter than the model's minimum", () => {
    const store: CacheStore = new Map();
    expect(anthropic(blocks(5, 200, { 4: 5 * MIN }), store, 0)).toEqual({ total: 1000, read: 0, write5m: 0, write1h: 0, uncached: 1000 });
    expect(store.size).toBe(0);
  });
});

describe("token counting", () => {
  it("uses the o200k BPE", () => {
    expect([countTokens("hello world"), countTokens("t{}"), countTokens('<tool>{"input_schema":{"type":"object"},"name":"t"}'), countTokens("")]).toEqual([2, 2, 15, 0]);
  });
});

describe("Anthropic prompt segmentation", () => {
  const request = (markers: boolean) => ({
    model: "claude-sonnet-4-5",
    max_tokens: 10,
    ...(markers ? { cache_control: { type: "ephemeral" } } : {}),
    tools: [{ name: "t", input_schema: { type: "object" }, ...(markers ? { cache_control: { type: "ephemeral", ttl: "1h" } } : {}) }],
    system: "sys",
    messages: [
      { role: "user", content: "hello" },
      { role: "assistant", content: [{ type: "tool_use", id: "u1", name: "t", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "u1", content: [{ type: "text", text: "out", ...(markers ? { cache_control: { type: "ephemeral" } } : {}) }] }] },
      { role: "user", content: "next" },
    ],
  });

  it("orders tools → system → messages and places explicit, nested and automatic breakpoints", () => {
    const b = segmentAnthropicPrompt(request(true));
    expect(b.map((x) => x.breakpointTtlMs)).toEqual([HOUR, null, null, null, 5 * MIN, 5 * MIN]);
    // 3 per block + 4 per message + o200k tokens: the tool's canonical JSON is 15, "t{}" 2, each word 1.
    expect(b.map((x) => x.tokens)).toEqual([18, 8, 8, 9, 8, 8]);
  });

  it("cache markers and key order do not change the prefix identity", () => {
    const plain = segmentAnthropicPrompt(request(false));
    expect(segmentAnthropicPrompt(request(true)).map((x) => x.prefixHash)).toEqual(plain.map((x) => x.prefixHash));
    const reordered = JSON.parse(JSON.stringify(request(false), (_k, v) => (v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v)));
    expect(segmentAnthropicPrompt(reordered).map((x) => x.prefixHash)).toEqual(plain.map((x) => x.prefixHash));
  });
});

describe("OpenAI automatic prefix cache (before GPT-5.6)", () => {
  it("caches from 1024 tokens and reports hits in 128-token steps", () => {
    const store: CacheStore = new Map();
    expect(applyPrefixCache(blocks(12, 100), store, 0, 5 * MIN)).toEqual({ total: 1200, cached: 0 });
    expect(applyPrefixCache(blocks(12, 100), store, MIN, 5 * MIN)).toEqual({ total: 1200, cached: 1152 });
    expect(applyPrefixCache(blocks(13, 100, {}, 11), store, MIN, 5 * MIN)).toEqual({ total: 1300, cached: 1024 }); // common 1100
    expect(applyPrefixCache(blocks(12, 100, {}, 10), store, MIN, 5 * MIN)).toEqual({ total: 1200, cached: 0 }); // common 1000 < 1024
  });

  it("does not cache prompts under 1024 tokens and expires after the in-memory TTL", () => {
    const small: CacheStore = new Map();
    applyPrefixCache(blocks(10, 100), small, 0, 5 * MIN);
    expect(small.size).toBe(0);
    const store: CacheStore = new Map();
    applyPrefixCache(blocks(12, 100), store, 0, 5 * MIN);
    expect(applyPrefixCache(blocks(12, 100), store, 5 * MIN, 5 * MIN).cached).toBe(0);
    expect(prefixCacheTtl({ prompt_cache_retention: "24h" })).toBe(24 * HOUR);
    expect(prefixCacheTtl({})).toBe(5 * MIN);
  });

  it("models before gpt-4o do not cache", () => {
    const store: CacheStore = new Map();
    applyOpenAiCache(blocks(12, 100), openaiPrice("gpt-4-1106-preview"), {}, store, 0);
    expect(applyOpenAiCache(blocks(12, 100), openaiPrice("gpt-4-1106-preview"), {}, store, 1)).toEqual({ total: 1200, cached: 0, written: 0 });
  });
});

describe("OpenAI GPT-5.6 breakpoints", () => {
  const cand = (userOrTool: boolean, explicit = false) => ({ userOrTool, explicit: explicit ? { ttl: undefined } : null });

  it("one implicit breakpoint on the latest user or tool message; explicit mode keeps only marked blocks", () => {
    const c = [cand(false), cand(true), cand(false, true), cand(true), cand(false)];
    expect(selectBreakpoints({}, c)).toEqual([null, null, 30 * MIN, 30 * MIN, null]);
    expect(selectBreakpoints({ prompt_cache_options: { mode: "explicit" } }, c)).toEqual([null, null, 30 * MIN, null, null]);
  });

  it("reads exactly at a breakpoint (no 128 rounding) and bills writes", () => {
    const store: CacheStore = new Map();
    const sol = openaiPrice("gpt-5.6-sol");
    expect(applyOpenAiCache(blocks(11, 100, { 10: 30 * MIN }), sol, {}, store, 0)).toEqual({ total: 1100, cached: 0, written: 1100 });
    expect(applyOpenAiCache(blocks(13, 100, { 12: 30 * MIN }), sol, {}, store, MIN)).toEqual({ total: 1300, cached: 1100, written: 200 });
  });
});
