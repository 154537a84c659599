/**
 * The summariser client against real HTTP servers on 127.0.0.1 started by the test: the
 * reference engine (tools/engine/server.ts, in process) for `engine`, and a small
 * OpenAI-compatible chat server that validates the request shape for `openai_chat`.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SummarizerConfig } from "../../../src/config/schema";
import { netBenefit } from "../../../src/core/cost/net-benefit";
import { COST_DEFAULTS } from "../../../src/core/cost/cost-defaults";
import type { SummaryTurn } from "../../../src/core/summary/types";
import { SUMMARY_INSTRUCTION } from "../../../src/engines/openai-chat-summary";
import { createSummarizer } from "../../../src/engines/summarizer";
import { createEngineServer } from "../../../tools/engine/server";
import { decide } from "../../../tools/engine/decide";
import { HAND_STRETCH, HAND_SUMMARY } from "../../support/summary-stretch";

const KEY = "sk-test-summary-0123";
const TURNS: SummaryTurn[] = [
  { role: "assistant", parts: [{ type: "text", text: "Running tests." }, { type: "tool_call", id: "call_1", name: "shell", input: "{\"command\":\"npm test\"}" }] },
  { role: "tool", parts: [{ type: "tool_result", id: "call_1", text: "Exit code: 1\nFAIL a.test.ts", is_error: false }] },
];
const TRANSCRIPT = "[assistant]\nRunning tests.\n\n[tool_call call_1 shell]\n{\"command\":\"npm test\"}\n\n[tool_result call_1]\nExit code: 1\nFAIL a.test.ts";
const COMPLETION = "Commands run:\n- `npm test` → exit 1 (FAIL a.test.ts)";

let engineBase = "";
let chatBase = "";
const servers: http.Server[] = [];
const problems: string[] = [];
let chatCalls = 0;

/** What a Chat Completions server checks before answering (request shape of openai-chat-summary.ts). */
function checkChatRequest(req: http.IncomingMessage, body: unknown): string | null {
  if (req.method !== "POST" || !req.url!.startsWith("/v1/chat/completions")) return `bad route ${req.method} ${req.url}`;
  if (req.headers.authorization !== `Bearer ${KEY}`) return "bad authorization";
  if (req.headers["content-type"] !== "application/json") return "bad content-type";
  const b = body as Record<string, unknown>;
  const model = ["gpt-4o", "qwen2.5-coder:7b"].includes(b.model as string) ? b.model : "gpt-4o";
  const want = { model, messages: [{ role: "system", content: SUMMARY_INSTRUCTION }, { role: "user", content: TRANSCRIPT }], temperature: 0, max_tokens: 1024, stream: false };
  return JSON.stringify(b) === JSON.stringify(want) ? null : `bad body ${JSON.stringify(b).slice(0, 200)}`;
}

async function listen(server: http.Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  engineBase = await listen(createEngineServer({ decide }));
  chatBase = await listen(http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    chatCalls++;
    const body = JSON.parse(Buffer.concat(chunks).toString()) as unknown;
    const send = (status: number, answer: unknown) => { res.writeHead(status, { "content-type": "application/json" }); res.end(JSON.stringify(answer)); };
    const problem = checkChatRequest(req, body);
    if (problem) { problems.push(problem); return send(400, { error: { message: problem } }); }
    const content = req.url!.endsWith("?empty") ? "  \n" : req.url!.endsWith("?null") ? null : COMPLETION;
    const answer = { id: "chatcmpl-1", object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }], usage: { prompt_tokens: 1234, completion_tokens: 56, total_tokens: 1290 } };
    // Never answers: only the summarizer's deadline can end the call, however busy the machine.
    if (req.url!.endsWith("?slow")) return;
    send(200, answer);
  }));
});

afterAll(async () => {
  for (const s of servers) { s.closeAllConnections(); await new Promise((r) => s.close(r)); }
});

const chat = (over: Partial<SummarizerConfig> = {}): SummarizerConfig => ({
  kind: "openai_chat", endpoint: `${chatBase}/v1/chat/completions`, model: "gpt-4o", api_key_env: "SUMMARY_KEY",
  timeout_ms: 5_000, max_summary_chars: 4_000, max_output_tokens: 1_024, input_per_mtok: null, output_per_mtok: null, ...over,
});
const deps = { env: { SUMMARY_KEY: KEY }, log: () => {} };

