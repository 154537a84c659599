/**
 * Level `rewrite`, the gateway side of a summary: the stretch a summarize action covers as the
 * summariser reads it (src/core/summary/stretch-turns.ts), the summary writing before
 * decideForward (src/gateway/write-summaries.ts) with the in-process extractive summariser and
 * with an OpenAI-compatible server started by the test (answering, and failing with 500), and the
 * exact bytes decideForward forwards per provider for a host + two covered drop_pairs.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compactionConfigSchema } from "../../../src/config/schema";
import { stretchTurns } from "../../../src/core/summary/stretch-turns";
import type { SummaryTurn } from "../../../src/core/summary/types";
import { decideForward } from "../../../src/gateway/decide-forward";
import { prepareCompaction } from "../../../src/gateway/prepare-compaction";
import { writeSummaries } from "../../../src/gateway/write-summaries";
import type { Provider } from "../../../src/core/view/types";
import type { StepOutput } from "../../../src/session/contract";
import { ANTHROPIC, CHAT, RESPONSES } from "../../support/summary-requests";

const enc = new TextEncoder();
const dec = new TextDecoder();

function ready(provider: Provider, body: string) {
  const r = prepareCompaction(provider, new Headers({ "x-sluice-session": "s-1" }), enc.encode(body));
  if (r.kind !== "ready") throw new Error(r.note);
  return r;
}

/** A step output whose plan summarises `ids` (the first is the host) with `text`. */
function step(ids: string[], text: string | null): StepOutput {
  const actions: StepOutput["plan"]["actions"] = { [ids[0]!]: { kind: "summarize", covers: ids, text } };
  for (const id of ids.slice(1)) actions[id] = { kind: "drop_pair" };
  return { disabled: false, tier: "auto", plan: { actions }, step: 1, skipped: null, tokens_original: 100, tokens_after: 50, pairs_removed: 3, cost_estimate: 0, new_pair_ids: ids, warnings: [] };
}

const TEXT = 'Listed src; "npm test" failed.\nFixed src/a.ts.';
const BLOCK = '[sluice: summary of 3 earlier tool calls; their full results were removed from this conversation]\\nListed src; \\"npm test\\" failed.\\nFixed src/a.ts.';
const TAIL = '{"role":"assistant","content":"Fixed."},{"role":"user","content":"thanks"},{"role":"assistant","content":"Anything else?"},{"role":"user","content":"no"}]}';

/** What decideForward forwards for `body` with the summarize plan over `ids`. */
function forwarded(provider: Provider, body: string, ids: string[]): string {
  const d = decideForward(ready(provider, body), enc.encode(body), step(ids, TEXT), "compact", "c-1");
  expect(d.report.outcome).toBe("compacted");
  expect(d.report.pairs_removed).toBe(3);
  return dec.decode(d.body);
}

describe("rewrite: forwarded bytes for a summarize host and two covered drop_pairs", () => {
  it("Anthropic: the host's tool_result holds the block, the two later pairs and their messages are gone", () => {
    expect(forwarded("anthropic", ANTHROPIC, ["t1", "t2", "t3"])).toBe(
      `{"model":"claude-sonnet-4-5","max_tokens":100,"messages":[{"role":"user","content":"Fix the build"},{"role":"assistant","content":[{"type":"text","text":"Decision: check the sources first."},{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls src"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"${BLOCK}"}]},${TAIL}`,
    );
  });
  it("OpenAI Chat: the host's tool message holds the block", () => {
    expect(forwarded("openai-chat", CHAT, ["call_1", "call_2", "call_3"])).toBe(
      `{"model":"gpt-4o","messages":[{"role":"user","content":"Fix the build"},{"role":"assistant","content":"Decision: check the sources first.","tool_calls":[{"id":"call_1","type":"function","function":{"name":"shell","arguments":"{\\"command\\":\\"ls src\\"}"}}]},{"role":"tool","tool_call_id":"call_1","content":"${BLOCK}"},${TAIL}`,
    );
  });
  it("OpenAI Responses: the host's function_call_output holds the block", () => {
    expect(forwarded("openai-responses", RESPONSES, ["call_1", "call_2", "call_3"])).toBe(
      `{"model":"gpt-5","input":[{"role":"user","content":"Fix the build"},{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Decision: check the sources first."}]},{"type":"function_call","call_id":"call_1","name":"shell","arguments":"{\\"command\\":\\"ls src\\"}"},{"type":"function_call_output","call_id":"call_1","output":"${BLOCK}"},${TAIL}`,
    );
  });
  it("a plan whose text is not written yet leaves the host whole and removes only the covered pairs", () => {
    const d = decideForward(ready("openai-chat", CHAT), enc.encode(CHAT), step(["call_1", "call_2", "call_3"], null), "compact", "c-1");
    expect(dec.decode(d.body)).toContain('"tool_call_id":"call_1","content":"a.ts\\nb.ts"},{"role":"assistant","content":"Fixed."}');
    expect(d.report.pairs_removed).toBe(2);
  });
});

