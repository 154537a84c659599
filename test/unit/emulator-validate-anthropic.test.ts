import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CASES_PATH } from "../support/shared-dir";
import { validateAnthropicRequest } from "../../tools/emulator/anthropic/validate-request";
import { handleRequest } from "../../tools/emulator/handle-request";
import { createState } from "../../tools/emulator/state";

// Requests of the shared failure cases (test/fixtures/cases). B01/B02/B14 record no `tools`, which the
// real API requires with tool blocks, so the tests add a definition where the case is about another rule.
const caseRequest = (id: string) => JSON.parse(readFileSync(`${CASES_PATH}/${id}.json`, "utf8")).request;
const withTools = (req: any) => ({ ...req, tools: [{ name: "shell", input_schema: { type: "object" } }] });
const none = { issuedThinking: new Map<string, string>() };
const message = (body: unknown, ctx = none) => validateAnthropicRequest(body, ctx)?.message ?? null;

describe("Anthropic validation: tool pairing", () => {
  it("B01: a tool_result whose tool_use turn was trimmed is an unexpected tool_use_id", () => {
    const req = withTools(caseRequest("B01"));
    expect(message(req)).toBeNull();
    req.messages.splice(1, 1);
    expect(message(req)).toBe(
      "messages.1.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_01AAAAAAAAAAAAAAAAAAAAAA. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.",
    );
  });

  it("B02: a tool_use whose tool_result was dropped is reported on the assistant message", () => {
    const req = withTools(caseRequest("B02"));
    expect(message(req)).toBeNull(); // an empty-string tool_result content is allowed
    req.messages[2].content.splice(1, 1);
    expect(message(req)).toBe(
      "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01CCCCCCCCCCCCCCCCCCCCCC. Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
    );
  });

  it("tool_result blocks must lead the next user turn (text first breaks the pairing)", () => {
    const req = withTools(caseRequest("B02"));
    req.messages[2].content.unshift({ type: "text", text: "results:" });
    expect(message(req)).toBe(
      "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01BBBBBBBBBBBBBBBBBBBBBB, toolu_01CCCCCCCCCCCCCCCCCCCCCC. Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
    );
  });

  it("consecutive user messages merge into one turn, so results split over two messages still pair", () => {
    const req = withTools(caseRequest("B02"));
    const [a, b] = req.messages[2].content;
    req.messages.splice(2, 1, { role: "user", content: [a] }, { role: "user", content: [b] });
    expect(message(req)).toBeNull();
  });

  it("A16: a tool_use id used twice in one request is refused (duplicated history)", () => {
    const req = withTools(caseRequest("B02"));
    req.messages.push({ role: "assistant", content: [req.messages[1].content[1]] }, { role: "user", content: [req.messages[2].content[1]] });
    expect(message(req)).toBe("messages.5.content.0: `tool_use` ids must be unique");
  });

  it("tool blocks without tool definitions are rejected", () => {
    expect(message(caseRequest("B01"))).toBe("Requests which include tool_use or tool_result blocks must define tools.");
  });

  it("the first message must be a user message", () => {
    const req = withTools(caseRequest("B01"));
    req.messages.splice(0, 3);
    expect(message(req)).toBe('messages: first message must use the "user" role');
  });
});

describe("Anthropic validation: content", () => {
  it("B05: a fifth cache_control marker (block or top level) is refused with the count", () => {
    const req = caseRequest("B05");
    expect(message(req)).toBeNull();
    expect(message({ ...req, cache_control: { type: "ephemeral" } })).toBe("A maximum of 4 blocks with cache_control may be provided. Found 5.");
    req.messages[1].content[0].cache_control = { type: "ephemeral" };
    req.messages[2].content[0].content = [{ type: "text", text: "x", cache_control: { type: "ephemeral" } }];
    expect(message(req)).toBe("A maximum of 4 blocks with cache_control may be provided. Found 6.");
  });

  it("B14: empty and whitespace-only text blocks, top level or inside a tool_result", () => {
    const req = withTools(caseRequest("B14"));
    expect(message(req)).toBeNull();
    const stripped = structuredClone(req);
    stripped.messages[0].content[0].text = "";
    expect(message(stripped)).toBe("messages: text content blocks must be non-empty");
    const blank = structuredClone(req);
    blank.messages[2].content[0].content[0].text = " \n";
    expect(message(blank)).toBe("messages: text content blocks must contain non-whitespace text");
  });

  it("empty content is allowed only on a final assistant message", () => {
    const req = withTools(caseRequest("B14"));
    const emptied = structuredClone(req);
    emptied.messages[0].content = [];
    expect(message(emptied)).toBe("messages.0: all messages must have non-empty content except for the optional final assistant message");
    const prefill = structuredClone(req);
    prefill.messages.push({ role: "assistant", content: [] });
    expect(message(prefill)).toBeNull();
  });
});

