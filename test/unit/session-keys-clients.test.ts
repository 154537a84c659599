/**
 * One session per conversation, on the bodies real clients send (DESIGN §6). The official SDKs
 * (`@anthropic-ai/sdk`, `openai`) run for real with a `fetch` that records each request's exact
 * bytes and headers and answers like the provider; each conversation is several calls, written
 * the way the SDKs' docs show (Anthropic: the prompt-caching breakpoint on the latest user
 * message, so on the first call it sits on the first message). Claude Code's bodies follow its
 * wire shape: the per-request billing line as the first system block (or at the top of it),
 * `cache_control` on its identity block and on the latest message, `X-Claude-Code-Session-Id`
 * on every request. Each conversation runs with and without a session header.
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { Provider } from "../../src/core/view/types";
import { sessionIdOf, type SessionId } from "../../src/gateway/session-id";
import { scanJson } from "../../src/providers/shared/json-scan";

/** One recorded request: its exact body text and headers. */
interface Sent {
  body: string;
  headers: Headers;
}

/** A fetch that records every request and answers with the next scripted JSON body. */
function recordingFetch(answers: unknown[]): { fetch: typeof fetch; sent: Sent[] } {
  const sent: Sent[] = [];
  const f = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    sent.push({ body: String(init?.body), headers: new Headers(init?.headers) });
    const answer = answers[sent.length - 1];
    if (answer === undefined) throw new Error(`no scripted answer for call ${sent.length}`);
    return new Response(JSON.stringify(answer), { status: 200, headers: { "content-type": "application/json", "request-id": `req_${sent.length}` } });
  };
  return { fetch: f as typeof fetch, sent };
}

/** The session id the gateway derives from one recorded request. */
function keyOf(provider: Provider, s: Sent): SessionId {
  const bytes = new TextEncoder().encode(s.body);
  return sessionIdOf(provider, s.headers, bytes, scanJson(bytes));
}

/** The distinct session ids of a conversation's calls. */
const idsOf = (provider: Provider, sent: Sent[]) => [...new Set(sent.map((s) => keyOf(provider, s).id))];

