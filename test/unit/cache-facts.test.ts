/**
 * The cache facts of real request bytes (src/core/facts/cache-facts.ts) and the gateway's exact
 * system-prompt diff (src/core/cache/system-diff.ts): marker positions, marker-free hashes that
 * equal the next request's plain message hash, tool hashes by name, chunk hashes, the offset and
 * kind of a changed timestamp or id.
 */
import { describe, expect, it } from "vitest";
import { cacheFactsOf, SYSTEM_CHUNK_BYTES } from "../../src/core/facts/cache-facts";
import { prefixFactsOf, sharedPrefix } from "../../src/core/facts/prefix-facts";
import { systemDiffOf, volatileKindOf } from "../../src/core/cache/system-diff";
import { diagnoseBreak } from "../../src/core/cache/diagnose-break";
import { scanJson } from "../../src/providers/shared/json-scan";
import { newCoreCaches } from "../../src/core/caches";

const enc = new TextEncoder();
const parse = (body: unknown) => {
  const bytes = enc.encode(JSON.stringify(body));
  return { bytes, root: scanJson(bytes) };
};
const EPH = { type: "ephemeral" };
const TOOLS = [{ name: "Read", input_schema: { type: "object" } }, { name: "Bash", input_schema: { type: "object" }, cache_control: EPH }];
const SYSTEM = "You are a coding agent. Today's date is 2026-12-03T11:35:17Z. Be brief.";

describe("cacheFactsOf (Anthropic)", () => {
  const first = parse({
    model: "claude-sonnet-4-5", tools: TOOLS, system: [{ type: "text", text: SYSTEM, cache_control: { type: "ephemeral", ttl: "1h" } }],
    messages: [{ role: "user", content: "hi" }, { role: "assistant", content: "ok" }, { role: "user", content: [{ type: "text", text: "go on", cache_control: EPH }] }],
  });
  const facts = cacheFactsOf(first.bytes, first.root, "messages", "anthropic", newCoreCaches());

  it("marker positions in cache order, the 1-hour TTL a marker asks for, one chunk per 256 bytes", () => {
    expect(facts.markers).toEqual(["tools", "system", 2]);
    expect(facts.ttl_ms).toBe(3_600_000);
    const sysBytes = enc.encode(JSON.stringify([{ type: "text", text: SYSTEM, cache_control: { type: "ephemeral", ttl: "1h" } }])).length;
    expect(facts.system).toMatchObject({ at: "system", bytes: sysBytes, diff: null });
    expect(facts.system!.chunks).toHaveLength(Math.ceil(sysBytes / SYSTEM_CHUNK_BYTES));
  });

  it("a marked lone text block hashes as the plain string message the next request sends", () => {
    const next = parse({ model: "claude-sonnet-4-5", tools: TOOLS, messages: [{ role: "user", content: "hi" }, { role: "assistant", content: "ok" }, { role: "user", content: "go on" }, { role: "assistant", content: "done" }] });
    expect(facts.unmarked).toEqual([[2, prefixFactsOf(next.bytes, next.root, "messages", newCoreCaches().messageHashes).message_hashes[2]]]);
  });

  it("with more blocks, the marker is cut out: the hash is the unmarked blocks' message hash", () => {
    const marked = parse({ messages: [{ role: "user", content: [{ type: "text", text: "go on", cache_control: EPH }, { type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: "r", cache_control: EPH }] }] }] });
    const plain = parse({ messages: [{ role: "user", content: [{ type: "text", text: "go on" }, { type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: "r" }] }] }] });
    expect(cacheFactsOf(marked.bytes, marked.root, "messages", "anthropic", newCoreCaches()).unmarked).toEqual([[0, prefixFactsOf(plain.bytes, plain.root, "messages", newCoreCaches().messageHashes).message_hashes[0]]]);
  });

  it("tools by name: the marker is left out of the definition hash; reordering permutes the pairs", () => {
    const moved = parse({ tools: [{ ...TOOLS[1], cache_control: undefined }, { ...TOOLS[0], cache_control: EPH }], messages: [] });
    const m = cacheFactsOf(moved.bytes, moved.root, "messages", "anthropic", newCoreCaches());
    expect(m.tools).toEqual([facts.tools[1], facts.tools[0]]);
    const changed = parse({ tools: [TOOLS[0], { ...TOOLS[1], description: "runs a command" }], messages: [] });
    const c = cacheFactsOf(changed.bytes, changed.root, "messages", "anthropic", newCoreCaches()).tools;
    expect([c[0], c[1]![0], c[1]![1] === facts.tools[1]![1]]).toEqual([facts.tools[0], facts.tools[1]![0], false]);
  });

  it("OpenAI: no markers; Chat's first system message is the system prompt; 24 h retention", () => {
    const chat = parse({ model: "gpt-4o", prompt_cache_retention: "24h", messages: [{ role: "system", content: SYSTEM }, { role: "user", content: "hi" }] });
    const f = cacheFactsOf(chat.bytes, chat.root, "messages", "openai-chat", newCoreCaches());
    expect([f.markers, f.unmarked, f.ttl_ms, f.system?.at, f.tools]).toEqual([[], [], 86_400_000, "history", []]);
  });
});

