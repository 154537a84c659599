/**
 * POST /mcp in workerd (src/mcp/, src/session/archive-store.ts): a conversation goes through the
 * real pipeline at level `placeholders` with `archive_removed` on; the marker's restore id then
 * brings back exactly the bytes the pipeline removed, for the caller that created the session
 * and for no one else. Another caller's request, a guessed id and an expired id are each refused
 * with the documented text, which names nothing but the id it was given.
 */
import { createExecutionContext, runDurableObjectAlarm, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { brotliCompressSync, gzipSync, zstdCompressSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app";
import { MCP_MAX_DECODED_BYTES } from "../../src/mcp/decoded-request";
import { REFUSALS } from "../../src/mcp/restore-tools";
import { compactVars, E, LITERAL_BODY, LITERAL_CONFIG, literalTwoCalls, logText, manualClock, send, sessionStub } from "./pipeline-harness";
import { newTestId, sha256Hex, TEST_API_KEY, utf8 } from "./helpers";

const dec = new TextDecoder();
const OTHER_KEY = "sk-ant-api03-someone-else-entirely";
const GATEWAY_KEY = "gw-7d1e8b6035c4aa4f9c2a";
const V = { "mcp-protocol-version": "2025-06-18" };
/** Cuts toolu_A's result (a marker) instead of dropping the pair (docs: time_based age cutoff). */
const CUT = { ...LITERAL_CONFIG, time_based_age_seconds: 3_600, guarantee_level: "placeholders", archive_removed: true };
const A_TEXT = logText("a", 800);

/** Posts one JSON-RPC message to /mcp, its bytes passed through `encode`; returns status, content-type, accept-encoding and the body text. */
async function mcp(message: unknown, headers: Record<string, string>, vars: Record<string, string> = {}, encode: (b: Uint8Array) => Uint8Array = (b) => b) {
  const ctx = createExecutionContext();
  const req = new Request("http://sluice.test/mcp", { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...V, ...headers }, body: encode(utf8(JSON.stringify(message))) });
  const res = await createApp().fetch(req, { ...E, ...vars }, ctx);
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return { status: res.status, type: res.headers.get("content-type"), acceptEncoding: res.headers.get("accept-encoding"), text };
}

/** The SSE body of one JSON-RPC answer, as the SDK's stateless 2025-era leg writes it. */
const sse = (message: unknown): string => `event: message\ndata: ${JSON.stringify(message)}\n\n`;

/** A tools/call answer's body for `result`. */
const answer = (id: number, result: unknown) => sse({ result, jsonrpc: "2.0", id });
const refused = (text: string) => ({ content: [{ type: "text", text }], isError: true });

const call = (id: number, name: string, args: Record<string, string>) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

/** The restore id in a forwarded body's marker (decoded from its JSON escaping). */
function markerId(forwarded: Uint8Array): string {
  const m = /restore_tool_result\(\\"(.*?)\\"\)\]/.exec(dec.decode(forwarded));
  if (!m) throw new Error("no restore marker in the forwarded body");
  return JSON.parse(`"${m[1]}"`) as string;
}