const LS = { type: "tool_call", name: "", id: "", input: '{"command":"ls src"}' } as const;
/** The expected stretch: prose + call 1, result 1, call 2, result 2 (an error where the wire says so), call 3, result 3. */
function expectedTurns(ids: string[], names: [string, string], resultRole: "user" | "tool", error: boolean): SummaryTurn[] {
  return [
    { role: "assistant", parts: [{ type: "text", text: "Decision: check the sources first." }, { ...LS, id: ids[0]!, name: names[0] }] },
    { role: resultRole, parts: [{ type: "tool_result", id: ids[0]!, text: "a.ts\nb.ts", is_error: false }] },
    { role: "assistant", parts: [{ type: "tool_call", id: ids[1]!, name: names[0], input: '{"command":"npm test"}' }] },
    { role: resultRole, parts: [{ type: "tool_result", id: ids[1]!, text: "Exit code: 1\nError: src/a.ts:3 missing semicolon", is_error: error }] },
    { role: "assistant", parts: [{ type: "tool_call", id: ids[2]!, name: names[1], input: '{"file_path":"src/a.ts"}' }] },
    { role: resultRole, parts: [{ type: "tool_result", id: ids[2]!, text: "ok", is_error: false }] },
  ];
}

describe("rewrite: the stretch the summariser reads", () => {
  it("Anthropic: prose of the call's message, calls with their input text, results in user turns with is_error", () => {
    const r = ready("anthropic", ANTHROPIC);
    expect(stretchTurns(r.parsed, r.adapter.historyKey, ["t1", "t2", "t3"])).toEqual(expectedTurns(["t1", "t2", "t3"], ["Bash", "Edit"], "user", true));
  });
  it("OpenAI Chat: the assistant content string is the prose; results in tool turns", () => {
    const r = ready("openai-chat", CHAT);
    expect(stretchTurns(r.parsed, r.adapter.historyKey, ["call_1", "call_2", "call_3"])).toEqual(expectedTurns(["call_1", "call_2", "call_3"], ["shell", "edit"], "tool", false));
  });
  it("OpenAI Responses: the assistant message item before the function_call joins its turn", () => {
    const r = ready("openai-responses", RESPONSES);
    expect(stretchTurns(r.parsed, r.adapter.historyKey, ["call_1", "call_2", "call_3"])).toEqual(expectedTurns(["call_1", "call_2", "call_3"], ["shell", "edit"], "tool", false));
  });
  it("only the covered pairs: a stretch of pair 2 alone has no prose; unknown ids give nothing", () => {
    const r = ready("anthropic", ANTHROPIC);
    expect(stretchTurns(r.parsed, r.adapter.historyKey, ["t2"])).toEqual(expectedTurns(["t1", "t2", "t3"], ["Bash", "Edit"], "user", true).slice(2, 4));
    expect(stretchTurns(r.parsed, r.adapter.historyKey, ["nope"])).toEqual([]);
  });
});

const EXTRACTED = "Files touched:\n- src/a.ts (Edit)\nCommands run:\n- `ls src` → ok\n- `npm test` → exit 1\nErrors:\n- `npm test` (exit 1): Error: src/a.ts:3 missing semicolon — not resolved in this stretch\nDecisions:\n- Decision: check the sources first.";

let base = "";
let calls = 0;
const server = http.createServer(async (req, res) => {
  for await (const _ of req) void _;
  calls++;
  if (req.url!.endsWith("/fail/v1/chat/completions")) {
    res.writeHead(500, { "content-type": "application/json" });
    return res.end('{"error":{"message":"boom"}}');
  }
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ choices: [{ message: { role: "assistant", content: "Ran ls and npm test; fixed src/a.ts." } }], usage: { prompt_tokens: 1000, completion_tokens: 100 } }));
});
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** The rewrite config with `summarizer` (null: the extractive one). */
const configWith = (summarizer: unknown) => compactionConfigSchema.parse({ guarantee_level: "rewrite", summarizer });
const chatSummarizer = (path: string) => ({ kind: "openai_chat", endpoint: `${base}${path}/v1/chat/completions`, model: "local-model", input_per_mtok: 1, output_per_mtok: 10 });