describe("cacheFactsOf: TTL per breakpoint, OpenAI's cache options, cleared system messages", () => {
  it("Anthropic: each marker's TTL in cache order (a member's last marker), the automatic marker's own", () => {
    const b = parse({
      model: "claude-opus-5-5", tools: [{ ...TOOLS[0], cache_control: { type: "ephemeral", ttl: "1h" } }], system: [{ type: "text", text: SYSTEM, cache_control: { type: "ephemeral", ttl: "1h" } }],
      cache_control: EPH,
      messages: [{ role: "user", content: [{ type: "text", text: "a", cache_control: { type: "ephemeral", ttl: "1h" } }] }, { role: "assistant", content: "b" }, { role: "user", content: [{ type: "text", text: "c", cache_control: { type: "ephemeral", ttl: "5m" } }] }],
    });
    const f = cacheFactsOf(b.bytes, b.root, "messages", "anthropic", newCoreCaches());
    expect([f.markers, f.marker_ttls, f.ttl_ms, f.cleared, f.openai]).toEqual([["tools", "system", 0, 2, "auto"], [3_600_000, 3_600_000, 3_600_000, 300_000, 300_000], 3_600_000, [], undefined]);
  });

  it("Anthropic: a clear_at system message is cleared once a later user message follows it", () => {
    const sys = { role: "system", clear_at: "next_user_message", content: "One line only." };
    const open = parse({ messages: [{ role: "user", content: "a" }, sys, { role: "assistant", content: "b" }] });
    const later = parse({ messages: [{ role: "user", content: "a" }, sys, { role: "assistant", content: "b" }, { role: "user", content: "c" }, { role: "system", content: [{ type: "tool_addition", tool: { type: "tool_reference", name: "Read" } }] }] });
    expect(cacheFactsOf(open.bytes, open.root, "messages", "anthropic", newCoreCaches()).cleared).toEqual([]);
    expect(cacheFactsOf(later.bytes, later.root, "messages", "anthropic", newCoreCaches()).cleared).toEqual([1]);
  });

  it("OpenAI: prompt_cache_options mode and ttl, the items holding a prompt_cache_breakpoint, retention", () => {
    const r = parse({
      model: "gpt-5.6-sol", prompt_cache_options: { mode: "explicit", ttl: "30m" }, prompt_cache_retention: "in_memory",
      input: [{ role: "user", content: [{ type: "input_text", text: "a", prompt_cache_breakpoint: { mode: "explicit" } }] }, { role: "user", content: "b" }, { role: "user", content: [{ type: "input_text", text: "c", prompt_cache_breakpoint: { mode: "explicit" } }] }],
    });
    const f = cacheFactsOf(r.bytes, r.root, "input", "openai-responses", newCoreCaches());
    expect([f.openai, f.ttl_ms, f.marker_ttls]).toEqual([{ mode: "explicit", ttl_ms: 1_800_000, breakpoints: [0, 2], retention: "in_memory" }, null, undefined]);
    const plain = parse({ model: "gpt-5.1", input: "hi" });
    expect(cacheFactsOf(plain.bytes, plain.root, "input", "openai-responses", newCoreCaches()).openai).toEqual({ mode: "implicit", ttl_ms: null, breakpoints: [], retention: null });
  });
});