describe("POST /mcp restore_tool_result", () => {
  it("returns exactly the removed bytes named by the marker, to the caller that created the session", async () => {
    const r = await literalTwoCalls(compactVars(CUT));
    const id = markerId(r.forwarded);
    expect(id).toBe(`${r.session}/toolu_A`);
    const res = await mcp(call(3, "restore_tool_result", { id }), { "x-api-key": TEST_API_KEY });
    expect([res.status, res.type]).toEqual([200, "text/event-stream"]);
    expect(res.text).toBe(answer(3, { content: [{ type: "text", text: A_TEXT }] }));
    // The same caller by its other header form (Authorization: Bearer) is the same caller id.
    expect((await mcp(call(4, "restore_tool_result", { id }), { authorization: `Bearer ${TEST_API_KEY}` })).text).toBe(answer(4, { content: [{ type: "text", text: A_TEXT }] }));
  });

  it("a whole-pair removal gives back the result and the call's input", async () => {
    const r = await literalTwoCalls(compactVars({ ...LITERAL_CONFIG, guarantee_level: "placeholders", archive_removed: true }));
    expect(dec.decode(r.forwarded)).not.toContain("toolu_A");
    const res = await mcp(call(5, "restore_tool_result", { id: `${r.session}/toolu_A` }), { "x-api-key": TEST_API_KEY });
    expect(res.text).toBe(answer(5, { content: [{ type: "text", text: A_TEXT }, { type: "text", text: '{"cmd":"make a"}' }] }));
  });

  it("refuses another caller (provider key or gateway key), a guessed id and a malformed id, alike", async () => {
    const r = await literalTwoCalls(compactVars(CUT));
    const id = markerId(r.forwarded);
    const tries: [Record<string, string>, string][] = [
      [{ "x-api-key": OTHER_KEY }, id],
      [{ "x-api-key": TEST_API_KEY, "x-sluice-key": GATEWAY_KEY }, id],
      [{ "x-api-key": TEST_API_KEY }, `${r.session}/toolu_B`],
      [{ "x-api-key": TEST_API_KEY }, `${r.session}-x/toolu_A`],
      [{ "x-api-key": TEST_API_KEY }, "toolu_A"],
    ];
    for (const [headers, tried] of tries) {
      expect((await mcp(call(6, "restore_tool_result", { id: tried }), headers)).text).toBe(answer(6, refused(REFUSALS.notFound(tried))));
    }
    expect(REFUSALS.notFound(id)).toBe(`sluice: no removed tool result under id "${id}" for this caller`);
    // The owner still gets it after those tries.
    expect((await mcp(call(7, "restore_tool_result", { id }), { "x-api-key": TEST_API_KEY })).text).toBe(answer(7, { content: [{ type: "text", text: A_TEXT }] }));
  });

  it("a guessed session id is refused without leaving a database behind (no table in that object)", async () => {
    const guessed = newTestId("mcp-guessed");
    const id = `${guessed}/toolu_A`;
    expect((await mcp(call(8, "restore_tool_result", { id }), { "x-api-key": TEST_API_KEY })).text).toBe(answer(8, refused(REFUSALS.notFound(id))));
    expect((await mcp(call(9, "search_session_memory", { query: "", id }), { "x-api-key": TEST_API_KEY })).text).toBe(answer(9, refused(REFUSALS.noSession(id))));
    const tables = await runInDurableObject(sessionStub(guessed), (_o, state) => state.storage.sql.exec("SELECT name FROM sqlite_master").toArray());
    expect(tables).toEqual([]);
  });

  it("another caller's requests under the same session name neither read nor add to the archive", async () => {
    const session = newTestId("mcp-shared-name");
    const clock = manualClock();
    const vars = compactVars(CUT);
    // The other caller comes first: the session is theirs; the owner-to-be's removals are not archived there.
    for (const key of [OTHER_KEY, TEST_API_KEY]) {
      await send(vars, "/anthropic/v1/messages", { "x-test-id": session, "x-sluice-session": session, "x-api-key": key }, LITERAL_BODY, { now: clock.now });
      clock.advance(400_000);
    }
    const id = `${session}/toolu_A`;
    expect((await mcp(call(8, "restore_tool_result", { id }), { "x-api-key": TEST_API_KEY })).text).toBe(answer(8, refused(REFUSALS.notFound(id))));
  });

  it("refuses an expired id (archive_retention_seconds) and then has deleted it", async () => {
    const session = newTestId("mcp-expired");
    const clock = manualClock();
    // The removal happens 120 s before the restore, past a retention of 60 s.
    clock.advance(-520_000);
    const vars = compactVars({ ...CUT, archive_retention_seconds: 60 });
    const headers = { "x-test-id": session, "x-sluice-session": session };
    await send(vars, "/anthropic/v1/messages", headers, LITERAL_BODY, { now: clock.now });
    clock.advance(400_000);
    await send(vars, "/anthropic/v1/messages", headers, LITERAL_BODY, { now: clock.now });
    const id = `${session}/toolu_A`;
    expect((await mcp(call(9, "restore_tool_result", { id }), { "x-api-key": TEST_API_KEY }, vars)).text).toBe(answer(9, refused(REFUSALS.expired(id))));
    expect(REFUSALS.expired(id)).toBe(`sluice: the removed tool result "${id}" has expired (archive_retention_seconds)`);
    expect((await mcp(call(10, "restore_tool_result", { id }), { "x-api-key": TEST_API_KEY }, vars)).text).toBe(answer(10, refused(REFUSALS.notFound(id))));
  });

  it("is gone with the session at retention", async () => {
    const r = await literalTwoCalls(compactVars(CUT));
    const id = markerId(r.forwarded);
    expect((await mcp(call(18, "restore_tool_result", { id }), { "x-api-key": TEST_API_KEY })).text).toBe(answer(18, { content: [{ type: "text", text: A_TEXT }] }));
    // idle → complete → retention, in scheduled order.
    for (let i = 0; i < 3; i++) expect(await runDurableObjectAlarm(sessionStub(r.session))).toBe(true);
    expect((await mcp(call(19, "restore_tool_result", { id }), { "x-api-key": TEST_API_KEY })).text).toBe(answer(19, refused(REFUSALS.notFound(id))));
  });

  it("refuses a request without any credential", async () => {
    const res = await mcp(call(11, "restore_tool_result", { id: "s/toolu_A" }), {});
    expect(res.text).toBe(answer(11, refused(REFUSALS.noCaller)));
  });
});

