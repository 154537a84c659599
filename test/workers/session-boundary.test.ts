/**
 * The session at its boundary (src/session/session.ts behind the SessionObject Durable Object,
 * called over RPC as the gateway calls it): literal input in, whole output compared. The step
 * facts are those of a small literal Anthropic conversation, built as the gateway builds them
 * (prepareCompaction → stepFactsFor → encodeStepFacts). Times are virtual, from T (a fixed date
 * after any real clock these tests run under, so no alarm the DO sets fires on its own); alarms
 * run at their scheduled time (./virtual-alarms.ts).
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load-config";
import type { CompactionConfig } from "../../src/config/schema";
import { encodeStepFacts, type WireFacts } from "../../src/core/facts/wire-facts";
import { prepareCompaction, stepFactsFor } from "../../src/gateway/prepare-compaction";
import { configHash, type CallReport, type StepInput, type StepOutput } from "../../src/session/contract";
import type { SessionStats } from "../../src/session/session";
import type { SessionObject } from "../../src/session/session-object";
import { newTestId, utf8 } from "./helpers";
import { LITERAL_CONFIG, literalAnthropic, logText, sessionStub } from "./pipeline-harness";
import { runAlarmAt, scheduledAlarm } from "./virtual-alarms";

/** 2031-01-01T00:00:00Z. */
const T = Date.UTC(2031, 0, 1);

/** LITERAL_CONFIG (two old tool results collapsible by micro) as the Worker loads it; its hash is not the DO env's (compaction off there). */
const CONFIG: CompactionConfig = (() => {
  const r = loadConfig({ COMPACTION_CONFIG: JSON.stringify(LITERAL_CONFIG) });
  if (!r.ok) throw new Error(r.error.message);
  return r.config;
})();

/** user → tool_use A → 12-line result → tool_use B → 12-line result → "Both ran." → "Next, please.": 439 estimated tokens, two pairs of 386 result bytes. */
const FACTS: WireFacts = (() => {
  const headers = new Headers({ "x-sluice-session": "boundary" });
  const prepared = prepareCompaction("anthropic", headers, utf8(JSON.stringify(literalAnthropic(logText("a", 12), logText("b", 12)))));
  if (prepared.kind !== "ready") throw new Error(prepared.note);
  return encodeStepFacts(stepFactsFor(prepared, CONFIG, headers, null));
})();

/** The step the gateway sends for the literal conversation at `now_ms` (the config only when asked for). */
const stepInput = (session_id: string, now_ms: number, correlation_id: string, withConfig = false): StepInput => ({
  session_id, facts: FACTS, config_hash: configHash(CONFIG), mode: "compact", correlation_id, now_ms, ...(withConfig ? { config: CONFIG } : {}),
});

/** The report of an unchanged call at `now_ms`: 100 uncached input, 900 cache-write and 20 output tokens. */
const unchangedReport = (correlation_id: string, now_ms: number): CallReport => ({
  outcome: { correlation_id, outcome: "unchanged", rollback_step: null, tokens_original: 439, tokens_sent: 439, tier: "none", pairs_removed: 0, would_send: null },
  usage: { input_tokens: 100, cache_read_input_tokens: 0, cache_creation_input_tokens: 900, output_tokens: 20 },
  estimated_input_tokens: 439,
  now_ms,
});

/**
 * The first call's answer: micro is the tier, but with a warm cache no step pays (`not_positive`); nothing to apply. The
 * cut it declined: both results truncated (H 114, K 179, first edit after 108 tokens), priced at R 8, avg 439, Sonnet 4.5
 * with a 5-minute write: 7 × $0.30 × 114 − 179 × $3.45 − 0.03 × 0.2 × 8 × 439 × $3 + 0.2 × $3 × (439² − 325²) / 200,000, / 10^6.
 */
const FIRST_OUTPUT: StepOutput = {
  disabled: false, tier: "micro", skipped: "not_positive", plan: { actions: {} }, step: null,
  tokens_original: 439, tokens_after: 439, pairs_removed: 0, cost_estimate: 0, new_pair_ids: [], warnings: [],
  declined: { removed_tokens: 114, rewritten_tokens: 179, first_edit_tokens: 108, request_tokens: 439, net_usd: -0.000441104712 },
};

/**
 * 400 s later, no answer reported in between (past the 300 s cache TTL): time_based truncates
 * both results to their first 186 bytes, 114 estimated tokens out (439 → 325); cost estimate =
 * 114 / 1000 × $0.003 (Sonnet 4.5 input per 1k) × 0.10 (time_based weight); without an answer
 * the average request is the estimate itself (439) and R the seed's 8.
 */
