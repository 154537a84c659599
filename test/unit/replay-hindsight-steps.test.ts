import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bestStepTimes, type CacheModel, type HindsightCall, type HindsightStep } from "../../tools/replay/hindsight-steps";
import { describeStepTiming } from "../../tools/replay/report-columns";
import { stepTimingOf } from "../../tools/replay/step-timing-report";
import type { StrategyMetrics } from "../../tools/replay/summarize-report";
import type { CallRecord } from "../../tools/replay/types";

const MODEL: CacheModel = { ttl_ms: 300_000, write_multiple: 1.25, read_multiple: 0.1 };
const S = 1000;

describe("bestStepTimes — hand-computed", () => {
  it("one step: taking it at the cold call (gap ≥ TTL) beats taking it warm where the run did", () => {
    // Calls of 100, 200, 300, 400 tokens at 0 s, 60 s, 120 s, 600 s (call 3 follows an 8-minute gap: cold).
    // The step (released at call 1) removes 40 tokens, its first edit after 50.
    const calls: HindsightCall[] = [
      { tokens: 100, time_ms: 0 },
      { tokens: 200, time_ms: 60 * S },
      { tokens: 300, time_ms: 120 * S },
      { tokens: 400, time_ms: 600 * S },
    ];
    const steps: HindsightStep[] = [{ released_at: 1, first_edit: 50, tokens: 40 }];
    // none: 100×1.25 | 100×0.1 + 100×1.25 | 200×0.1 + 100×1.25 | 400×1.25 = 125 + 135 + 145 + 500 = 905
    // taken (call 1): 125 | 50×0.1 + 110×1.25 | 160×0.1 + 100×1.25 | 360×1.25 = 125 + 142.5 + 141 + 450 = 858.5
    // at call 2: 125 + 135 + (50×0.1 + 210×1.25 = 267.5) + 450 = 977.5
    // at call 3 (cold, no extra write): 125 + 135 + 145 + 450 = 855  ← best
    expect(bestStepTimes(calls, steps, MODEL)).toEqual({ none_cost: 905, taken_cost: 858.5, best_cost: 855, best_at: [3] });
  });

  it("two steps in a short warm session: neither pays back its write, so the best is never stepping", () => {
    // 1,000 → 1,300 tokens, one call a minute. Step A (call 1) removes 300 after 100; step B (call 2) 300 after 500.
    const calls = [1000, 1100, 1200, 1300].map((tokens, i) => ({ tokens, time_ms: i * 60 * S }));
    const steps: HindsightStep[] = [
      { released_at: 1, first_edit: 100, tokens: 300 },
      { released_at: 2, first_edit: 500, tokens: 300 },
    ];
    // call 0 = 1,250 always. Taken: call 1 (0→A) 100×0.1 + 700×1.25 = 885; call 2 (A→AB): B's edit at 500
    // lies after A's 300 removed tokens, so 200 are read: 20 + 400×1.25 = 520; call 3: 60 + 125 = 185.
    // Never: 225 + 235 + 245. Both at call 2: 225 + (10 + 500×1.25) + 185 = 1,045.
    expect(bestStepTimes(calls, steps, MODEL)).toEqual({ none_cost: 1955, taken_cost: 1250 + 885 + 520 + 185, best_cost: 1955, best_at: [null, null] });
  });

  it("an edit before the call's reach reads nothing (Anthropic's 20-block look-back from the last breakpoint)", () => {
    // The first example's session; call 1 can read back only to 100 tokens: the step's edit at 50 lies before it.
    const calls: HindsightCall[] = [
      { tokens: 100, time_ms: 0 },
      { tokens: 200, time_ms: 60 * S, reach_tokens: 100 },
      { tokens: 300, time_ms: 120 * S },
      { tokens: 400, time_ms: 600 * S },
    ];
    // taken (call 1): 125 | 160 × 1.25 (no read) | 141 | 450 = 916 — more than no removal (905); the cold call 3 stays best.
    expect(bestStepTimes(calls, [{ released_at: 1, first_edit: 50, tokens: 40 }], MODEL)).toEqual({ none_cost: 905, taken_cost: 916, best_cost: 855, best_at: [3] });
  });

  it("errors name the step", () => {
    expect(() => bestStepTimes([{ tokens: 1, time_ms: 0 }], [{ released_at: 1, first_edit: 0, tokens: 1 }], MODEL)).toThrow("steps[0].released_at 1 is outside the 1 calls");
    const two = [0, 1].map((i) => ({ tokens: 10, time_ms: i }));
    expect(() => bestStepTimes(two, [{ released_at: 1, first_edit: 0, tokens: 1 }, { released_at: 0, first_edit: 0, tokens: 1 }], MODEL)).toThrow("steps[1] is released before steps[0]");
  });
});

/** Independent oracle: simulate one schedule call by call (k = steps applied at each call) and enumerate them all. */
function simulate(calls: readonly HindsightCall[], steps: readonly HindsightStep[], ks: readonly number[]): number {
  let total = 0;
  let prevSent: { length: number; applied: number } | null = null;
  ks.forEach((k, i) => {
    const removed = steps.slice(0, k).reduce((n, s) => n + s.tokens, 0);
    const length = Math.max(0, calls[i]!.tokens - removed);
    let read = 0;
    if (prevSent !== null && calls[i]!.time_ms - calls[i - 1]!.time_ms < MODEL.ttl_ms) {
      if (k === prevSent.applied) read = prevSent.length;
      else {
        const edit = Math.min(...steps.slice(prevSent.applied, k).map((s) => s.first_edit));
        const gone = steps.slice(0, prevSent.applied).filter((s) => s.first_edit < edit).reduce((n, s) => n + s.tokens, 0);
        read = Math.min(prevSent.length, Math.max(0, edit - gone));
      }
      read = Math.min(read, length);
    }
    total += read * MODEL.read_multiple + (length - read) * MODEL.write_multiple;
    prevSent = { length, applied: k };
  });
  return total;
}

