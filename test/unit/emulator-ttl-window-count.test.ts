import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { segmentAnthropicPrompt } from "../../tools/emulator/anthropic/segment-prompt";
import { handleRequest, type EmulatorResponse } from "../../tools/emulator/handle-request";
import { startEmulator, type EmulatorHandle } from "../../tools/emulator/server";
import { applyBreakpointCache, type CacheStore } from "../../tools/emulator/shared/breakpoint-cache";
import { chainBlocks, totalTokens } from "../../tools/emulator/shared/prompt-block";
import { createState, type EmulatorState } from "../../tools/emulator/state";

// The emulator's caching and billing of request TTLs, its window check, compressed bodies and the
// token-counting routes (docs/emulator.md).
const T0 = 1_800_000_000_000;
const MIN = 60_000;
const ANTHROPIC = { "x-api-key": "k-ttl", "anthropic-version": "2023-06-01" };
const OPENAI = { authorization: "Bearer k-ttl" };

const post = (state: EmulatorState, path: string, body: unknown, headers: Record<string, string>, at = T0): EmulatorResponse =>
  handleRequest(state, { method: "POST", path, headers: { "content-type": "application/json", "x-emulator-time": String(at), ...headers }, body: JSON.stringify(body) }, 0);
const parsed = (r: EmulatorResponse): any => JSON.parse(r.body);

const tools = [{ name: "read", description: "Read a file of the chess engine. ".repeat(40), input_schema: { type: "object" } }];
const system = [{ type: "text", text: "You are a careful assistant for a chess server. ".repeat(120) }];

