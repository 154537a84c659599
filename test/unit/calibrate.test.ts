/**
 * The per-session estimator calibration (src/core/tokens/calibrate.ts): the anchor on the last
 * answer's reported count, the growth and removal ratios, the shrink fallback, and the gates of
 * a step (threshold_tokens, context pressure) under a calibration.
 */
import { describe, expect, it } from "vitest";
import { calibrate, calibrateRemoved, foldAnswer, growthRatio, NO_CALIBRATION, plainRatio, removalRatio } from "../../src/core/tokens/calibrate";
import { CORE_DEFAULTS, compact } from "../../src/core/policy/compact";
import { EMPTY_LEDGER } from "../../src/core/policy/ledger";
import { stepContext } from "../../src/core/policy/step-context";
import { factsOf, lines, makeView, type MessageSpec } from "../support/make-view";

// Three answers: 1,000 est → 1,200 reported; +500 est → +500 reported; then a step removes 400 est while the client appends 500 est, and the provider counts 50 fewer.
const c1 = foldAnswer(NO_CALIBRATION, { est_original: 1_000, est_sent: 1_000, reported: 1_200 });
const c2 = foldAnswer(c1, { est_original: 1_500, est_sent: 1_500, reported: 1_700 });
const c3 = foldAnswer(c2, { est_original: 2_000, est_sent: 1_600, reported: 1_650 });

describe("calibrate", () => {
  it("before any answer: the estimate as is", () => {
    expect([calibrate(NO_CALIBRATION, 1_234, 1_000), calibrate(null, 5), calibrate(undefined, 7), calibrateRemoved(NO_CALIBRATION, 400)]).toEqual([1_000, 5, 7, 400]);
  });
  it("after one answer: anchored on its count, what was appended at the plain ratio", () => {
    expect(c1).toEqual({ ...NO_CALIBRATION, answers: 1, anchor_reported: 1_200, anchor_original: 1_000, reported_sum: 1_200, estimated_sum: 1_000 });
    // 1,200 + 1.2 × 500
    expect(calibrate(c1, 1_500)).toBe(1_800);
  });
  it("a growth sample: what the client appended counted 500 for 500 estimated", () => {
    expect([growthRatio(c2), plainRatio(c2), removalRatio(c2)]).toEqual([1, 2_900 / 2_500, 1]);
    // 1,700 + 1.0 × 500; Sluice removing 400 of it: − 1.0 × 400.
    expect([calibrate(c2, 2_000), calibrate(c2, 2_000, 1_600)]).toEqual([2_200, 1_800]);
  });
  it("a removal sample: ΔR = r_growth × ΔO − r_removal × ΔX → r_removal = (500 + 50) / 400", () => {
    expect(c3).toMatchObject({ anchor_reported: 1_650, anchor_original: 2_000, anchor_removed: 400, removal_reported: 550, removal_estimated: 400, growth_reported: 500, growth_estimated: 500 });
    expect(removalRatio(c3)).toBe(1.375);
    // Next request: the client appends 100 est; the same 400 removed. As sent: 1,650 + 1.375 × 400 + 100 = 2,300; forwarded: 2,300 − 550.
    expect([calibrate(c3, 2_100), calibrate(c3, 2_100, 1_700), calibrateRemoved(c3, 400)]).toEqual([2_300, 1_750, 550]);
    // The removed part is rounded on its own: before − after is exactly the calibrated removal (1.375 × 3 = 4.125 → 4).
    expect(calibrate(c3, 2_101) - calibrate(c3, 2_101, 2_098)).toBe(calibrateRemoved(c3, 3));
  });
  it("a body that shrank shares no prefix: the plain ratio Σ reported ÷ Σ forwarded estimate", () => {
    // 4,550 / 4,100 × 900 = 998.78…; removing 200 of it: − 1.375 × 200.
    expect([calibrate(c3, 900), calibrate(c3, 900, 700)]).toEqual([999, 724]);
    // and folds no ratio sample, only the anchor and the sums
    const c4 = foldAnswer(c3, { est_original: 900, est_sent: 900, reported: 1_000 });
    expect(c4).toEqual({ ...c3, answers: 4, anchor_reported: 1_000, anchor_original: 900, anchor_removed: 0, reported_sum: 5_550, estimated_sum: 5_000 });
  });
  it("an answer without a count or an estimate changes nothing", () => {
    expect(foldAnswer(c3, { est_original: 2_000, est_sent: 1_600, reported: 0 })).toBe(c3);
    expect(foldAnswer(c3, { est_original: 0, est_sent: 0, reported: 10 })).toBe(c3);
  });
});

describe("a step under a calibration", () => {
  /** `n` turns of one Bash build each, with a distinct 20,000-byte log (5,000 est tokens). */
  function session(n: number) {
    const m: MessageSpec[] = [{ role: "user", text: "refactor" }];
    for (let i = 0; i < n; i++) {
      m.push({ role: "assistant", calls: [{ id: `t${i}`, tool: "Bash", input: { command: `make build-${i}` } }] });
      m.push({ role: "user", results: [{ id: `t${i}`, text: lines(20_000, `r${String.fromCharCode(97 + i)}`) }] });
    }
    return factsOf(makeView({ outside_tokens: 1_000, messages: m }));
  }
  const state = { calls: 13, last_activity_ms: 999_000, idle: false, complete: false, ledger: EMPTY_LEDGER };
  it("threshold_tokens compares the calibrated count; context_pct_used is calibrated", () => {
    // 20 turns: the old pairs have forgone more than the step's write, so a warm step is taken at once (step-timing.ts).
    const view = session(20);
    const config = { ...CORE_DEFAULTS, threshold_tokens: 20_000, min_remaining_calls: 8 };
    expect(view.est_tokens).toBeGreaterThan(config.threshold_tokens);
    // The provider counted a tenth of the estimate on the last answer (same body): the request is under the threshold.
    const tenth = foldAnswer(NO_CALIBRATION, { est_original: view.est_tokens, est_sent: view.est_tokens, reported: Math.floor(view.est_tokens / 10) });
    const raw = compact(stepContext(state, view, config, 1_000_000, "r"));
    const cal = compact(stepContext({ ...state, calibration: tenth }, view, config, 1_000_000, "r"));
    expect([raw.skipped, raw.step?.step]).toEqual([null, 1]);
    expect(cal.skipped).toEqual({ tier: "micro", reason: "under_threshold" });
    expect(stepContext({ ...state, calibration: tenth }, view, config, 1_000_000, "r").pressure.context_pct_used).toBe(Math.floor(view.est_tokens / 10) / 200_000);
  });
});