function allSchedules(n: number, steps: readonly HindsightStep[]): number[][] {
  const out: number[][] = [];
  const go = (i: number, prev: number, acc: number[]) => {
    if (i === n) return void out.push(acc);
    const released = steps.filter((s) => s.released_at <= i).length;
    for (let k = prev; k <= released; k++) go(i + 1, k, [...acc, k]);
  };
  go(0, 0, []);
  return out;
}

describe("bestStepTimes — against every schedule", () => {
  it("the programme's optimum equals the cheapest enumerated schedule; taken = each step at its release", () => {
    const instance = fc
      .record({
        tokens: fc.array(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 6 }),
        gaps: fc.array(fc.constantFrom(10 * S, 200 * S, 400 * S), { minLength: 6, maxLength: 6 }),
        steps: fc.array(fc.record({ released_at: fc.nat({ max: 5 }), first_edit: fc.nat({ max: 300 }), tokens: fc.integer({ min: 1, max: 80 }) }), { maxLength: 3 }),
      })
      .map(({ tokens, gaps, steps }) => {
        let t = 0;
        const grown = tokens.reduce<number[]>((acc, x) => [...acc, (acc[acc.length - 1] ?? 0) + x], []);
        const calls = grown.map((x, i) => ({ tokens: x, time_ms: (t += i === 0 ? 0 : gaps[i]!) }));
        const ordered = steps.map((s) => ({ ...s, released_at: Math.min(s.released_at, calls.length - 1) })).sort((a, b) => a.released_at - b.released_at);
        return { calls, steps: ordered };
      });
    fc.assert(
      fc.property(instance, ({ calls, steps }) => {
        const r = bestStepTimes(calls, steps, MODEL);
        const costs = allSchedules(calls.length, steps).map((ks) => simulate(calls, steps, ks));
        expect(r.best_cost).toBeCloseTo(Math.min(...costs), 9);
        const taken = calls.map((_, i) => steps.filter((s) => s.released_at <= i).length);
        expect(r.taken_cost).toBeCloseTo(simulate(calls, steps, taken), 9);
        expect(r.none_cost).toBeCloseTo(simulate(calls, steps, calls.map(() => 0)), 9);
        // The schedule it reports costs what it says.
        const ks = calls.map((_, i) => r.best_at.filter((at) => at !== null && at <= i).length);
        expect(simulate(calls, steps, ks)).toBeCloseTo(r.best_cost, 9);
      }),
      { numRuns: 300, seed: 30 },
    );
  });
});

describe("stepTimingOf", () => {
  it("steps from the calls' shapes, costs in USD at the session's prices", () => {
    const rec = (index: number, time_ms: number, original_tokens: number, sent_tokens: number, first_edit_tokens: number | null): CallRecord => ({
      index, time_ms, status: 200, usage: { input: 0, cache_read: 0, cache_write: 0, output: 0 }, cost_usd: 0, input_cost_usd: 0, latency_ms: 0, transform_ms: 0, engine_cost_usd: 0, rejected: null, removed_ids: [],
      shape: { original_tokens, sent_tokens, first_edit_tokens },
    });
    // The first hand-computed case above, as a run: the step at call 1 removes 40 tokens after 50.
    const calls = [rec(0, 0, 100, 100, null), rec(1, 60 * S, 200, 160, 50), rec(2, 120 * S, 300, 260, null), rec(3, 600 * S, 400, 360, null)];
    const prices = { model: "m", input_per_mtok: 3, cache_read_per_mtok: 0.3, cache_write_per_mtok: 3.75, output_per_mtok: 15, known: true };
    const t = stepTimingOf(calls, prices)!;
    expect(t.steps_taken).toBe(1);
    expect(t.steps_best).toBe(1);
    expect(t.none_usd).toBeCloseTo((905 * 3) / 1e6, 15);
    expect(t.taken_usd).toBeCloseTo((858.5 * 3) / 1e6, 15);
    expect(t.best_usd).toBeCloseTo((855 * 3) / 1e6, 15);
    expect(stepTimingOf([{ ...calls[0]!, shape: undefined }], prices)).toBeNull();
  });
});

describe("describeStepTiming", () => {
  it("the report's line: savings of the steps taken and at the best calls, % of the no-removal cost, and the points between", () => {
    const m = (step_timing: StrategyMetrics["step_timing"]) => ({ step_timing }) as StrategyMetrics;
    // The first hand-computed case: (905 − 858.5) / 905 = 5.14 %, (905 − 855) / 905 = 5.52 %, 0.39 points apart.
    expect(describeStepTiming(m({ steps_taken: 1, steps_best: 1, none_usd: 905, taken_usd: 858.5, best_usd: 855 }))).toBe("steps taken save 5.1% (1 step); at the best calls 5.5% (1 step): 0.4 pt");
    expect(describeStepTiming(m({ steps_taken: 2, steps_best: 0, none_usd: 10, taken_usd: 12, best_usd: 10 }))).toBe("steps taken save -20.0% (2 steps); at the best calls 0.0% (0 steps): 20.0 pt");
    expect(describeStepTiming(m({ steps_taken: 0, steps_best: 0, none_usd: 10, taken_usd: 10, best_usd: 10 }))).toBeNull();
    expect(describeStepTiming(m(null))).toBeNull();
  });
});