describe("summariser, reference engine backend", () => {
  it("returns the extractive summary with its token counts over the protocol", async () => {
    const s = createSummarizer({ ...chat(), kind: "engine", endpoint: `${engineBase}/summarize`, model: null, api_key_env: null }, false, deps);
    const out = await s.summarize(HAND_STRETCH);
    // Token counts: Sluice's estimates (src/core/tokens) of the turns as sent (JSON) and of the summary.
    expect(out).toMatchObject({ ok: true, summary: HAND_SUMMARY, input_tokens: 499, output_tokens: 138, cost_usd: 0, cost_source: "engine" });
  });

  it("the engine refuses a summarize request without turns with a 400 naming the field", async () => {
    const res = await fetch(`${engineBase}/summarize`, { method: "POST", body: JSON.stringify({ protocol: "sluice-engine/1", request: "summarize", model: null, max_summary_chars: 100, turns: [] }) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/^turns: /);
  });

  it("a stretch with nothing to report is no summary", async () => {
    const s = createSummarizer({ ...chat(), kind: "engine", endpoint: `${engineBase}/summarize`, api_key_env: null }, false, deps);
    const out = await s.summarize([{ role: "user", parts: [{ type: "text", text: "hi" }] }]);
    expect(out).toMatchObject({ ok: false, reason: "empty" });
  });
});

describe("summariser, OpenAI-compatible chat backend", () => {
  it("sends the fixed instruction and transcript, reads content and usage, prices them from the table", async () => {
    const out = await createSummarizer(chat(), false, deps).summarize(TURNS);
    expect(problems).toEqual([]);
    // gpt-4o: $2.50 in, $10 out per 10^6 tokens (src/core/cost/prices.ts).
    expect(out).toMatchObject({ ok: true, summary: COMPLETION, input_tokens: 1234, output_tokens: 56, cost_source: "price_table" });
    if (!out.ok) throw new Error("no summary");
    expect(out.cost_usd).toBeCloseTo(0.003645, 12);
    // The measured cost is the step's request cost, term ③ of the cost model.
    const terms = netBenefit({ history_tokens: 50_000, removed_tokens: 10_000, rewritten_tokens: 0, request_cost_usd: out.cost_usd },
      { remaining_calls: 10, prior_steps: 0, avg_call_tokens: 50_000, cache_cold: true }, COST_DEFAULTS);
    expect(terms.request_cost).toBe(out.cost_usd);
  });

  it("a configured price wins over the table", async () => {
    const out = await createSummarizer(chat({ input_per_mtok: 0.1, output_per_mtok: 0.2 }), false, deps).summarize(TURNS);
    expect(out).toMatchObject({ ok: true, cost_source: "configured" });
    if (out.ok) expect(out.cost_usd).toBeCloseTo(0.0001346, 12);
  });

  it("an unknown local model is unpriced: cost 0", async () => {
    const out = await createSummarizer(chat({ model: "qwen2.5-coder:7b" }), false, deps).summarize(TURNS);
    expect(out).toMatchObject({ ok: true, summary: COMPLETION, input_tokens: 1234, output_tokens: 56, cost_usd: 0, cost_source: "unpriced" });
  });

  it("past the deadline there is no summary, at once (the server never answers: returning at all is the deadline's doing)", async () => {
    const out = await createSummarizer(chat({ endpoint: `${chatBase}/v1/chat/completions?slow`, timeout_ms: 100 }), false, deps).summarize(TURNS);
    expect(out).toMatchObject({ ok: false, reason: "timeout" });
  });

  it("an empty or null completion is no summary", async () => {
    expect(await createSummarizer(chat({ endpoint: `${chatBase}/v1/chat/completions?empty` }), false, deps).summarize(TURNS)).toMatchObject({ ok: false, reason: "empty" });
    expect(await createSummarizer(chat({ endpoint: `${chatBase}/v1/chat/completions?null` }), false, deps).summarize(TURNS)).toMatchObject({ ok: false, reason: "empty" });
  });

  it("a server refusing the request is no summary, typed with its status", async () => {
    const out = await createSummarizer(chat({ model: "gpt-4o-mini" }), false, deps).summarize(TURNS);
    expect(out).toMatchObject({ ok: false, reason: "http_4xx", status: 400 });
    problems.length = 0;
  });

  it("a summary over max_summary_chars is no summary", async () => {
    expect(await createSummarizer(chat({ max_summary_chars: 20 }), false, deps).summarize(TURNS)).toMatchObject({ ok: false, reason: "too_long" });
  });

  it("without the credential in env nothing is sent", async () => {
    const before = chatCalls;
    const out = await createSummarizer(chat(), false, { env: {}, log: () => {} }).summarize(TURNS);
    expect(out).toMatchObject({ ok: false, reason: "missing_credential", detail: "env var SUMMARY_KEY is not set" });
    expect(chatCalls).toBe(before);
  });

  it("a remote endpoint without consent is refused before any call, naming consent_export_prompt", async () => {
    let called = false;
    const refusing = createSummarizer(chat({ endpoint: "https://api.openai.com/v1/chat/completions" }), false,
      { ...deps, fetch: async () => { called = true; return new Response("{}"); } });
    const out = await refusing.summarize(TURNS);
    expect(out).toMatchObject({ ok: false, reason: "refused" });
    if (!out.ok) expect(out.detail).toBe("summarizer.endpoint host api.openai.com is a hostname not known to be local (not 127.0.0.0/8, ::1, 10/8, 172.16/12, 192.168/16, fc00::/7 or localhost) and would receive whole turns: set consent_export_prompt to true to allow it");
    expect(called).toBe(false);
  });

  it("with consent a remote endpoint is called, and its host is logged once", async () => {
    const lines: string[] = [];
    const answer = { choices: [{ message: { content: COMPLETION } }], usage: { prompt_tokens: 10, completion_tokens: 5 } };
    const s = createSummarizer(chat({ endpoint: "https://api.openai.com/v1/chat/completions" }), true,
      { ...deps, log: (l) => lines.push(l), announced: new Set(), fetch: async () => new Response(JSON.stringify(answer), { status: 200 }) });
    await s.summarize(TURNS);
    const out = await s.summarize(TURNS);
    expect(out).toMatchObject({ ok: true, summary: COMPLETION, input_tokens: 10, output_tokens: 5 });
    expect(lines).toEqual(["sluice: remote summariser in use; destination host api.openai.com receives whole turns"]);
  });
});