describe("POST /mcp behind client authentication and the rate limit", () => {
  const fingerprintOf = async (key: string) => sha256Hex(utf8(key));
  it("required: no key or a wrong key gets the 401 before any tool runs; an allowed gateway key passes", async () => {
    const vars = { SLUICE_CLIENT_AUTH: "required", SLUICE_CLIENT_KEY_SHA256: await fingerprintOf(TEST_API_KEY), SLUICE_GATEWAY_KEYS: GATEWAY_KEY };
    const none = await mcp(call(12, "restore_tool_result", { id: "s/t" }), {}, vars);
    expect(none.status).toBe(401);
    expect(JSON.parse(none.text).error).toEqual({ type: "authentication_error", message: "Sluice refused the caller: send a gateway key in the x-sluice-key header, or an allowed provider API key" });
    expect((await mcp(call(13, "restore_tool_result", { id: "s/t" }), { "x-sluice-key": "gw-wrong-wrong-wrong-key" }, vars)).status).toBe(401);
    const ok = await mcp(call(14, "restore_tool_result", { id: "s/t" }), { "x-sluice-key": GATEWAY_KEY }, vars);
    expect([ok.status, ok.text]).toEqual([200, answer(14, refused(REFUSALS.notFound("s/t")))]);
  });

  it("over the caller's limit: 429 with retry-after", async () => {
    const limiter = { limit: async () => ({ success: false }) };
    const res = await mcp(call(15, "restore_tool_result", { id: "s/t" }), { "x-api-key": TEST_API_KEY }, { SLUICE_RATE_LIMITER: limiter as never });
    expect(res.status).toBe(429);
  });
});

