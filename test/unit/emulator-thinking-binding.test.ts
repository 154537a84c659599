import { describe, expect, it } from "vitest";
import { validateMessagesRequest } from "../../tools/emulator/anthropic/validate-messages";
import { handleRequest } from "../../tools/emulator/handle-request";
import { parseSse } from "../../tools/emulator/shared/sse";
import { createState } from "../../tools/emulator/state";

// Preserved thinking (platform.claude.com build-with-claude/preserved-thinking, prefix-checks):
// the emulator binds each thinking block it returns to the prefix the client sent, and checks it later.
const T0 = 1_800_000_000_000;
const BINDING = "thinking-binding-controls-2026-08-01";
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64");
const REJECTION =
  "messages.1.content.0: Invalid `signature` in `thinking` block. The block is bound to a different conversation. Remove the block, or set `thinking.block_binding.prefix_mismatch_behavior` to \"drop_block\".";
const WITHOUT_BETA = `${REJECTION} That setting requires the \`${BINDING}\` value in the \`anthropic-beta\` header.`;

function session(model: string) {
  const state = createState();
  const send = (body: object, headers: Record<string, string> = {}, reply?: unknown) => {
    const r = handleRequest(
      state,
      {
        method: "POST",
        path: "/v1/messages",
        headers: { "x-api-key": "k-binding", "x-emulator-time": String(T0), ...(reply === undefined ? {} : { "x-emulator-reply": b64(reply) }), ...headers },
        body: JSON.stringify({ model, max_tokens: 64, ...body }),
      },
      T0,
    );
    return { status: r.status, body: JSON.parse(r.body) };
  };
  return { send };
}

const reply = { role: "assistant", content: [{ type: "thinking", thinking: "The user greets.", signature: "" }, { type: "text", text: "Hello." }] };

/** Turn 1 on `model`, then the history a client sends back with the answer it got. */
function twoTurns(model: string, thinking: object = { type: "adaptive" }) {
  const s = session(model);
  const first = s.send({ system: "Be brief.", thinking, messages: [{ role: "user", content: "Hi" }] }, {}, reply);
  const history = [{ role: "user", content: "Hi" }, { role: "assistant", content: first.body.content }, { role: "user", content: "And now?" }];
  return { s, first, history };
}

