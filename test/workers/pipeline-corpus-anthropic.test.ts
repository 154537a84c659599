/**
 * The live pipeline on a real Anthropic session: the first 40 model calls of
 * cc-cctrace-opus4 (long Read/Bash results), sent call by call through the Worker with
 * compaction on, the pipeline's clock following the session's own timestamps. Config (chosen so
 * steps happen within 40 calls): threshold_tokens 0, preserve_recent_turns 1, min_result_bytes
 * 256, head_chars 200, min_reduction 0.01; everything else default (heuristic engine, strict).
 * Properties (a) checker, (b) prefix stability, (c) token accounting: pipeline-corpus-driver.ts.
 * (d) an idle alarm run between two calls makes the next call time_based.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { checkGuarantee } from "../../src/core/plan/check-guarantee";
import { anthropicAdapter } from "../../src/providers/anthropic-messages";
import { expectPipelineProperties, replaySlice, type Replay } from "./pipeline-corpus-driver";
import { callEnds, corpus, sessionStub, statsOf } from "./pipeline-harness";

const CONFIG = { threshold_tokens: 0, preserve_recent_turns: 1, min_result_bytes: 256, head_chars: 200, min_reduction: 0.01 };
const PATH = "/anthropic/v1/messages";

describe("pipeline on cc-cctrace-opus4, calls 1–40", () => {
  const doc = corpus("cc-cctrace-opus4");
  let replay: Replay;

  it("(a) every forwarded body passes the checker, (b) the prefix changes only at steps, (c) tokens saved = the DO's count", async () => {
    replay = await replaySlice(doc, PATH, 0, 40, CONFIG);
    const f = await expectPipelineProperties(replay, anthropicAdapter);
    // Measured on this slice (estimator tokens): one micro step at call 7 (1-based), gathering the
    // removals a step at every paying call would have taken at calls 4, 5 and 6 (the cache stays warm).
    expect(f.steps).toEqual([6]);
    expect(replay.calls.filter((c) => c.header.step !== "none").map((c) => c.header.tier)).toEqual(["micro"]);
    expect({ original: f.tokens_original, sent: f.tokens_sent, saved: f.tokens_saved }).toEqual({ original: 1_016_533, sent: 493_681, saved: 522_852 });
  }, 120_000);

  it("(d) after the idle alarm runs, the next call gets the time_based tier; without it the tier stays micro", async () => {
    const stub = sessionStub(replay.session);
    expect(replay.calls[39]!.header.tier).toBe("micro");
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await statsOf(replay.session)).idle).toBe(true);
    // The next call, 11 s after the last one.
    const next = await replay.sendMore(callEnds(doc)[40]!, 11_000);
    expect(next.header.tier).toBe("time_based");
    expect(checkGuarantee(anthropicAdapter, next.original, next.forwarded).ok).toBe(true);
    const stats = await statsOf(replay.session);
    expect({ last_tier: stats.last_tier, idle: stats.idle, alarms_idle: stats.counters.alarms_idle }).toEqual({ last_tier: "time_based", idle: false, alarms_idle: 1 });
    // The cache is cold (idle alarm), so the step pays and goes at once: twelve pairs.
    expect(next.header.step).toBe("2");
    expect(stats.steps.map((s) => [s.step, s.tier, s.pairs_removed])).toEqual([[1, "micro", 5], [2, "time_based", 12]]);
    // Control: one more call 1 s later, no alarm in between → back to micro.
    const after = await replay.sendMore(callEnds(doc)[41]!, 1_000);
    expect(after.header.tier).toBe("micro");
  }, 60_000);
});