describe("POST /mcp tools and search", () => {
  it("lists the same two tools on every request", async () => {
    const list = async () => JSON.parse((await mcp({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }, { "x-api-key": TEST_API_KEY })).text.split("data: ")[1]!) as { result: { tools: { name: string; inputSchema: { required: string[] } }[] } };
    const first = await list();
    expect(first.result.tools.map((t) => [t.name, t.inputSchema.required])).toEqual([["restore_tool_result", ["id"]], ["search_session_memory", ["query", "id"]]]);
    expect(await list()).toEqual(first);
    // Stateless: no MCP session to open a stream on or to delete.
    for (const method of ["GET", "DELETE"]) {
      const res = await createApp().fetch(new Request("http://sluice.test/mcp", { method, headers: { accept: "text/event-stream", "x-api-key": TEST_API_KEY } }), E, createExecutionContext());
      expect(res.status).toBe(405);
    }
  });

  it("refuses a 2026-07-28 client's subscriptions/listen at once instead of holding a stream open", async () => {
    // Claude Code 2.1.332's listen request, as sent: held open, workerd cancelled it as hung.
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "claude-code", version: "2.1.332" }, "io.modelcontextprotocol/clientCapabilities": { roots: { listChanged: true } } };
    const listen = { jsonrpc: "2.0", id: "listen:0", method: "subscriptions/listen", params: { _meta: meta, notifications: { toolsListChanged: true } } };
    const res = await mcp(listen, { "x-api-key": TEST_API_KEY, "mcp-protocol-version": "2026-07-28", "mcp-method": "subscriptions/listen" });
    expect([res.status, res.type]).toEqual([200, "application/json"]);
    expect(JSON.parse(res.text)).toEqual({ jsonrpc: "2.0", error: { code: -32603, message: "Subscription limit reached" }, id: "listen:0" });
    // The same client's tools/list is answered as before.
    const list = await mcp({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: meta } }, { "x-api-key": TEST_API_KEY, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" });
    expect(list.status).toBe(200);
    expect((JSON.parse(list.text) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name)).toEqual(["restore_tool_result", "search_session_memory"]);
  });

  it("search_session_memory finds the session's tool entry with its restore id; another caller gets nothing", async () => {
    const r = await literalTwoCalls(compactVars({ ...CUT, memory_retention_seconds: 3_600 }));
    const id = markerId(r.forwarded);
    const res = await mcp(call(16, "search_session_memory", { query: "shell", id }), { "x-api-key": TEST_API_KEY });
    expect(res.text).toBe(answer(16, { content: [{ type: "text", text: JSON.stringify({ query: "shell", matches: [{ kind: "tool", key: "shell", count: 2, from: "session", restore_ids: [id] }], total: 1 }) }] }));
    const other = await mcp(call(17, "search_session_memory", { query: "shell", id }), { "x-api-key": OTHER_KEY });
    expect(other.text).toBe(answer(17, refused(REFUSALS.noSession(id))));
  });
});

describe("POST /mcp with a compressed body", () => {
  const LIST = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };
  const KEY = { "x-api-key": TEST_API_KEY };
  const ERROR = (message: string) => JSON.stringify({ jsonrpc: "2.0", error: { code: -32700, message }, id: null });

  it.each([
    ["gzip", (b: Uint8Array) => new Uint8Array(gzipSync(b))],
    ["br", (b: Uint8Array) => new Uint8Array(brotliCompressSync(b))],
    ["zstd", (b: Uint8Array) => new Uint8Array(zstdCompressSync(b))],
  ])("a %s tools/list is answered with the same bytes as the plain one", async (coding, encode) => {
    const plain = await mcp(LIST, KEY);
    expect([plain.status, plain.type]).toEqual([200, "text/event-stream"]);
    expect(await mcp(LIST, { ...KEY, "content-encoding": coding }, {}, encode)).toEqual(plain);
  });

  it("an unknown coding: 415 naming the header, with the codings Sluice decodes", async () => {
    const res = await mcp(LIST, { ...KEY, "content-encoding": "compress" }, {}, (b) => new Uint8Array(gzipSync(b)));
    expect(res).toEqual({
      status: 415, type: "application/json", acceptEncoding: "gzip, x-gzip, deflate, br, zstd",
      text: ERROR('content-encoding "compress" is not supported (supported: gzip, x-gzip, deflate, br, zstd)'),
    });
  });

  it("a body that is not what its coding says: 400 naming the header", async () => {
    const res = await mcp(LIST, { ...KEY, "content-encoding": "gzip" });
    expect(res).toEqual({ status: 400, type: "application/json", acceptEncoding: null, text: ERROR('content-encoding "gzip": the body could not be decoded') });
  });

  it("a body over MCP_MAX_DECODED_BYTES once decoded: 413 naming the header", async () => {
    const big = { ...LIST, params: { pad: "x".repeat(MCP_MAX_DECODED_BYTES) } };
    const res = await mcp(big, { ...KEY, "content-encoding": "gzip" }, {}, (b) => new Uint8Array(gzipSync(b)));
    expect(res).toEqual({ status: 413, type: "application/json", acceptEncoding: null, text: ERROR('content-encoding "gzip": the decoded body is over 4194304 bytes') });
  });
});