const SECOND_OUTPUT: StepOutput = {
  disabled: false, tier: "time_based", skipped: null,
  plan: { actions: { toolu_A: { kind: "truncate_result", head_bytes: 186 }, toolu_B: { kind: "truncate_result", head_bytes: 186 } } },
  step: 1, tokens_original: 439, tokens_after: 325, pairs_removed: 2, cost_estimate: 0.000034200000000000005,
  new_pair_ids: ["toolu_A", "toolu_B"], warnings: [],
  // The time_based tier cuts a long result to its head: the rule the replay charges the removal to.
  new_pair_rules: [{ pair_id: "toolu_A", rule: "long_result" }, { pair_id: "toolu_B", rule: "long_result" }],
  terms: {
    future_savings: 0.00023940000000000002, cache_miss: 0, request_cost: 0, distortion: 0.00006321599999999999, quality_gain: 2.6128800000000003e-7,
    net: 0.00017644528800000002, remaining_calls: 8, remaining_calls_source: "seed", avg_request_tokens: 439, removed_tokens: 114, rewritten_tokens: 179,
  },
};

/** A session that has seen nothing (also what retention leaves). */
const FRESH_STATS: SessionStats = {
  session_id: null, model: null, provider: null, calls: 0, last_activity_ms: null, last_tier: null, disabled: false, idle: false, complete: false,
  project_key: null, counters: {}, steps: [], calls_log: [], cache_hit_ratio: null, calibration_ratio: null, calibration_growth_ratio: null, calibration_removal_ratio: null,
  summaries: { written: 0, failed: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 },
  ledger: {
    mode: "compact", priced_calls: 0, requests: 0, without_usd: 0, with_usd: 0, saved_usd: 0, saved_share: null, engine_cost_usd: 0, worst_case_loss_usd: 0,
    balance_usd: 0, ratio: null, engine_wait_ms: null, engine_wait_share: null, removals: 0, refetched_share: null, mentioned_share: null, deterministic_share: null,
  },
};

/** A new session's id and stub. */
function newSession(): { sid: string; stub: DurableObjectStub<SessionObject> } {
  const sid = newTestId("boundary");
  return { sid, stub: sessionStub(sid) };
}

/**
 * The message `p` rejects with ("resolved" when it does not), settled with `then` at once: with
 * `expect(p).rejects` on an RPC promise (also a pipelining stub) workerd reported the remote
 * error a second time, as an unhandled rejection.
 */
const rejection = (p: Promise<unknown>): Promise<string> => Promise.resolve(p).then(() => "resolved", (e: Error) => e.message);

describe("step: the config travels by hash", () => {
  it("an unknown hash is answered config_unknown; the step with the config gets the whole output; a later step needs only the hash", async () => {
    const { sid, stub } = newSession();
    expect(await stub.step(stepInput(sid, T, "c1"))).toEqual({ config_unknown: true });
    expect(await stub.step(stepInput(sid, T, "c1", true))).toEqual(FIRST_OUTPUT);
    expect(await stub.step(stepInput(sid, T + 400_000, "c2"))).toEqual(SECOND_OUTPUT);
  });
});

describe("report and stats", () => {
  it("a report gets the whole ReportAnswer; stats are the whole SessionStats", async () => {
    const { sid, stub } = newSession();
    await stub.step(stepInput(sid, T, "c1", true));
    // Sonnet 4.5 (src/core/cost/prices.ts): input $3/Mtok, cache write 1.25 × input, output $15/Mtok.
    // Input cost: 100 × 3 + 900 × 3.75 = 3675 µ$ (nothing left the body: without = with).
    expect(await stub.report(unchangedReport("c1", T + 60_000))).toEqual({
      recorded: { calls: 1, tokens_saved: 0, usd_saved: 0 },
      ledger: {
        mode: "compact", requests: 1, priced_calls: 1, without_usd: 0.003675, with_usd: 0.003675, engine_cost_usd: 0, loss_usd: 0,
        removals: 0, removals_deterministic: 0, removals_refetched: 0, removals_mentioned: 0, engine_waits: 0, engine_wait_ms: 0,
      },
    });
    expect(await stub.stats()).toEqual({
      session_id: sid, model: "claude-sonnet-4-5", provider: "anthropic", calls: 1, last_activity_ms: T + 60_000, last_tier: "micro",
      disabled: false, idle: false, complete: false, project_key: null,
      counters: {
        ledger_priced_calls: 1, ledger_requests: 1, ledger_with_usd: 0.003675, ledger_without_usd: 0.003675,
        calibration_estimated: 439, calibration_reported: 1000,
        reports: 1, request_tokens_estimated: 439, requests: 1, tokens_original: 439, tokens_sent: 439, unchanged: 1,
        // 0.003675 input + 20 × $15/Mtok output.
        usage_cache_creation_input_tokens: 900, usage_cost_usd: 0.003975, usage_input_tokens: 100, usage_output_tokens: 20, usage_reports: 1,
      },
      steps: [],
      calls_log: [{ seq: 1, at_ms: T + 60_000, tokens_original: 439, tokens_sent: 439, tier: "none", outcome: "unchanged" }],
      // No cache read; 1000 reported ÷ 439 estimated.
      cache_hit_ratio: 0, calibration_ratio: 1000 / 439, calibration_growth_ratio: 1000 / 439, calibration_removal_ratio: 1000 / 439,
      summaries: { written: 0, failed: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 },
      ledger: {
        mode: "compact", priced_calls: 1, requests: 1, without_usd: 0.003675, with_usd: 0.003675, saved_usd: 0, saved_share: 0, engine_cost_usd: 0, worst_case_loss_usd: 0,
        balance_usd: 0, ratio: null, engine_wait_ms: null, engine_wait_share: 0, removals: 0, refetched_share: null, mentioned_share: null, deterministic_share: null,
      },
    });
  });

  it("the DO's alarm follows the session's last activity: an answer that ends 60 s after the step moves the idle alarm to 300 s after the answer", async () => {
    const { sid, stub } = newSession();
    await stub.step(stepInput(sid, T, "c1", true));
    await stub.report(unchangedReport("c1", T + 60_000));
    expect((await stub.stats()).last_activity_ms).toBe(T + 60_000);
    expect(await scheduledAlarm(stub)).toBe(T + 360_000);
  });
});

