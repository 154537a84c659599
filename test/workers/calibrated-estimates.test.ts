/**
 * Calibrated estimates, in workerd through the real hook: once a session has
 * an answer, the `x-sluice-compaction` header's tokens_before / tokens_after are the provider's
 * count as the session's calibration predicts it (src/core/tokens/calibrate.ts), followed by the
 * estimator's own figures. The stand-in answers with a chosen input-token count
 * (test/support/upstream-server.ts `input-tokens:N`).
 */
import { describe, expect, it } from "vitest";
import { newTestId } from "./helpers";
import { compactionHeader, compactVars, send, statsOf } from "./pipeline-harness";

/** An Anthropic body of `turns` user/assistant exchanges of 40 words each (the history grows by one exchange per call). */
function body(turns: number): string {
  const messages: { role: string; content: string }[] = [];
  for (let i = 0; i < turns; i++) {
    messages.push({ role: "user", content: `question ${i}: ` + "please explain the build output again ".repeat(8) });
    messages.push({ role: "assistant", content: `answer ${i}: ` + "the build failed because a header is missing ".repeat(8) });
  }
  messages.push({ role: "user", content: "and now?" });
  return JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 64, messages });
}

describe("calibrated estimates", () => {
  it("tokens_before is anchored on the last answer's count: plain ratio after one answer, the growth ratio after two", async () => {
    const session = newTestId("calibrated");
    const call = (turns: number, reported: number) =>
      send(compactVars({}), "/anthropic/v1/messages", { "x-test-id": session, "x-sluice-session": session, "x-test-scenario": `input-tokens:${reported}` }, body(turns));
    const h1 = compactionHeader((await call(1, 200)).res);
    const h2 = compactionHeader((await call(2, 350)).res);
    const h3 = compactionHeader((await call(3, 520)).res);
    // The estimator's counts of the three bodies (E1, E2, E3).
    expect([h1.tokens_before, h2.estimated_tokens_before, h3.estimated_tokens_before]).toEqual(["184", "332", "480"]);
    // No answer yet: the estimate, and no estimated_* fields.
    expect([h1.tokens_after, h1.estimated_tokens_before]).toEqual(["184", undefined]);
    // After one answer (200 for 184): 200 + 200/184 × (332 − 184) = 360.87 → 361.
    expect([h2.tokens_before, h2.tokens_after]).toEqual(["361", "361"]);
    // After two: the growth ratio (350 − 200) / (332 − 184); 350 + 150/148 × (480 − 332) = 500
    // (the plain ratio would say 550/516 × 480 = 512, the previous answer's 350/332 × 480 = 506).
    expect([h3.tokens_before, h3.tokens_after, h3.estimated_tokens_after]).toEqual(["500", "500", "480"]);
    const stats = await statsOf(session);
    expect([stats.counters.calibration_reported, stats.counters.calibration_estimated]).toEqual([1_070, 996]);
    // Growth: (350 − 200 + 520 − 350) / (332 − 184 + 480 − 332); no step removed anything, so removal = growth.
    expect([stats.calibration_growth_ratio, stats.calibration_removal_ratio]).toEqual([320 / 296, 320 / 296]);
  });
});