describe("Anthropic TTLs: 1-hour breakpoints billed at 2×, refused after a 5-minute one (A20)", () => {
  it("a 1-hour system breakpoint then a 5-minute message one: each stretch billed at its own write price, the 1-hour prefix still read after 30 minutes", () => {
    const state = createState();
    const body = (turns: number) => ({
      model: "claude-opus-5-5",
      max_tokens: 64,
      tools,
      system: [{ ...system[0], cache_control: { type: "ephemeral", ttl: "1h" } }],
      messages: Array.from({ length: turns }, (_, i) => ({ role: i % 2 === 0 ? "user" : "assistant", content: `Move ${i}: e4 e5 Nf3 Nc6 Bb5 a6. `.repeat(30) })).map((m, i, all) =>
        i === all.length - 1 ? { ...m, content: [{ type: "text", text: m.content, cache_control: { type: "ephemeral" } }] } : m,
      ),
    });
    const r1 = post(state, "/v1/messages", body(1), ANTHROPIC, T0);
    const u1 = parsed(r1).usage;
    expect(u1.cache_creation).toEqual({ ephemeral_5m_input_tokens: 548, ephemeral_1h_input_tokens: 1549 });
    // Opus 5.5: input $4, 5-minute writes $5, 1-hour writes $8, reads $0.20 per MTok.
    expect(r1.headers["x-emulator-input-cost-usd"]).toBe("0.015132000"); // 548 × $5 + 1549 × $8
    const r2 = post(state, "/v1/messages", body(3), ANTHROPIC, T0 + 30 * MIN);
    const u2 = parsed(r2).usage;
    expect([u2.cache_read_input_tokens, u2.cache_creation.ephemeral_5m_input_tokens, u2.cache_creation.ephemeral_1h_input_tokens, u2.input_tokens]).toEqual([1549, 1644, 0, 0]);
    expect(r2.headers["x-emulator-input-cost-usd"]).toBe("0.008529800"); // 1549 × $0.20 + 1644 × $5 (the 5-minute entry lapsed)
  });

  it("refuses a 1-hour marker after a 5-minute one, naming it, in the API's processing order", () => {
    const state = createState();
    const base = { model: "claude-sonnet-4-5", max_tokens: 8, tools: [{ ...tools[0], cache_control: { type: "ephemeral" } }], system, messages: [{ role: "user", content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral", ttl: "1h" } }] }] };
    const r = post(state, "/v1/messages", base, ANTHROPIC);
    expect([r.status, parsed(r)]).toEqual([
      400,
      { type: "error", error: { type: "invalid_request_error", message: "messages.0.content.0.cache_control.ttl: a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. Note that blocks are processed in the following order: `tools`, `system`, `messages`." } },
    ]);
    expect(post(state, "/v1/messages", { ...base, tools }, ANTHROPIC).status).toBe(200);
  });
});

describe("Anthropic mid-conversation system messages in the cache", () => {
  const turn = (role: string, text: string) => ({ role, content: text });
  const history: any[] = [turn("user", "Open the board. ".repeat(200)), turn("assistant", "Board open."), { role: "system", clear_at: "next_user_message", content: "Answer in one line for this turn only." }];

  it("a cleared system message is not rendered once a later user message exists; the prefix before it still reads", () => {
    const store: CacheStore = new Map();
    const opts = { lookbackBlocks: 20, minTokens: 512 };
    const marked = (messages: any[]): any => ({ model: "claude-opus-5-5", messages, cache_control: { type: "ephemeral" } });
    // The first request writes an entry at the assistant message (an explicit marker) and at its last block, the system message.
    const withMarker: any[] = [history[0], { role: "assistant", content: [{ type: "text", text: "Board open.", cache_control: { type: "ephemeral" } }] }, history[2]];
    const first = segmentAnthropicPrompt(marked(withMarker));
    const later = segmentAnthropicPrompt(marked([...history, turn("assistant", "Done."), turn("user", "Next.")]));
    expect([first.length, later.length]).toEqual([3, 4]); // the system message's block is gone from the later request
    expect(later[1]!.prefixHash).toBe(first[1]!.prefixHash);
    applyBreakpointCache(first, store, 0, opts);
    const beforeIt = first[0]!.tokens + first[1]!.tokens;
    expect(applyBreakpointCache(later, store, MIN, opts)).toEqual({ total: totalTokens(later), read: beforeIt, write5m: totalTokens(later) - beforeIt, write1h: 0, uncached: 0 });
  });

  it("a tool added mid-conversation leaves the prefix before it cached", () => {
    const state = createState();
    const body = (extra: object[]) => ({ model: "claude-opus-5-5", max_tokens: 8, tools, cache_control: { type: "ephemeral" }, messages: [turn("user", "Open the board. ".repeat(200)), ...extra] });
    const u1 = parsed(post(state, "/v1/messages", body([]), ANTHROPIC, T0)).usage;
    const added = [turn("assistant", "Board open."), turn("user", "Now analyse."), { role: "system", content: [{ type: "tool_addition", tool: { type: "tool_reference", name: "read" } }] }];
    const u2 = parsed(post(state, "/v1/messages", body(added), ANTHROPIC, T0 + MIN)).usage;
    expect(u2.cache_read_input_tokens).toBe(u1.cache_creation_input_tokens);
  });
});

describe("OpenAI GPT-5.6 breakpoints", () => {
  it("matches only the latest 80 breakpoints written in the conversation", () => {
    const blocks = (n: number, bp: number) => chainBlocks("gpt-5.6-sol", Array.from({ length: n }, (_, i) => ({ canon: `b${i}`, tokens: 100, breakpointTtlMs: i === bp ? 30 * MIN : null })));
    const opts = { lookbackBlocks: Number.POSITIVE_INFINITY, minTokens: 1024, matchBreakpoints: 80 };
    const store: CacheStore = new Map();
    // 80 entries at b20…b99, written in 80 requests at the start; they expire 30 minutes later.
    for (let k = 0; k < 80; k++) applyBreakpointCache(blocks(21 + k, 20 + k), store, k, opts);
    // The entry to read, at b19 (2,000 tokens), written 10 minutes later: live until minute 40.
    applyBreakpointCache(blocks(20, 19), store, 10 * MIN, opts);
    const read = (s: CacheStore) => applyBreakpointCache(blocks(110, 109), s, 35 * MIN, opts).read;
    expect(read(new Map(store))).toBe(0); // b19 is the 81st latest entry along the prompt
    store.delete(blocks(100, 99)[99]!.prefixHash);
    expect(read(store)).toBe(2000); // one later entry fewer: b19 is among the latest 80
  });

  it("bills writes at 1.25× and reports them as cache_write_tokens (Chat and Responses)", () => {
    const state = createState();
    const text = "Explain the Ruy Lopez in depth. ".repeat(200);
    const chat = post(state, "/v1/chat/completions", { model: "gpt-5.6-terra", messages: [{ role: "user", content: text }] }, OPENAI);
    expect(parsed(chat).usage.prompt_tokens_details).toEqual({ cached_tokens: 0, audio_tokens: 0, cache_write_tokens: 1606 });
    expect(chat.headers["x-emulator-input-cost-usd"]).toBe("0.004015000"); // 1606 × $2.50 (Terra $2 × 1.25)
    const resp = post(createState(), "/v1/responses", { model: "gpt-5.6-terra", input: [{ role: "user", content: text }] }, OPENAI);
    expect(parsed(resp).usage.input_tokens_details).toEqual({ cached_tokens: 0, cache_write_tokens: 1606 });
  });
});

describe("a prompt over the model's window is refused", () => {
  const big = "pawn ".repeat(220_000); // ≈ 220,000 tokens

  it("Anthropic: prompt is too long, unless a beta widens the window", () => {
    const state = createState();
    const body = { model: "claude-sonnet-4-5", max_tokens: 8, messages: [{ role: "user", content: big }] };
    const r = post(state, "/v1/messages", body, ANTHROPIC);
    expect([r.status, parsed(r).error]).toEqual([400, { type: "invalid_request_error", message: "prompt is too long: 220008 tokens > 200000 maximum" }]);
    expect(r.headers["x-emulator-cost-usd"]).toBe("0.000000000");
    expect(post(state, "/v1/messages", body, { ...ANTHROPIC, "anthropic-beta": "context-1m-2025-08-07" }).status).toBe(200);
  });

  it("OpenAI Chat and Responses: context_length_exceeded", () => {
    const state = createState();
    const chat = post(state, "/v1/chat/completions", { model: "gpt-4o", messages: [{ role: "user", content: "pawn ".repeat(130_000) }] }, OPENAI);
    expect([chat.status, parsed(chat).error]).toEqual([400, { message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130006 tokens. Please reduce the length of the messages.", type: "invalid_request_error", param: "messages", code: "context_length_exceeded" }]);
    const resp = post(state, "/v1/responses", { model: "gpt-4o", input: "pawn ".repeat(130_000) }, OPENAI);
    expect([resp.status, parsed(resp).error]).toEqual([400, { message: "Your input exceeds the context window of this model. Please adjust your input and try again.", type: "invalid_request_error", param: "input", code: "context_length_exceeded" }]);
  });
});

describe("token counting routes", () => {
  it("POST /v1/messages/count_tokens: the billed prompt's tokens, nothing cached or billed; with context_management, the count before its edits", () => {
    const state = createState();
    const body = { model: "claude-opus-5-5", tools, system, messages: [{ role: "user", content: "Which opening?" }] };
    const r = post(state, "/v1/messages/count_tokens", body, ANTHROPIC);
    expect([r.status, parsed(r)]).toEqual([200, { input_tokens: 1559 }]);
    expect(parsed(post(state, "/v1/messages", { ...body, max_tokens: 8 }, ANTHROPIC)).usage.input_tokens).toBe(1559);
    const withCm = post(state, "/v1/messages/count_tokens", { ...body, context_management: { edits: [] } }, { ...ANTHROPIC, "anthropic-beta": "context-management-2025-06-27" });
    expect(parsed(withCm)).toEqual({ input_tokens: 1559, context_management: { original_input_tokens: 1559 } });
    const bad = post(state, "/v1/messages/count_tokens", { model: "claude-opus-5-5" }, ANTHROPIC);
    expect([bad.status, parsed(bad).error.message]).toEqual([400, "messages: Field required"]);
    // Four requests, one refused; only the Messages call was billed.
    expect(state.keys.get("anthropic:k-ttl")!.totals).toMatchObject({ requests: 4, rejected: 1, input_tokens: 1559, cache_read_tokens: 0, cache_write_tokens: 0 });
  });

  it("POST /v1/responses/input_tokens", () => {
    const r = post(createState(), "/v1/responses/input_tokens", { model: "gpt-5.1", input: "Which opening should a beginner learn?" }, OPENAI);
    expect([r.status, parsed(r)]).toEqual([200, { object: "response.input_tokens", input_tokens: 12 }]);
  });
});

describe("compressed request bodies (over HTTP)", () => {
  let emu: EmulatorHandle;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0 });
  });
  afterAll(async () => {
    await emu.close();
  });
  const body = JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: "Which opening?" }] });
  const send = (bytes: Uint8Array, encoding: string) =>
    fetch(`${emu.url}/v1/chat/completions`, { method: "POST", headers: { ...OPENAI, "content-type": "application/json", "content-encoding": encoding }, body: bytes });

  it("decodes gzip, deflate and br like an identity body", async () => {
    const plain: any = await (await fetch(`${emu.url}/v1/chat/completions`, { method: "POST", headers: { ...OPENAI, "content-type": "application/json" }, body })).json();
    for (const [coding, bytes] of [["gzip", gzipSync(body)], ["deflate", deflateSync(body)], ["br", brotliCompressSync(body)]] as const) {
      const r = await send(new Uint8Array(bytes), coding);
      expect([coding, r.status, ((await r.json()) as any).usage]).toEqual([coding, 200, plain.usage]);
    }
  });

  it("refuses a coding it does not know and a body that does not decode", async () => {
    const unknown = await send(new TextEncoder().encode(body), "compress");
    expect([unknown.status, ((await unknown.json()) as any).error.message]).toEqual([400, 'The request body\'s Content-Encoding "compress" is not supported.']);
    const corrupt = await send(new TextEncoder().encode(body), "gzip");
    expect([corrupt.status, ((await corrupt.json()) as any).error.message]).toEqual([400, 'The request body\'s Content-Encoding "gzip" does not decode.']);
  });
});