describe("typed state: a stored slot that fails its schema is a counted fail-open, not a crash", () => {
  it("the session record corrupted: the next step answers as on a new record and state_invalid_session is counted", async () => {
    const { sid, stub } = newSession();
    await stub.step(stepInput(sid, T, "c1", true));
    await stub.report(unchangedReport("c1", T));
    await runInDurableObject(stub, (_o: SessionObject, state: DurableObjectState) => {
      state.storage.sql.exec("UPDATE state SET json = 'x' WHERE name = 'session'");
    });
    // The same decision; avg comes from the session's request sizes, a slot of its own that kept the first answer's 1,000 tokens.
    expect(await stub.step(stepInput(sid, T + 120_000, "c2"))).toEqual({ ...FIRST_OUTPUT, declined: { ...FIRST_OUTPUT.declined!, net_usd: -0.000521888712 } });
    const s = await stub.stats();
    // The record started again with this call: one call, no calibration; the counters kept theirs.
    expect({ invalid: s.counters.state_invalid_session, calls: s.calls, last_activity_ms: s.last_activity_ms, calibration_ratio: s.calibration_ratio, reports: s.counters.reports })
      .toEqual({ invalid: 1, calls: 1, last_activity_ms: T + 120_000, calibration_ratio: null, reports: 1 });
  });

  it("an operator's kill switch survives a corrupted record: the next step is still disabled", async () => {
    const { sid, stub } = newSession();
    await stub.step(stepInput(sid, T, "c1", true));
    await stub.setDisabled(true);
    await runInDurableObject(stub, (_o: SessionObject, state: DurableObjectState) => {
      state.storage.sql.exec("UPDATE state SET json = 'x' WHERE name = 'session'");
    });
    const out = (await stub.step(stepInput(sid, T + 120_000, "c2"))) as StepOutput;
    expect([out.disabled, out.plan, out.step]).toEqual([true, { actions: {} }, null]);
    const s = await stub.stats();
    expect([s.disabled, s.counters.state_invalid_session, s.counters.disabled_requests]).toEqual([true, 1, 1]);
  });
});

describe("the contract is checked at the boundary", () => {
  it("a step or report with a bad field is refused with an error naming the field, and records nothing", async () => {
    const { sid, stub } = newSession();
    const bad = structuredClone(stepInput(sid, T, "c1", true));
    (bad.facts.pairs[0] as unknown[])[1] = "x";
    expect(await rejection(stub.step(bad))).toBe("step input: facts.pairs.0.1: Invalid input: expected number, received string");
    const report = unchangedReport("c1", T);
    expect(await rejection(stub.report({ ...report, usage: { ...report.usage!, input_tokens: -1 } }))).toBe("report: usage.input_tokens: Too small: expected number to be >=0");
    expect(await stub.stats()).toEqual(FRESH_STATS);
  });
});

describe("alarms: idle → complete → retention", () => {
  it("each runs at its scheduled time; retention leaves the statistics of a session that never ran", async () => {
    const { sid, stub } = newSession();
    expect(await stub.stats()).toEqual(FRESH_STATS);
    await stub.step(stepInput(sid, T, "c1", true));
    await stub.report(unchangedReport("c1", T));
    const phase = async () => {
      const s = await stub.stats();
      return { idle: s.idle, complete: s.complete, alarms_idle: s.counters.alarms_idle, alarms_complete: s.counters.alarms_complete, next: await scheduledAlarm(stub) };
    };
    // Defaults: idle 300 s, complete 3600 s, retention 604 800 s after the last activity.
    expect(await phase()).toEqual({ idle: false, complete: false, alarms_idle: undefined, alarms_complete: undefined, next: T + 300_000 });
    expect(await runAlarmAt(stub, T + 300_000)).toBe(true);
    expect(await phase()).toEqual({ idle: true, complete: false, alarms_idle: 1, alarms_complete: undefined, next: T + 3_600_000 });
    expect(await runAlarmAt(stub, T + 3_600_000)).toBe(true);
    expect(await phase()).toEqual({ idle: true, complete: true, alarms_idle: 1, alarms_complete: 1, next: T + 604_800_000 });
    expect(await runAlarmAt(stub, T + 604_800_000)).toBe(true);
    expect(await scheduledAlarm(stub)).toBeNull();
    expect(await stub.stats()).toEqual(FRESH_STATS);
    expect(await sessionStub(newTestId("never-ran")).stats()).toEqual(FRESH_STATS);
  });
});
