/**
 * Standing aside through the Worker (DESIGN §2 "What Sluice does not model", §6), with the real
 * hook and the real upstream stand-in: a request carrying a type src/providers/known-types.ts
 * does not list, or a feature that hands the history to the provider, goes upstream as the
 * client's exact bytes with its own headers, with the exact `x-sluice-compaction` value, without
 * a session call, and is counted once in the index by reason and type; every position of every
 * API is checked for the exact bytes. The control: the same
 * conversation without it takes a step on the same second call.
 */
import { listDurableObjectIds } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { IndexUpdate } from "../../src/admin/index-update";
import type { PipelineDeps } from "../../src/gateway/compaction-pipeline";
import { parseExposition, valueOf } from "../support/parse-exposition";
import { AUTH, adminAppFor, envWith, indexStub } from "./admin-seed";
import { newTestId, received, utf8 } from "./helpers";
import { claudeCodeLiteral, compactVars, LITERAL_CONFIG, literalAnthropic, logText, manualClock, send, SESSIONS, upstreamBodies } from "./pipeline-harness";

/** Whether the session object named `session` was ever created. */
const doExists = async (session: string): Promise<boolean> => (await listDurableObjectIds(SESSIONS)).some((id) => id.equals(SESSIONS.idFromName(session)));

const dec = new TextDecoder();

/** Deps recording every index update. */
function recording(): { updates: IndexUpdate[]; deps: Partial<PipelineDeps> } {
  const updates: IndexUpdate[] = [];
  return { updates, deps: { index: { recordMany: async (u: IndexUpdate[]) => { updates.push(...u); return { ok: true }; } } } };
}

/**
 * Two calls of `body` in one new session at `path`, the second 400 s after the first (past the
 * cache TTL: a time_based step pays on the literal conversation). Returns the second answer's
 * header, the bytes and headers the upstream got for it, and what the pipeline recorded.
 */
async function twoCalls(path: string, body: string, headers: Record<string, string> = {}) {
  const session = newTestId("aside");
  const clock = manualClock();
  const rec = recording();
  const h = { "x-test-id": session, "x-sluice-session": session, ...headers };
  await send(compactVars(LITERAL_CONFIG), path, h, body, { now: clock.now, ...rec.deps });
  clock.advance(400_000);
  const second = await send(compactVars(LITERAL_CONFIG), path, h, body, { now: clock.now, ...rec.deps });
  const bodies = await upstreamBodies(session);
  const recs = await received(session);
  return { session, header: second.res.headers.get("x-sluice-compaction"), forwarded: dec.decode(bodies[1]!), upstreamHeaders: recs[1]!.headers, updates: rec.updates };
}

const ANTHROPIC = "/anthropic/v1/messages";
const LITERAL = literalAnthropic(logText("a", 800), logText("b", 800));
type Msg = Record<string, unknown>;
const MESSAGES = LITERAL.messages as Msg[];

/** The literal conversation with `messages[i]` replaced by `f(messages[i])` and `extra` fields. */
const literalWith = (i: number | null, f: (m: Msg) => Msg, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ ...LITERAL, ...extra, messages: MESSAGES.map((m, k) => (k === i ? f(m) : m)) });