const ANTHROPIC_MODEL = "claude-sonnet-4-5";
const WEATHER_TOOL = { name: "get_weather", description: "Current weather for a city", input_schema: { type: "object" as const, properties: { city: { type: "string" } }, required: ["city"] } };
const anthropicMessage = (n: number, content: unknown[], stop: "end_turn" | "tool_use") => ({
  id: `msg_0${n}`, type: "message", role: "assistant", model: ANTHROPIC_MODEL, content, stop_reason: stop, stop_sequence: null,
  usage: { input_tokens: 1200 + n, output_tokens: 40, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
});

type AnthropicParam = Anthropic.Messages.MessageParam;

/**
 * A three-call tool-using conversation through the Anthropic SDK, with the docs' incremental
 * caching: a cached system block and the breakpoint on the latest user message's last block.
 */
async function anthropicConversation(question: string, defaultHeaders: Record<string, string> = {}): Promise<Sent[]> {
  const { fetch, sent } = recordingFetch([
    anthropicMessage(1, [{ type: "tool_use", id: "toolu_01", name: "get_weather", input: { city: "Lisbon" } }], "tool_use"),
    anthropicMessage(2, [{ type: "text", text: "It is 21 °C and sunny in Lisbon. Anything else?" }], "end_turn"),
    anthropicMessage(3, [{ type: "text", text: "Porto is 17 °C with clouds." }], "end_turn"),
  ]);
  const client = new Anthropic({ apiKey: "sk-ant-api03-test-key", baseURL: "http://127.0.0.1:8787/anthropic", fetch, defaultHeaders, maxRetries: 0 });
  const history: AnthropicParam[] = [];
  const markLast = (messages: AnthropicParam[]): AnthropicParam[] => messages.map((m, i) => {
    if (i !== messages.length - 1 || typeof m.content === "string") return m;
    const blocks = m.content.map((b, j) => (j === m.content.length - 1 ? { ...b, cache_control: { type: "ephemeral" as const } } : b));
    return { ...m, content: blocks } as AnthropicParam;
  });
  const call = async () => {
    const reply = await client.messages.create({
      model: ANTHROPIC_MODEL, max_tokens: 1024, tools: [WEATHER_TOOL],
      system: [{ type: "text", text: "You are a concise travel assistant.", cache_control: { type: "ephemeral" } }],
      messages: markLast(history),
    });
    history.push({ role: "assistant", content: reply.content as Anthropic.Messages.ContentBlockParam[] });
    return reply;
  };
  history.push({ role: "user", content: [{ type: "text", text: question }] });
  const first = await call();
  const use = first.content.find((b) => b.type === "tool_use")!;
  history.push({ role: "user", content: [{ type: "tool_result", tool_use_id: use.id, content: "21 °C, sunny" }] });
  await call();
  history.push({ role: "user", content: [{ type: "text", text: "And Porto?" }] });
  await call();
  return sent;
}

describe("Anthropic SDK (@anthropic-ai/sdk)", () => {
  it("without a session header: one fp: session per conversation, although the first call carries the breakpoint on the first message", async () => {
    const weather = await anthropicConversation("What is the weather in Lisbon?");
    const bodies = weather.map((s) => JSON.parse(s.body) as { messages: { content: { cache_control?: unknown }[] }[] });
    // The input this test is about: the first message's bytes change between call 1 and call 2.
    expect(bodies.map((b) => b.messages[0]!.content[0]!.cache_control ?? null)).toEqual([{ type: "ephemeral" }, null, null]);
    const ids = idsOf("anthropic", weather);
    expect(ids).toHaveLength(1);
    expect(keyOf("anthropic", weather[0]!).source).toBe("fingerprint");
    expect(ids[0]).toMatch(/^fp:[0-9a-f]{16}$/);
    const other = idsOf("anthropic", await anthropicConversation("What is the weather in Madrid?"));
    expect(other).toHaveLength(1);
    expect(other[0]).not.toBe(ids[0]);
  });

  it("with x-sluice-session: the header names the session on every call", async () => {
    const sent = await anthropicConversation("What is the weather in Lisbon?", { "x-sluice-session": "trip-planner-42" });
    expect(sent.map((s) => keyOf("anthropic", s))).toEqual(Array(3).fill({ id: "trip-planner-42", source: "header" }));
  });
});

/** A three-call tool-using Chat Completions conversation through the OpenAI SDK. */
async function chatConversation(question: string, extra: { headers?: Record<string, string>; prompt_cache_key?: string } = {}): Promise<Sent[]> {
  const completion = (n: number, message: unknown, finish: string) => ({
    id: `chatcmpl-0${n}`, object: "chat.completion", created: 1_767_000_000 + n, model: "gpt-4o-2024-08-06",
    choices: [{ index: 0, message, logprobs: null, finish_reason: finish }], usage: { prompt_tokens: 300 + n, completion_tokens: 20, total_tokens: 320 + n },
  });
  const { fetch, sent } = recordingFetch([
    completion(1, { role: "assistant", content: null, tool_calls: [{ id: "call_01", type: "function", function: { name: "get_weather", arguments: '{"city":"Lisbon"}' } }] }, "tool_calls"),
    completion(2, { role: "assistant", content: "21 °C and sunny in Lisbon." }, "stop"),
    completion(3, { role: "assistant", content: "Porto: 17 °C, cloudy." }, "stop"),
  ]);
  const client = new OpenAI({ apiKey: "sk-proj-test-key", baseURL: "http://127.0.0.1:8787/openai/v1", fetch, defaultHeaders: extra.headers ?? {}, maxRetries: 0 });
  const tools = [{ type: "function" as const, function: { name: "get_weather", description: "Current weather for a city", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } } }];
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: "system", content: "You are a concise travel assistant." }, { role: "user", content: question }];
  const call = async () => {
    const r = await client.chat.completions.create({ model: "gpt-4o", messages, tools, ...(extra.prompt_cache_key ? { prompt_cache_key: extra.prompt_cache_key } : {}) });
    messages.push(r.choices[0]!.message as OpenAI.Chat.ChatCompletionMessageParam);
    return r;
  };
  const first = await call();
  messages.push({ role: "tool", tool_call_id: first.choices[0]!.message.tool_calls![0]!.id, content: "21 °C, sunny" });
  await call();
  messages.push({ role: "user", content: "And Porto?" });
  await call();
  return sent;
}

describe("OpenAI SDK, Chat Completions", () => {
  it("without a session header: one fp: session per conversation, another for another question", async () => {
    const ids = idsOf("openai-chat", await chatConversation("What is the weather in Lisbon?"));
    expect(ids).toHaveLength(1);
    expect(ids[0]).toMatch(/^fp:[0-9a-f]{16}$/);
    const other = idsOf("openai-chat", await chatConversation("What is the weather in Madrid?"));
    expect([other.length, other[0] === ids[0]]).toEqual([1, false]);
  });

  it("with x-sluice-session, or with the SDK's prompt_cache_key: that names the session on every call", async () => {
    const named = await chatConversation("What is the weather in Lisbon?", { headers: { "x-sluice-session": "trip-planner-42" } });
    expect(named.map((s) => keyOf("openai-chat", s))).toEqual(Array(3).fill({ id: "trip-planner-42", source: "header" }));
    const keyed = await chatConversation("What is the weather in Lisbon?", { prompt_cache_key: "user-7-trip" });
    expect(keyed.map((s) => keyOf("openai-chat", s))).toEqual(Array(3).fill({ id: "pck:user-7-trip", source: "prompt_cache_key" }));
  });
});

