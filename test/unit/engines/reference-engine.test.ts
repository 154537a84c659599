/**
 * The reference local engine as a real process (npm run engine), driven through the same path
 * the gateway uses: loadConfig → createEngine → buildEngineRequest → decide. Every failure ends
 * in a typed outcome with its reason (no plan → the caller forwards the original bytes). Its
 * POST /summarize is driven the same way: loadConfig → createSummarizer → summarize.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/load-config";
import type { ToolPair } from "../../../src/core/view/types";
import { pairFacts } from "../../../src/core/facts/step-facts";
import { buildEngineRequest } from "../../../src/engines/build-engine-request";
import { createEngine } from "../../../src/engines/create-engine";
import type { HttpEngine } from "../../../src/engines/http-engine";
import { createSummarizer } from "../../../src/engines/summarizer";
import { spawnEngine, type SpawnedEngine } from "../../support/spawn-engine";
import { HAND_STRETCH, HAND_SUMMARY } from "../../support/summary-stretch";
import { ToolCallMemo } from "../../../src/core/engine/read-tool-call-memo";

const pair = (id: string, over: Partial<ToolPair>): ToolPair => ({
  id, tool_name: "Read", input_text: '{"file_path":"/src/app.ts"}', input_bytes: 27, call: { message_index: 1, block_index: 0 },
  result: { message_index: 2, block_index: 0 }, turn_index: 1, result_text: "export const a = 1;\n", result_bytes: 22,
  result_est_tokens: 6, result_is_error: false, result_media_count: 0, result_hash: "00", locked: null, ...over,
});
const PAIRS = [
  pair("toolu_01", { turn_index: 1 }),
  pair("toolu_02", { turn_index: 2, tool_name: "Bash", input_text: '{"command":"npm test"}', result_text: "Error: missing script", result_is_error: true }),
  pair("toolu_03", { turn_index: 3, tool_name: "Bash", input_text: '{"command":"npm test"}', result_text: "ok" }),
  pair("toolu_04", { turn_index: 4 }),
];
const REQUEST = buildEngineRequest(PAIRS.map((p) => pairFacts(p, { head_chars: 500, engine: "local" }, new ToolCallMemo())), { model: null, head_chars: 500, turn_count: 8 });

const engines: Record<string, SpawnedEngine> = {};
beforeAll(async () => {
  const started = await Promise.all([undefined, "slow:30000", "status:500", "garbage", "reset"].map((f) => spawnEngine(f)));
  ["good", "slow", "500", "garbage", "reset"].forEach((k, i) => { engines[k] = started[i]!; });
}, 120_000);
afterAll(async () => { await Promise.all(Object.values(engines).map((e) => e.stop())); });

/** Deadline for answers that should arrive (generous: a loaded CI box) and for the slow fault. */
const GOOD_TIMEOUT_MS = 10_000;
const SLOW_TIMEOUT_MS = 1_500;

function localEngine(endpoint: string, timeout_ms: number): HttpEngine {
  const loaded = loadConfig({ COMPACTION_CONFIG: JSON.stringify({ engine: "local", endpoint, timeout_ms }) });
  if (!loaded.ok) throw new Error(loaded.error.message);
  const engine = createEngine(loaded.config, { env: {}, log: () => {}, announced: new Set() });
  if (engine.kind === "heuristic") throw new Error("expected an HTTP engine");
  return engine;
}
const outcome = async (endpoint: string, timeout_ms = GOOD_TIMEOUT_MS) => {
  const out = await localEngine(endpoint, timeout_ms).decide(REQUEST);
  return out.ok ? { plan: out.plan, verdicts: out.verdicts } : { reason: out.reason, detail: out.detail };
};

describe("reference engine process", () => {
  it("answers the protocol: older duplicate read and the failed-then-retried command are dropped (core heuristic)", async () => {
    // The older read is small (under REPEATED_CALL_MIN_BYTES with its input: src/core/engine/rule-superseded-command.ts),
    // so the duplicate rule leaves it to the superseded-read rule, at its confidence 0.9.
    expect(await outcome(engines.good!.endpoint)).toEqual({
      plan: { actions: { toolu_01: { kind: "drop_pair" }, toolu_02: { kind: "drop_pair" } } },
      verdicts: [
        { id: "toolu_01", verdict: "drop_pair", confidence: 0.9 },
        { id: "toolu_02", verdict: "drop_pair", confidence: 0.85 },
        { id: "toolu_03", verdict: "keep", confidence: 1 },
        { id: "toolu_04", verdict: "keep", confidence: 1 },
      ],
    });
  });

  it("refuses a request the protocol does not allow with 400", async () => {
    const res = await fetch(engines.good!.endpoint, { method: "POST", body: JSON.stringify({ protocol: "sluice-engine/1", candidates: [] }) });
    expect([res.status, await res.json()]).toEqual([400, { error: { message: "model: Invalid input: expected string, received undefined" } }]);
    const health = await fetch(engines.good!.endpoint.replace("/decide", "/healthz"));
    expect(await health.json()).toEqual({ ok: true, protocol: "sluice-engine/1" });
  });

  it("slow past the deadline → timeout", async () => {
    expect(await outcome(engines.slow!.endpoint, SLOW_TIMEOUT_MS)).toEqual({ reason: "timeout", detail: "no answer within 1500 ms" });
  });

  it("500 → http_5xx", async () => {
    expect(await outcome(engines["500"]!.endpoint)).toEqual({ reason: "http_5xx", detail: "status 500" });
  });

  it("garbage → malformed", async () => {
    expect(await outcome(engines.garbage!.endpoint)).toEqual({ reason: "malformed", detail: "answer is not JSON" });
  });

  it("reset → network", async () => {
    expect(await outcome(engines.reset!.endpoint)).toEqual({ reason: "network", detail: "TypeError (UND_ERR_SOCKET)" });
  });

  it("closed port → network", async () => {
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    expect(await outcome(`http://127.0.0.1:${port}/decide`)).toEqual({ reason: "network", detail: "TypeError (ECONNREFUSED)" });
  });
});

describe("the reference engine's summarize, through loadConfig → createSummarizer", () => {
  const summarizerOf = (endpoint: string) => {
    const loaded = loadConfig({ COMPACTION_CONFIG: JSON.stringify({ summarizer: { kind: "engine", endpoint: endpoint.replace(/\/decide$/, "/summarize"), timeout_ms: SLOW_TIMEOUT_MS * 2 } }) });
    if (!loaded.ok || loaded.config.summarizer === null) throw new Error("config refused");
    return createSummarizer(loaded.config.summarizer, loaded.config.consent_export_prompt, { env: {} });
  };

  it("answers the extractive summary", async () => {
    expect(await summarizerOf(engines.good!.endpoint).summarize(HAND_STRETCH)).toMatchObject({ ok: true, summary: HAND_SUMMARY, cost_usd: 0, cost_source: "engine" });
  });

  it("slow → timeout, garbage → malformed: no summary", async () => {
    expect(await summarizerOf(engines.slow!.endpoint).summarize(HAND_STRETCH)).toMatchObject({ ok: false, reason: "timeout" });
    expect(await summarizerOf(engines.garbage!.endpoint).summarize(HAND_STRETCH)).toMatchObject({ ok: false, reason: "malformed", detail: "answer is not JSON" });
  });
});
