/**
 * The session's side of the `rewrite` level's summary (src/session/compaction-ledger.ts), through the
 * SessionObject's RPCs in workerd: the step at context pressure decides the stretch (summarize
 * with text null), the report's written summary becomes the host's ledger text, and the next
 * step's plan carries it; a failed summary turns the host into drop_pair. Counters, stats and
 * the savings ledger's engine-cost term hold the summaries' figures.
 */
import { runInDurableObject } from "cloudflare:test";
import { StateTx } from "../../src/session/state";
import { configHash } from "../../src/session/contract";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load-config";
import { stepFactsOf } from "../../src/core/facts/step-facts";
import { encodeStepFacts } from "../../src/core/facts/wire-facts";
import { loadLedger } from "../../src/session/compaction-ledger";
import type { SessionObject } from "../../src/session/session-object";
import type { OutcomeReport, StepOutput, WrittenSummary } from "../../src/session/contract";
import { lines, makeView, type MessageSpec } from "../support/make-view";
import { sessionStub } from "./admin-seed";
import { ToolCallMemo } from "../../src/core/engine/read-tool-call-memo";

/** 14 Bash turns of 40,000-byte results (10,000 tokens each) behind 10,000 tokens of system and tools: ≥ 70 % of claude-sonnet-4-5's 200,000 window (auto). */
function view() {
  const m: MessageSpec[] = [{ role: "user", text: "fix the build" }];
  for (let i = 0; i < 14; i++) {
    m.push({ role: "assistant", calls: [{ id: `t${i}`, tool: "Bash", input: { command: `make step-${i}` } }] });
    m.push({ role: "user", results: [{ id: `t${i}`, text: lines(40_000, `r${i}`) }] });
  }
  return makeView({ model: "claude-sonnet-4-5", outside_tokens: 10_000, messages: m });
}

const loaded = loadConfig({ COMPACTION_CONFIG: '{"guarantee_level": "rewrite", "min_remaining_calls": 8}' });
if (!loaded.ok) throw new Error(loaded.error.message);
const config = loaded.config;
/** The oldest run of old pairs: t0–t9 (the last 4 turns are recent). */
const COVERS = ["t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9"];

async function stepOf(id: string, k: number): Promise<StepOutput> {
  return (await sessionStub(id).step({ session_id: id, facts: encodeStepFacts(stepFactsOf(view(), config, new ToolCallMemo())), config_hash: configHash(config), config, mode: "compact", correlation_id: `req-${k}`, now_ms: Date.now() })) as StepOutput;
}
const outcome = (k: number, step: StepOutput, summaries: WrittenSummary[]): OutcomeReport => ({
  correlation_id: `req-${k}`, outcome: "compacted", rollback_step: null, tokens_original: step.tokens_original, tokens_sent: step.tokens_after, tier: step.tier, pairs_removed: step.pairs_removed, would_send: null, summaries,
});

describe("rewrite: the session keeps the summaries it wrote", () => {
  it("written: the host's entry takes the text, the next plan re-applies it; counters, stats and the ledger's engine cost hold it", async () => {
    const id = "rewrite-ok-1";
    const first = await stepOf(id, 0);
    expect([first.tier, first.step, first.skipped]).toEqual(["auto", 1, null]);
    expect(first.plan.actions.t0).toEqual({ kind: "summarize", covers: COVERS, text: null });
    expect(COVERS.slice(1).map((p) => first.plan.actions[p])).toEqual(Array(9).fill({ kind: "drop_pair" }));
    const text = "Ran make step-0 … step-9: all exit 0.";
    const answer = await sessionStub(id).report({ outcome: outcome(0, first, [{ pair_id: "t0", ok: true, text, input_tokens: 9_042, output_tokens: 12, cost_usd: 0.0011, latency_ms: 35 }]), usage: null, estimated_input_tokens: 0, now_ms: Date.now() });
    expect(answer.ledger!.engine_cost_usd).toBe(0.0011);
    await runInDurableObject(sessionStub(id), (_o: SessionObject, state) => {
      const entry = Object.values(loadLedger(new StateTx(state.storage.sql)).entries).find((e) => e.pair_id === "t0")!;
      expect(entry.action).toEqual({ kind: "summarize", covers: COVERS, text });
    });
    const second = await stepOf(id, 1);
    expect(second.plan.actions.t0).toEqual({ kind: "summarize", covers: COVERS, text });
    // A second write for the same host (a concurrent request) does not change the bytes already sent.
    await sessionStub(id).report({ outcome: outcome(1, second, [{ pair_id: "t0", ok: true, text: "another text", input_tokens: 9_042, output_tokens: 3, cost_usd: 0.0009, latency_ms: 20 }]), usage: null, estimated_input_tokens: 0, now_ms: Date.now() });
    expect((await stepOf(id, 2)).plan.actions.t0).toEqual({ kind: "summarize", covers: COVERS, text });
    const stats = await sessionStub(id).stats();
    expect(stats.summaries).toEqual({ written: 2, failed: 0, input_tokens: 18_084, output_tokens: 15, cost_usd: 0.002 });
    expect(stats.counters.ledger_engine_cost_usd).toBe(0.002);
  });

  it("failed: the host's entry becomes drop_pair (the step fell back to removal only), counted as failed", async () => {
    const id = "rewrite-fail-1";
    const first = await stepOf(id, 0);
    expect(first.plan.actions.t0).toEqual({ kind: "summarize", covers: COVERS, text: null });
    await sessionStub(id).report({ outcome: outcome(0, first, [{ pair_id: "t0", ok: false, reason: "timeout", latency_ms: 10_000 }]), usage: null, estimated_input_tokens: 0, now_ms: Date.now() });
    const next = await stepOf(id, 1);
    expect(COVERS.map((p) => next.plan.actions[p])).toEqual(Array(10).fill({ kind: "drop_pair" }));
    expect((await sessionStub(id).stats()).summaries).toEqual({ written: 0, failed: 1, input_tokens: 0, output_tokens: 0, cost_usd: 0 });
  });

  it("rolled back: the step's entries are gone, the summary paid is still counted", async () => {
    const id = "rewrite-rollback-1";
    const first = await stepOf(id, 0);
    const report = { ...outcome(0, first, [{ pair_id: "t0", ok: true, text: "x", input_tokens: 100, output_tokens: 1, cost_usd: 0.0001, latency_ms: 5 }] as WrittenSummary[]), outcome: "guarantee_check" as const, rollback_step: 1 };
    await sessionStub(id).report({ outcome: report, usage: null, estimated_input_tokens: 0, now_ms: Date.now() });
    await runInDurableObject(sessionStub(id), (_o: SessionObject, state) => {
      expect(Object.keys(loadLedger(new StateTx(state.storage.sql)).entries)).toEqual([]);
    });
    expect((await sessionStub(id).stats()).summaries).toEqual({ written: 1, failed: 0, input_tokens: 100, output_tokens: 1, cost_usd: 0.0001 });
  });
});