/**
 * A three-call Responses conversation through the OpenAI SDK, stateless (`store: false`, the
 * history resent): the first call sends `input` as a string, the later ones as items, as the
 * SDK's docs show.
 */
async function responsesConversation(question: string, headers: Record<string, string> = {}): Promise<Sent[]> {
  const response = (n: number, output: unknown[]) => ({
    id: `resp_0${n}`, object: "response", created_at: 1_767_000_000 + n, status: "completed", model: "gpt-5-2025-08-07", output,
    usage: { input_tokens: 500 + n, output_tokens: 30, total_tokens: 530 + n, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
  });
  const text = (id: string, t: string) => ({ type: "message", id, status: "completed", role: "assistant", content: [{ type: "output_text", text: t, annotations: [] }] });
  const { fetch, sent } = recordingFetch([
    response(1, [{ type: "function_call", id: "fc_01", call_id: "call_01", name: "get_weather", arguments: '{"city":"Lisbon"}', status: "completed" }]),
    response(2, [text("msg_02", "21 °C and sunny in Lisbon.")]),
    response(3, [text("msg_03", "Porto: 17 °C, cloudy.")]),
  ]);
  const client = new OpenAI({ apiKey: "sk-proj-test-key", baseURL: "http://127.0.0.1:8787/openai/v1", fetch, defaultHeaders: headers, maxRetries: 0 });
  const tools = [{ type: "function" as const, name: "get_weather", description: "Current weather for a city", strict: false, parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }];
  const first = await client.responses.create({ model: "gpt-5", instructions: "You are a concise travel assistant.", input: question, tools, store: false });
  const input: OpenAI.Responses.ResponseInputItem[] = [{ role: "user", content: question }, ...(first.output as OpenAI.Responses.ResponseInputItem[])];
  input.push({ type: "function_call_output", call_id: "call_01", output: "21 °C, sunny" });
  const second = await client.responses.create({ model: "gpt-5", instructions: "You are a concise travel assistant.", input, tools, store: false });
  input.push(...(second.output as OpenAI.Responses.ResponseInputItem[]), { role: "user", content: "And Porto?" });
  await client.responses.create({ model: "gpt-5", instructions: "You are a concise travel assistant.", input, tools, store: false });
  return sent;
}

describe("OpenAI SDK, Responses", () => {
  it("without a session header: one fp: session per conversation, although `input` goes from a string to items", async () => {
    const sent = await responsesConversation("What is the weather in Lisbon?");
    expect(sent.map((s) => typeof (JSON.parse(s.body) as { input: unknown }).input)).toEqual(["string", "object", "object"]);
    const ids = idsOf("openai-responses", sent);
    expect(ids).toHaveLength(1);
    expect(ids[0]).toMatch(/^fp:[0-9a-f]{16}$/);
    expect(idsOf("openai-responses", await responsesConversation("What is the weather in Madrid?"))[0]).not.toBe(ids[0]);
  });

  it("with x-sluice-session: the header names the session on every call", async () => {
    const sent = await responsesConversation("What is the weather in Lisbon?", { "x-sluice-session": "trip-planner-42" });
    expect(sent.map((s) => keyOf("openai-responses", s))).toEqual(Array(3).fill({ id: "trip-planner-42", source: "header" }));
  });
});

/**
 * Claude Code's requests (2.1.x wire shape, as the e2e run records them: docs/dev/e2e-clients.md):
 * system = [billing line, identity block (cached), the main prompt (cached)], the breakpoint on
 * the latest message's last block, `metadata.user_id`, `X-Claude-Code-Session-Id` and the
 * `anthropic-beta` list on every request. The billing line's `cch` changes on every request.
 */
const CC_SESSION = "7d1c7a52-3c1e-4f0b-9a8e-2b6f0f1e9c11";
const CC_IDENTITY = "You are Claude Code, Anthropic's official CLI for Claude.";
const CC_PROMPT = "You are an interactive CLI tool that helps users with software engineering tasks.\n\n# Environment\n - Primary working directory: /home/dev/shop-api\n - Platform: linux";
const ccBilling = (cch: string) => `x-anthropic-billing-header: cc_version=2.1.332.e4f; cc_entrypoint=cli; cch=${cch};`;

type CcBlock = { type: string; [k: string]: unknown };
type CcMessage = { role: "user" | "assistant"; content: CcBlock[] };

/** One Claude Code request body: `billingAtTop` puts the billing line at the top of the identity block instead of its own block. */
function claudeCodeBody(cch: string, messages: CcMessage[], billingAtTop = false): string {
  const marked = messages.map((m, i) => (i === messages.length - 1 ? { ...m, content: m.content.map((b, j) => (j === m.content.length - 1 ? { ...b, cache_control: { type: "ephemeral" } } : b)) } : m));
  const system = billingAtTop
    ? [{ type: "text", text: `${ccBilling(cch)}\n${CC_IDENTITY}`, cache_control: { type: "ephemeral" } }, { type: "text", text: CC_PROMPT, cache_control: { type: "ephemeral" } }]
    : [{ type: "text", text: ccBilling(cch) }, { type: "text", text: CC_IDENTITY, cache_control: { type: "ephemeral" } }, { type: "text", text: CC_PROMPT, cache_control: { type: "ephemeral" } }];
  return JSON.stringify({
    model: "claude-opus-4-8", messages: marked, system,
    tools: [{ name: "Read", description: "Reads a file from the local filesystem.", input_schema: { type: "object", properties: { file_path: { type: "string" } }, required: ["file_path"] } }],
    metadata: { user_id: `user_5f0c_account__session_${CC_SESSION}` }, max_tokens: 32000, stream: true,
  });
}

/** Claude Code's headers; `session: false` drops its session id (an older Claude Code, or a proxy in front that strips it). */
function claudeCodeHeaders(session: boolean): Headers {
  return new Headers({
    "x-api-key": "sk-ant-api03-test-key", "anthropic-version": "2023-06-01", "anthropic-beta": "claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27",
    "user-agent": "claude-cli/2.1.332 (external, cli)", "x-app": "cli", ...(session ? { "x-claude-code-session-id": CC_SESSION } : {}),
  });
}

/** A four-call Claude Code conversation (a task, a Read, its result, a follow-up), each with a fresh `cch`. */
function claudeCodeConversation(task: string, session: boolean, billingAtTop = false): Sent[] {
  const first: CcMessage = { role: "user", content: [{ type: "text", text: "<system-reminder>\nAs you answer, use the context below.\n</system-reminder>" }, { type: "text", text: task }] };
  const read: CcMessage = { role: "assistant", content: [{ type: "tool_use", id: "toolu_01A", name: "Read", input: { file_path: "/home/dev/shop-api/src/cart.ts" } }] };
  const result: CcMessage = { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01A", content: "export function total() {}" }] };
  const answer: CcMessage = { role: "assistant", content: [{ type: "text", text: "The total ignores discounts." }] };
  const follow: CcMessage = { role: "user", content: [{ type: "text", text: "fix it" }] };
  const turns = [[first], [first, read, result], [first, read, result, answer, follow], [first, read, result, answer, follow, answer, follow]];
  const cch = ["a1b2c", "0f9e8", "77d01", "c3c3a"];
  return turns.map((m, i) => ({ body: claudeCodeBody(cch[i]!, m, billingAtTop), headers: claudeCodeHeaders(session) }));
}

describe("Claude Code", () => {
  it("with X-Claude-Code-Session-Id: one cc:…:conv: session per conversation, another for a sub-agent's", () => {
    const main = claudeCodeConversation("why is the cart total wrong?", true);
    const ids = idsOf("anthropic", main);
    expect(ids).toHaveLength(1);
    expect(ids[0]).toMatch(new RegExp(`^cc:${CC_SESSION}:conv:[0-9a-f]{16}$`));
    const sub = idsOf("anthropic", claudeCodeConversation("Find every caller of total()", true));
    expect([sub.length, sub[0] === ids[0]]).toEqual([1, false]);
  });

  it("without a session header: one fp: session per conversation, although every request has a new billing line and moved breakpoints", () => {
    const main = claudeCodeConversation("why is the cart total wrong?", false);
    expect(new Set(main.map((s) => (JSON.parse(s.body) as { system: { text: string }[] }).system[0]!.text)).size).toBe(4);
    const ids = idsOf("anthropic", main);
    expect(ids).toHaveLength(1);
    expect(keyOf("anthropic", main[0]!).source).toBe("fingerprint");
    expect(idsOf("anthropic", claudeCodeConversation("Find every caller of total()", false))[0]).not.toBe(ids[0]);
  });

  it("the billing line at the top of the identity block is left out too: the same key as a separate block", () => {
    for (const session of [true, false]) {
      const top = idsOf("anthropic", claudeCodeConversation("why is the cart total wrong?", session, true));
      expect(top).toEqual(idsOf("anthropic", claudeCodeConversation("why is the cart total wrong?", session)));
    }
  });
});