describe("an unknown type: the client's exact bytes, the exact header, one count", () => {
  it("control: the literal conversation takes a time_based step on its second call", async () => {
    const r = await twoCalls(ANTHROPIC, JSON.stringify(LITERAL));
    expect(r.header).toMatch(/^compact; tier=time_based; step=1;/);
    expect(r.forwarded.length).toBeLessThan(JSON.stringify(LITERAL).length);
  });

  it.each([
    ["a top-level field", literalWith(null, (m) => m, { memory_bank: { id: "m1" } }), "memory_bank"],
    ["a content block", literalWith(1, (m) => ({ ...m, content: [{ type: "hologram", data: "x" }, ...(m.content as unknown[])] })), "hologram"],
    ["a tool_result part", literalWith(2, () => ({ role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_A", content: [{ type: "text", text: logText("a", 800) }, { type: "hologram_part" }] }] })), "hologram_part"],
    ["a role", literalWith(5, (m) => ({ ...m, role: "critic" })), "critic"],
    ["a context_management edit", literalWith(null, (m) => m, { context_management: { edits: [{ type: "clear_everything_20270101" }] } }), "clear_everything_20270101"],
    ["a type that needs escaping in a header", literalWith(1, (m) => ({ ...m, content: [{ type: "holo gram;v=2" }, ...(m.content as unknown[])] })), "holo%20gram%3Bv%3D2"],
  ])("anthropic: %s", async (_, body, headerType) => {
    const r = await twoCalls(ANTHROPIC, body, { "anthropic-beta": "context-management-2025-06-27" });
    expect(r.header).toBe(`skipped; reason=unknown_type; type=${headerType}`);
    expect(r.forwarded).toBe(body);
    expect(r.upstreamHeaders["anthropic-beta"]).toBe("context-management-2025-06-27");
    expect(await doExists(r.session)).toBe(false);
    const type = /^[a-z][a-z0-9_]*$/.test(headerType) ? headerType : "other";
    expect(r.updates.map((u) => (u.kind === "outcome" ? [u.session_id, u.outcome, u.tier, u.tokens_saved, u.stand_aside] : [u.kind]))).toEqual([
      [r.session, "stood_aside", "none", 0, { reason: "unknown_type", type }],
      [r.session, "stood_aside", "none", 0, { reason: "unknown_type", type }],
    ]);
  });

  it("openai-chat: an unknown content part type", async () => {
    const body = JSON.stringify({
      model: "gpt-4o",
      messages: [
        { role: "user", content: [{ type: "text", text: "Run the checks." }, { type: "video_url", video_url: { url: "https://example.test/v.mp4" } }] },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "shell", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "c1", content: logText("a", 800) },
        { role: "assistant", content: "Ran." },
        { role: "user", content: "Next." },
      ],
    });
    const r = await twoCalls("/openai/v1/chat/completions", body);
    expect([r.header, r.forwarded]).toEqual(["skipped; reason=unknown_type; type=video_url", body]);
  });

  it("openai-responses: an unknown item type", async () => {
    const body = JSON.stringify({
      model: "gpt-5.5-codex",
      input: [
        { type: "message", role: "user", content: [{ type: "input_text", text: "Run the checks." }] },
        { type: "function_call", call_id: "c1", name: "shell", arguments: "{}" },
        { type: "function_call_output", call_id: "c1", output: logText("a", 800) },
        { type: "hologram_call", id: "h1" },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Ran." }] },
        { type: "message", role: "user", content: [{ type: "input_text", text: "Next." }] },
      ],
      store: false,
    });
    const r = await twoCalls("/openai/v1/responses", body);
    expect([r.header, r.forwarded]).toEqual(["skipped; reason=unknown_type; type=hologram_call", body]);
  });
});

describe("an unknown type in every Chat and Responses position: the client's exact bytes", () => {
  const CHAT = [
    { role: "user", content: "Run the checks." },
    { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "shell", arguments: "{}" } }] },
    { role: "tool", tool_call_id: "c1", content: logText("a", 800) },
    { role: "assistant", content: "Ran." },
    { role: "user", content: "Next." },
  ];
  const chat = (messages: unknown[], extra: Record<string, unknown> = {}) => JSON.stringify({ model: "gpt-4o", messages, ...extra });
  it.each([
    ["a top-level field", chat(CHAT, { transforms: ["middle-out"] }), "transforms"],
    ["a role", chat([...CHAT.slice(0, 4), { role: "critic", content: "no" }, CHAT[4]]), "critic"],
    ["a tool call type", chat([CHAT[0], { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "mcp", mcp: { name: "shell" } }] }, ...CHAT.slice(2)]), "mcp"],
  ])("openai-chat: %s", async (_, body, type) => {
    const r = await twoCalls("/openai/v1/chat/completions", body);
    expect([r.header, r.forwarded]).toEqual([`skipped; reason=unknown_type; type=${type}`, body]);
  });

  const INPUT = [
    { type: "message", role: "user", content: [{ type: "input_text", text: "Run the checks." }] },
    { type: "function_call", call_id: "c1", name: "shell", arguments: "{}" },
    { type: "function_call_output", call_id: "c1", output: logText("a", 800) },
    { type: "message", role: "assistant", content: [{ type: "output_text", text: "Ran." }] },
    { type: "message", role: "user", content: [{ type: "input_text", text: "Next." }] },
  ];
  const responses = (input: unknown[], extra: Record<string, unknown> = {}) => JSON.stringify({ model: "gpt-5.5-codex", input, ...extra, store: false });
  it.each([
    ["a top-level field", responses(INPUT, { memory: { id: "m1" } }), "memory"],
    ["a message role", responses([...INPUT, { type: "message", role: "critic", content: "no" }]), "critic"],
    ["a message content part", responses([{ type: "message", role: "user", content: [{ type: "input_video", video_url: "x" }] }, ...INPUT.slice(1)]), "input_video"],
    ["a tool output part", responses([...INPUT.slice(0, 2), { type: "function_call_output", call_id: "c1", output: [{ type: "input_text", text: logText("a", 800) }, { type: "output_video" }] }, ...INPUT.slice(3)]), "output_video"],
  ])("openai-responses: %s", async (_, body, type) => {
    const r = await twoCalls("/openai/v1/responses", body);
    expect([r.header, r.forwarded]).toEqual([`skipped; reason=unknown_type; type=${type}`, body]);
  });
});