describe("preserved thinking on a prefix-check model (claude-opus-5-5)", () => {
  it("mints a signature; display omitted returns empty thinking text; the unchanged history passes", () => {
    const { s, first, history } = twoTurns("claude-opus-5-5", { type: "adaptive", display: "omitted" });
    expect(first.status).toBe(200);
    expect(first.body.content[0]).toMatchObject({ type: "thinking", thinking: "" });
    expect(first.body.content[0].signature).toMatch(/^emu1\./);
    expect(s.send({ system: "Be brief.", thinking: { type: "adaptive" }, messages: history }).status).toBe(200);
  });

  it("an edited earlier message answers the documented 400 (message naming the beta without it)", () => {
    const { s, history } = twoTurns("claude-opus-5-5");
    const edited = [{ role: "user", content: "Hi!" }, ...history.slice(1)];
    expect(s.send({ system: "Be brief.", thinking: { type: "adaptive" }, messages: edited })).toEqual({
      status: 400,
      body: { type: "error", error: { type: "invalid_request_error", message: WITHOUT_BETA } },
    });
    expect(s.send({ system: "Be brief.", thinking: { type: "adaptive" }, messages: edited }, { "anthropic-beta": BINDING }).body.error.message).toBe(REJECTION);
  });

  it("a changed system prompt or tool list invalidates the block too", () => {
    const { s, history } = twoTurns("claude-opus-5-5");
    expect(s.send({ system: "Be very brief.", thinking: { type: "adaptive" }, messages: history }).status).toBe(400);
    expect(s.send({ system: "Be brief.", tools: [{ name: "ls", input_schema: { type: "object" } }], thinking: { type: "adaptive" }, messages: history }).status).toBe(400);
  });

  it("drop_block with the beta drops the block, reports input_transformations, bills less; later blocks stay valid", () => {
    const { s, history } = twoTurns("claude-opus-5-5");
    const edited = [{ role: "user", content: "Hi!" }, ...history.slice(1)];
    const thinking = { type: "adaptive", block_binding: { prefix_mismatch_behavior: "drop_block" } };
    const dropped = s.send({ system: "Be brief.", thinking, messages: edited }, { "anthropic-beta": BINDING }, reply);
    expect(dropped.status).toBe(200);
    expect(dropped.body.input_transformations).toEqual([{ type: "thinking_dropped", reason: "prefix_binding_mismatch", path: "messages.1.content.0" }]);
    // The same request with the block removed by the client bills the same input.
    const without = [edited[0], { role: "assistant", content: [history[1]!.content[1]] }, edited[2]];
    const clean = s.send({ system: "Be brief.", thinking, messages: without }, { "anthropic-beta": BINDING });
    expect(clean.body.input_transformations).toEqual([]);
    expect(dropped.body.usage.input_tokens).toBe(clean.body.usage.input_tokens);
    // A block produced after the edit is bound to the edited history: only the old one keeps being dropped.
    const next = [...edited, { role: "assistant", content: dropped.body.content }, { role: "user", content: "Go on." }];
    expect(s.send({ system: "Be brief.", thinking, messages: next }, { "anthropic-beta": BINDING }).body.input_transformations).toEqual([
      { type: "thinking_dropped", reason: "prefix_binding_mismatch", path: "messages.1.content.0" },
    ]);
  });

  it("moving cache_control and changing key order keep the block valid; server-side clearing never trips the check", () => {
    const { s, history } = twoTurns("claude-opus-5-5");
    const marked = [{ content: [{ text: "Hi", type: "text", cache_control: { type: "ephemeral" } }], role: "user" }, ...history.slice(1)];
    expect(s.send({ system: "Be brief.", thinking: { type: "adaptive" }, messages: marked }).status).toBe(200);
    const cm = { edits: [{ type: "clear_thinking_20251015", keep: { type: "thinking_turns", value: 1 } }] };
    expect(s.send({ system: "Be brief.", thinking: { type: "adaptive" }, context_management: cm, messages: history }, { "anthropic-beta": "context-management-2025-06-27" }).status).toBe(200);
  });

  it("removing the leading thinking block is allowed; omitting one between others invalidates the next", () => {
    const s = session("claude-opus-5-5");
    const t1 = s.send({ messages: [{ role: "user", content: "a" }] }, {}, reply).body.content;
    const h2 = [{ role: "user", content: "a" }, { role: "assistant", content: t1 }, { role: "user", content: "b" }];
    const t2 = s.send({ messages: h2 }, {}, reply).body.content;
    const h3 = [...h2, { role: "assistant", content: t2 }, { role: "user", content: "c" }];
    const t3 = s.send({ messages: h3 }, {}, reply).body.content;
    const h4 = [...h3, { role: "assistant", content: t3 }, { role: "user", content: "d" }];
    expect(s.send({ messages: h4 }).status).toBe(200);
    const noFirst = h4.map((m, i) => (i === 1 ? { role: "assistant", content: [t1[1]] } : m));
    expect(s.send({ messages: noFirst }).status).toBe(200);
    const noMiddle = h4.map((m, i) => (i === 3 ? { role: "assistant", content: [t2[1]] } : m));
    expect(s.send({ messages: noMiddle }).body.error.message).toMatch(/^messages\.5\.content\.0: Invalid `signature` in `thinking` block\. The block is bound/);
  });

  it("a recorded signature the emulator answered with is bound too (replay)", () => {
    const s = session("claude-fable-5-2");
    const recorded = { role: "assistant", content: [{ type: "thinking", thinking: "t", signature: "RECORDED-SIG" }, { type: "text", text: "ok" }] };
    const first = s.send({ messages: [{ role: "user", content: "x" }] }, {}, recorded);
    expect(first.body.content[0].signature).toBe("RECORDED-SIG");
    const history = [{ role: "user", content: "x" }, recorded, { role: "user", content: "y" }];
    expect(s.send({ messages: history }).status).toBe(200);
    expect(s.send({ messages: [{ role: "user", content: "x2" }, ...history.slice(1)] }).status).toBe(400);
  });

  it("a block this key never got is dropped as another model's (model_binding_mismatch), reported with the beta", () => {
    const s = session("claude-sonnet-5-5");
    const foreign = [{ role: "user", content: "x" }, { role: "assistant", content: [{ type: "thinking", thinking: "t", signature: "OTHER" }, { type: "text", text: "ok" }] }, { role: "user", content: "y" }];
    const r = s.send({ messages: foreign }, { "anthropic-beta": BINDING });
    expect(r.status).toBe(200);
    expect(r.body.input_transformations).toEqual([{ type: "thinking_dropped", reason: "model_binding_mismatch", path: "messages.1.content.0" }]);
  });
});

describe("streaming", () => {
  it("input_transformations is final in message_start; an omitted thinking block streams empty text and its signature", () => {
    const state = createState();
    const r = handleRequest(
      state,
      {
        method: "POST",
        path: "/v1/messages",
        headers: { "x-api-key": "k-sse", "anthropic-beta": BINDING, "x-emulator-reply": b64(reply) },
        body: JSON.stringify({ model: "claude-opus-5-5", max_tokens: 64, stream: true, thinking: { type: "adaptive", display: "omitted" }, messages: [{ role: "user", content: "Hi" }] }),
      },
      T0,
    );
    const events = parseSse(r.body).map((e) => JSON.parse(e.data));
    expect(events[0].message.input_transformations).toEqual([]);
    const thinking = events.filter((e) => e.index === 0 && e.type === "content_block_delta").map((e) => e.delta);
    expect(thinking.map((d) => d.thinking ?? d.type)).toEqual(["", "signature_delta"]);
    expect(thinking[1].signature).toMatch(/^emu1\./);
  });
});

describe("models without the prefix check", () => {
  it("claude-sonnet-4-5 accepts an edited history and returns thinking unbound", () => {
    const { s, first, history } = twoTurns("claude-sonnet-4-5");
    expect(first.body.content[0].signature).toBe("");
    expect(s.send({ system: "Be brief.", thinking: { type: "adaptive" }, messages: [{ role: "user", content: "Hi!" }, ...history.slice(1)] }).status).toBe(200);
  });
});

describe("validateMessagesRequest (standalone: body + headers → verdict)", () => {
  it("needs no state for minted signatures", () => {
    const { history } = twoTurns("claude-haiku-5-5");
    const body = { model: "claude-haiku-5-5", max_tokens: 8, system: "Be brief.", messages: history };
    expect(validateMessagesRequest(body, {})).toEqual({ ok: true, dropped: [], prefixChecked: true });
    const edited = { ...body, system: "Other." };
    expect(validateMessagesRequest(edited, { "anthropic-beta": `context-management-2025-06-27, ${BINDING}` })).toEqual({
      ok: false,
      rejection: { api: "anthropic", status: 400, type: "invalid_request_error", message: REJECTION },
    });
  });
});