describe("diagnoseBreak on real bytes: mid-conversation tool changes", () => {
  const snapOf = (body: unknown, at_ms: number) => {
    const p = parse(body);
    const prefix = { ...prefixFactsOf(p.bytes, p.root, "messages", newCoreCaches().messageHashes), cache: cacheFactsOf(p.bytes, p.root, "messages", "anthropic", newCoreCaches()) };
    return { at_ms, prefix, message_tokens: prefix.message_hashes.map(() => 10), est_tokens: 100 };
  };
  const turns = [{ role: "user", content: "hi" }, { role: "assistant", content: "ok" }, { role: "user", content: "read the file" }];
  const prev = snapOf({ model: "claude-opus-5-5", tools: TOOLS, cache_control: EPH, messages: turns }, 0);

  it("a tool added by a tool_addition block breaks nothing; the same tool added to `tools` is tools_changed", () => {
    const addition = { role: "system", content: [{ type: "tool_addition", tool: { type: "tool_reference", name: "Grep" } }] };
    const viaMessage = snapOf({ model: "claude-opus-5-5", tools: TOOLS, cache_control: EPH, messages: [...turns, { role: "assistant", content: "reading" }, { role: "user", content: "go on" }, addition] }, 60_000);
    expect(diagnoseBreak(prev, viaMessage, 300_000, null, { cache_write: 0, cache_read: 0 })).toBeNull();
    const viaTools = snapOf({ model: "claude-opus-5-5", tools: [...TOOLS, { name: "Grep", input_schema: { type: "object" } }], cache_control: EPH, messages: [...turns, { role: "assistant", content: "reading" }, { role: "user", content: "go on" }] }, 60_000);
    expect(diagnoseBreak(prev, viaTools, 300_000, null, { cache_write: 0, cache_read: 0 })).toMatchObject({ cause: "tools_changed", tools: { added: 1, removed: 0, changed: 0, reordered: 0 } });
  });
});

describe("sharedPrefix with cache facts", () => {
  it("a breakpoint moving to the newest message keeps the whole previous history shared (the raw hashes stop one short)", () => {
    const turn = (n: number) => {
      const messages: unknown[] = Array.from({ length: n }, (_, i) => ({ role: i % 2 === 0 ? "user" : "assistant", content: `m${i}` }));
      messages[n - 1] = { role: "user", content: [{ type: "text", text: `m${n - 1}`, cache_control: EPH }] };
      const p = parse({ model: "claude-sonnet-4-5", tools: TOOLS, messages });
      return { ...prefixFactsOf(p.bytes, p.root, "messages", newCoreCaches().messageHashes), cache: cacheFactsOf(p.bytes, p.root, "messages", "anthropic", newCoreCaches()) };
    };
    const prev = turn(3), cur = turn(5);
    expect(sharedPrefix(prev, cur)).toEqual({ members_equal: true, shared_messages: 3 });
    expect(sharedPrefix({ ...prev, cache: undefined }, { ...cur, cache: undefined })).toEqual({ members_equal: true, shared_messages: 2 });
  });
});

describe("systemDiffOf", () => {
  const body = (system: string) => parse({ model: "claude-sonnet-4-5", system, messages: [{ role: "user", content: "hi" }] });

  it("a changed timestamp: its exact offset in the system value's JSON, kind timestamp, against the previous member hash", () => {
    const a = body(SYSTEM), b = body(SYSTEM.replace("11:35:17", "11:41:02"));
    const diff = systemDiffOf(a, b, "messages");
    // The value's JSON starts with its quote: offset = 1 + the index of the first changed character.
    expect(diff).toEqual({ against: prefixFactsOf(a.bytes, a.root, "messages", newCoreCaches().messageHashes).members.find((m) => m.key === "system")!.hash, offset: 1 + SYSTEM.indexOf("35:17"), volatile: "timestamp" });
    // Starting from the shared byte prefix the scan cache measured gives the same answer.
    let common = 0;
    while (a.bytes[common] === b.bytes[common]) common++;
    expect(systemDiffOf(a, b, "messages", common)).toEqual(diff);
  });

  it("a uuid is an id; prose is neither; identical prompts have no diff", () => {
    const u1 = "session 3f2a9c1e-8b7d-4e6f-a1b2-c3d4e5f60718 open", u2 = "session 3f2a9c1e-8b7d-4e6f-a1b2-c3d4e5f60719 open";
    expect(systemDiffOf(body(u1), body(u2), "messages")).toMatchObject({ offset: 1 + u1.length - 6, volatile: "id" });
    expect(systemDiffOf(body("Be brief."), body("Be thorough."), "messages")).toMatchObject({ offset: 4, volatile: null });
    expect(systemDiffOf(body(SYSTEM), body(SYSTEM), "messages")).toBeNull();
  });

  it("volatileKindOf: dates, times, epochs; uuids, long hex, mixed ids; not words or short numbers", () => {
    expect(["2026-12-03", "11:35", "1764761717", "1764761717000", "12/03/2026"].map(volatileKindOf)).toEqual(["timestamp", "timestamp", "timestamp", "timestamp", "timestamp"]);
    expect(["3f2a9c1e-8b7d-4e6f-a1b2-c3d4e5f60718", "a1b2c3d4e5f60718a9", "req_01ABcd23EFgh"].map(volatileKindOf)).toEqual(["id", "id", "id"]);
    expect(["brief", "thorough", "42", "version-two"].map(volatileKindOf)).toEqual([null, null, null, null]);
  });
});