describe("Anthropic validation: thinking", () => {
  const b03 = () => caseRequest("B03");

  it("B03: the latest assistant message, as the emulator issued it, cannot lose a block", () => {
    const state = createState();
    const send = (body: unknown, reply?: unknown) =>
      handleRequest(state, {
        method: "POST",
        path: "/v1/messages",
        headers: { "x-api-key": "k-b03", ...(reply ? { "x-emulator-reply": Buffer.from(JSON.stringify(reply)).toString("base64") } : {}) },
        body: JSON.stringify(body),
      }, 1_000);
    const req = b03();
    const first = { ...req, messages: req.messages.slice(0, 1) };
    expect(send(first, req.messages[1]).status).toBe(200); // the emulator issues messages[1]
    expect(send(req).status).toBe(200); // replayed unchanged: accepted
    const edited = b03();
    edited.messages[1].content.splice(1, 1); // the gateway drops the "filler" text block
    const r = send(edited);
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toEqual({
      type: "error",
      error: {
        type: "invalid_request_error",
        message:
          "messages.1.content.1: `thinking` or `redacted_thinking` blocks in the latest assistant message cannot be modified. These blocks must remain as they were in the original response.",
      },
    });
  });

  it("with thinking on, the assistant turn of an open tool loop must start with thinking", () => {
    const req = b03();
    req.messages[1].content.shift();
    expect(message(req)).toBe(
      "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `text`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking",
    );
  });

  it("thinking blocks must come first, must not come last, and need thinking on in a final assistant message", () => {
    const moved = b03();
    moved.messages[1].content.push(moved.messages[1].content.shift());
    expect(message(moved)).toBe("messages.1.content.0: If an assistant message contains any thinking blocks, the first block must be thinking or redacted_thinking. Found text.");
    const onlyThinking = b03();
    onlyThinking.messages[1].content = [onlyThinking.messages[1].content[0]];
    onlyThinking.messages.pop();
    expect(message(onlyThinking)).toBe("messages.1: The final block in an assistant message cannot be `thinking`.");
    const prefill = b03();
    prefill.messages.pop();
    delete prefill.thinking;
    expect(message(prefill)).toBe(
      "messages.1.content.0: When thinking is disabled, an `assistant` message in the final position cannot contain `thinking`. To use thinking blocks, enable `thinking` in your request.",
    );
  });
});

describe("Anthropic validation: HTTP shape", () => {
  it("answers 400 with the real error body, counts the rejection and bills nothing", () => {
    const state = createState();
    const r = handleRequest(state, { method: "POST", path: "/v1/messages", headers: { "x-api-key": "k" }, body: JSON.stringify(caseRequest("B01")) }, 0);
    expect(r.status).toBe(400);
    expect(r.headers["x-emulator-cost-usd"]).toBe("0.000000000");
    expect(JSON.parse(r.body)).toEqual({ type: "error", error: { type: "invalid_request_error", message: "Requests which include tool_use or tool_result blocks must define tools." } });
    expect([...state.keys.values()][0]!.totals).toMatchObject({ requests: 1, rejected: 1, cost_nano: 0 });
  });

  it("requires an API key", () => {
    const r = handleRequest(createState(), { method: "POST", path: "/v1/messages", headers: {}, body: "{}" }, 0);
    expect([r.status, JSON.parse(r.body)]).toEqual([401, { type: "error", error: { type: "authentication_error", message: "x-api-key header is required" } }]);
  });
});

describe("Anthropic validation: mid-conversation system messages (beta mid-conversation-system-2026-04-07)", () => {
  const BETA = { issuedThinking: new Map<string, string>(), betas: ["mid-conversation-system-2026-04-07"] };
  const sys = { role: "system", content: "From now on answer in French." };
  const base = (messages: unknown[]) => ({ model: "claude-opus-5-5", max_tokens: 8, messages });

  it("accepted directly after a user message; not a turn, so the user → assistant order holds", () => {
    expect(message(base([{ role: "user", content: "Hi" }, sys, { role: "assistant", content: "Salut." }, { role: "user", content: "Ok" }]), BETA)).toBeNull();
  });

  it("anywhere else it is a 400 naming the message", () => {
    expect(message(base([{ role: "user", content: "Hi" }, { role: "assistant", content: "Hello." }, sys, { role: "user", content: "Ok" }]), BETA)).toBe(
      "messages.2: a `system` message must directly follow a `user` message",
    );
    expect(message(base([sys, { role: "user", content: "Hi" }]), BETA)).toBe("messages.0: a `system` message must directly follow a `user` message");
  });

  it("without the beta (as Claude Code 2.1.332 sends them) the same placement rule applies", () => {
    expect(message(base([{ role: "user", content: "Hi" }, sys, { role: "assistant", content: "Salut." }]))).toBeNull();
    expect(message(base([{ role: "user", content: "Hi" }, { role: "assistant", content: "Hello." }, sys]))).toBe("messages.2: a `system` message must directly follow a `user` message");
    expect(message(base([{ role: "user", content: "Hi" }, { role: "tool", content: "x" }]))).toBe("messages.1.role: Input should be 'user' or 'assistant'");
  });
});