describe("rewrite: writing the summaries before decideForward", () => {
  it("extractive (summarizer null): the text is filled in, cost 0, and the forwarded block carries it", async () => {
    const r = ready("anthropic", ANTHROPIC);
    const got = await writeSummaries(step(["t1", "t2", "t3"], null), { parsed: r.parsed, adapter: r.adapter, config: configWith(null), env: {}, deadline_ms: 1000, now: () => 0 });
    expect(got.summaries).toEqual([{ pair_id: "t1", ok: true, text: EXTRACTED, input_tokens: 0, output_tokens: 0, cost_usd: 0, latency_ms: 0 }]);
    expect(got.out.plan.actions).toEqual({ t1: { kind: "summarize", covers: ["t1", "t2", "t3"], text: EXTRACTED }, t2: { kind: "drop_pair" }, t3: { kind: "drop_pair" } });
    const d = decideForward(r, r.parsed.bytes, got.out, "compact", "c-1");
    expect(dec.decode(d.body)).toContain(`"content":${JSON.stringify(`[sluice: summary of 3 earlier tool calls; their full results were removed from this conversation]\n${EXTRACTED}`)}}]}`);
  });

  it("a plan with nothing to write comes back as it was", async () => {
    const r = ready("anthropic", ANTHROPIC);
    const out = step(["t1", "t2", "t3"], "done");
    const got = await writeSummaries(out, { parsed: r.parsed, adapter: r.adapter, config: configWith(null), env: {}, deadline_ms: 1000 });
    expect(got.out).toBe(out);
    expect(got.summaries).toEqual([]);
  });

  it("openai_chat answering: the server's text is filled in with its tokens and priced cost", async () => {
    const r = ready("openai-chat", CHAT);
    const got = await writeSummaries(step(["call_1", "call_2", "call_3"], null), { parsed: r.parsed, adapter: r.adapter, config: configWith(chatSummarizer("/ok")), env: {}, deadline_ms: 5000 });
    expect(got.summaries).toEqual([{ pair_id: "call_1", ok: true, text: "Ran ls and npm test; fixed src/a.ts.", input_tokens: 1000, output_tokens: 100, cost_usd: 0.002, latency_ms: expect.any(Number) }]);
    expect(got.out.plan.actions.call_1).toEqual({ kind: "summarize", covers: ["call_1", "call_2", "call_3"], text: "Ran ls and npm test; fixed src/a.ts." });
  });

  it("openai_chat failing with 500: the host becomes drop_pair (removal only) and the report says why", async () => {
    const r = ready("openai-chat", CHAT);
    const before = calls;
    const got = await writeSummaries(step(["call_1", "call_2", "call_3"], null), { parsed: r.parsed, adapter: r.adapter, config: configWith(chatSummarizer("/fail")), env: {}, deadline_ms: 5000 });
    expect(calls).toBe(before + 1);
    expect(got.summaries).toEqual([{ pair_id: "call_1", ok: false, reason: "http_5xx", latency_ms: expect.any(Number) }]);
    expect(got.out.plan.actions).toEqual({ call_1: { kind: "drop_pair" }, call_2: { kind: "drop_pair" }, call_3: { kind: "drop_pair" } });
    const d = decideForward(r, r.parsed.bytes, got.out, "compact", "c-1");
    expect(dec.decode(d.body)).toBe(`{"model":"gpt-4o","messages":[{"role":"user","content":"Fix the build"},{"role":"assistant","content":"Decision: check the sources first."},${TAIL}`);
  });

  it("no time left: the backend is not called and the host becomes drop_pair", async () => {
    const r = ready("openai-chat", CHAT);
    const before = calls;
    const got = await writeSummaries(step(["call_1", "call_2", "call_3"], null), { parsed: r.parsed, adapter: r.adapter, config: configWith(chatSummarizer("/ok")), env: {}, deadline_ms: 0 });
    expect(calls).toBe(before);
    expect(got.summaries).toEqual([{ pair_id: "call_1", ok: false, reason: "timeout", latency_ms: 0 }]);
  });
});