describe("a feature that hands the history to the provider: no edit of Sluice's beside it", () => {
  /** Claude Code's shape on claude-opus-5-5, where Sluice would otherwise add its own clear_tool_uses edit (the native mechanism). */
  const onNativeModel = claudeCodeLiteral;
  const BETA = "compact-2026-09-04";

  it("control: the same conversation without it gets Sluice's native edit", async () => {
    const r = await twoCalls(ANTHROPIC, onNativeModel({}), { "anthropic-beta": BETA });
    expect(r.header).toMatch(/mechanism=native/);
    expect(r.forwarded).toContain('"clear_tool_uses_20250919"');
  });

  it("anthropic on-demand compaction (compaction: {type: summarize}): the bytes and the beta as they came", async () => {
    const body = onNativeModel({ compaction: { type: "summarize" } });
    const r = await twoCalls(ANTHROPIC, body, { "anthropic-beta": BETA });
    expect([r.header, r.forwarded, r.upstreamHeaders["anthropic-beta"], await doExists(r.session)]).toEqual(["skipped; reason=server_managed", body, BETA, false]);
    expect(r.updates.map((u) => (u.kind === "outcome" ? u.stand_aside : u.kind))).toEqual([{ reason: "server_managed", type: "on_demand_compaction" }, { reason: "server_managed", type: "on_demand_compaction" }]);
  });

  const responses = (extraInput: unknown[], extra: Record<string, unknown>) =>
    JSON.stringify({
      model: "gpt-5.5-codex",
      input: [
        { type: "message", role: "user", content: [{ type: "input_text", text: "Run the checks." }] },
        { type: "function_call", call_id: "c1", name: "shell", arguments: "{}" },
        { type: "function_call_output", call_id: "c1", output: logText("a", 800) },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Ran." }] },
        { type: "message", role: "user", content: [{ type: "input_text", text: "Next." }] },
        ...extraInput,
      ],
      ...extra,
      store: false,
    });

  it.each([
    ["OpenAI context_management compaction", responses([], { context_management: [{ type: "compaction", compact_threshold: 200000 }] }), "context_management"],
    ["a Responses input ending with compaction_trigger", responses([{ type: "compaction_trigger" }], {}), "compaction_trigger"],
  ])("%s: the bytes as they came", async (_, body, type) => {
    const r = await twoCalls("/openai/v1/responses", body);
    expect([r.header, r.forwarded]).toEqual(["skipped; reason=server_managed", body]);
    expect(r.updates.map((u) => (u.kind === "outcome" ? u.stand_aside : u.kind))).toEqual([{ reason: "server_managed", type }, { reason: "server_managed", type }]);
  });
});

describe("the index counts stand-asides", () => {
  it("a stood_aside outcome reaches the real index: sluice_stood_aside_total by provider, reason and type, and the request count", async () => {
    const name = newTestId("idx-aside");
    const index = indexStub(name) as unknown as PipelineDeps["index"];
    const send1 = async (body: string) => {
      const session = newTestId("aside-index");
      const { res } = await send(compactVars(LITERAL_CONFIG), ANTHROPIC, { "x-test-id": session, "x-sluice-session": session }, utf8(body), { index });
      return res.headers.get("x-sluice-compaction");
    };
    expect(await send1(literalWith(1, (m) => ({ ...m, content: [{ type: "hologram" }, ...(m.content as unknown[])] })))).toBe("skipped; reason=unknown_type; type=hologram");
    expect(await send1(literalWith(1, (m) => ({ ...m, content: [{ type: "hologram" }, ...(m.content as unknown[])] })))).toBe("skipped; reason=unknown_type; type=hologram");
    expect(await send1(literalWith(null, (m) => m, { thread: { type: "create" } }))).toBe("skipped; reason=server_managed");
    const res = await adminAppFor(name).request("/admin/metrics", { headers: AUTH }, envWith());
    const f = parseExposition(await res.text());
    expect(f.find((x) => x.name === "sluice_stood_aside_total")!.samples.map((x) => [x.labels, x.value])).toEqual([
      [{ provider: "anthropic", reason: "server_managed", type: "thread" }, 1],
      [{ provider: "anthropic", reason: "unknown_type", type: "hologram" }, 2],
    ]);
    expect([valueOf(f, "sluice_requests_total", { provider: "anthropic", outcome: "stood_aside" }), valueOf(f, "sluice_sessions"), valueOf(f, "sluice_tokens_saved_total")]).toEqual([3, 3, 0]);
  });
});
