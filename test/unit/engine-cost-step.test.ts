/**
 * Term ③ from the engine's real cost: a local HTTP engine (a Node server on 127.0.0.1) answers
 * with `cost_usd`, and the session's step (src/session/session.ts over node:sqlite) prices the
 * step with it, counts it, and keeps the step's five terms in the session's stats.
 */
import { describe, expect, it } from "vitest";
import { compactionConfigSchema } from "../../src/config/schema";
import { encodeStepFacts } from "../../src/core/facts/wire-facts";
import { configHash, type StepOutput } from "../../src/session/contract";
import { Session } from "../../src/session/session";
import { createMemorySql } from "../../tools/replay/sluice/create-memory-sql";
import { onTestFinished } from "vitest";
import { dropAllEngine } from "../support/drop-all-engine";
import { factsOf, lines, makeView, type MessageSpec } from "../support/make-view";

// Every candidate's result goes (confidence 0.9); the path sets the reported cost: /cost/<usd>.
const engine = dropAllEngine((url) => ({ cost_usd: Number(url.split("/").at(-1)) }));

/**
 * 20 turns of a distinct 20,000-byte Bash log each: the old pairs have forgone more than the
 * step's cache write, so the warm step is taken at once (src/core/policy/step-timing.ts).
 */
function session20() {
  const m: MessageSpec[] = [{ role: "user", text: "build" }];
  for (let i = 0; i < 20; i++) {
    m.push({ role: "assistant", calls: [{ id: `t${i}`, tool: "Bash", input: { command: `make build-${i}` } }] });
    m.push({ role: "user", results: [{ id: `t${i}`, text: lines(20_000, `r${String.fromCharCode(97 + i)}`) }] });
  }
  return makeView({ model: "claude-sonnet-4-5", outside_tokens: 1_000, messages: m });
}

async function stepWithEngineCost(cost: string) {
  const { sql, close } = createMemorySql();
  onTestFinished(() => close());
  const session = new Session({ sql, env: {}, trace: { append: () => undefined } });
  const config = compactionConfigSchema.parse({ enabled: true, engine: "local", endpoint: `${engine.base()}/cost/${cost}`, timeout_ms: 5_000, min_remaining_calls: 8 });
  const facts = encodeStepFacts(factsOf(session20(), { engine: "local", head_chars: config.head_chars }));
  const out = (await session.step({ session_id: "s1", facts, config_hash: configHash(config), config, mode: "compact", correlation_id: "c1", now_ms: 1_000_000 })) as StepOutput;
  return { out, stats: await session.stats() };
}

describe("the engine's reported cost prices the step (term ③)", () => {
  it("a cheap answer: the step is taken with request_cost = cost_usd, counted, and its terms are in the session's stats", async () => {
    const { out, stats } = await stepWithEngineCost("0.0042");
    expect(out.step).toBe(1);
    expect(out.terms!.request_cost).toBe(0.0042);
    // First call of the session, no deployment table: R = the seed prior max(8, 1 + ⌊1/3⌋) = 8.
    expect([out.terms!.remaining_calls, out.terms!.remaining_calls_source]).toEqual([8, "seed"]);
    expect(out.terms!.net).toBeCloseTo(out.terms!.future_savings - out.terms!.cache_miss - 0.0042 - out.terms!.distortion + out.terms!.quality_gain, 12);
    expect(stats.counters.engine_cost_usd).toBe(0.0042);
    expect(stats.counters.engine_calls).toBe(1);
    expect(stats.steps.map((s) => [s.step, s.correlation_id, s.terms])).toEqual([[1, "c1", out.terms]]);
  });
  it("an answer that costs more than the step gains: no step, the cost still counted", async () => {
    const cheap = await stepWithEngineCost("0");
    const gain = cheap.out.terms!.net;
    const { out, stats } = await stepWithEngineCost(String(gain + 0.001));
    expect([out.step, out.skipped, out.terms]).toEqual([null, "not_positive", undefined]);
    expect(stats.counters.engine_cost_usd).toBeCloseTo(gain + 0.001, 12);
    expect(stats.steps).toEqual([]);
  });
});
