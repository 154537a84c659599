/**
 * The live pipeline on a real OpenAI Chat session: calls 31–70 of codex-rtchess-01 (the
 * first 30 are too small for any tier: under 5 % of the 400k window), sent call by call through
 * the Worker with compaction on, the pipeline's clock following the session's own timestamps
 * (so its real idle gaps make the cache cold where they did), with a deployment's remaining-calls
 * table in the step input (the gateway's isolate cache, overridden). Config: threshold_tokens 0,
 * preserve_recent_turns 1, min_result_bytes 256, head_chars 200, min_reduction 0.01; the rest
 * default. Properties (a)–(c): pipeline-corpus-driver.ts; (d) idle alarm → time_based.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { checkGuarantee } from "../../src/core/plan/check-guarantee";
import { openaiChatAdapter } from "../../src/providers/openai-chat";
import { expectPipelineProperties, replaySlice, type Replay } from "./pipeline-corpus-driver";
import { callEnds, corpus, sessionStub, statsOf } from "./pipeline-harness";
import { remainingCallsTable } from "../../src/core/cost/session-lengths";

const CONFIG = { threshold_tokens: 0, preserve_recent_turns: 1, min_result_bytes: 256, head_chars: 200, min_reduction: 0.01 };
const PATH = "/openai/v1/chat/completions";
/**
 * The deployment's remaining-calls table the gateway sends in each step: 40 finished sessions of
 * 351 calls each (this session's length), so at the DO's call n the lower quartile of the further
 * calls is 351 − n and R = 352 − n.
 */
const LONG_SESSIONS = remainingCallsTable([[351, 40]]);

describe("pipeline on codex-rtchess-01 (openai-chat), calls 31–70", () => {
  const doc = corpus("codex-rtchess-01");
  let replay: Replay;

  it("(a) every forwarded body passes the checker, (b) the prefix changes only at steps, (c) tokens saved = the DO's count", async () => {
    replay = await replaySlice(doc, PATH, 30, 40, CONFIG, { remainingCallsTable: () => LONG_SESSIONS });
    const f = await expectPipelineProperties(replay, openaiChatAdapter);
    // Measured on this slice: one micro step, at the slice's call 31. The agent keeps patching
    // app.js without reading it whole, so its patches are its working set and stay
    // (src/core/engine/file-views.ts); the step removes what else paid, once the removals that
    // paid had waited, the cache warm, to gather more (step-timing.ts).
    expect(f.steps).toEqual([31]);
    expect(f.steps.map((k) => replay.calls[k]!.header.tier)).toEqual(["micro"]);
    expect({ original: f.tokens_original, sent: f.tokens_sent, saved: f.tokens_saved }).toEqual({ original: 1_266_351, sent: 1_163_775, saved: 102_576 });
  }, 120_000);

  it("(d) after the idle alarm runs, the next call gets the time_based tier; without it the tier stays micro", async () => {
    expect(replay.calls[39]!.header.tier).toBe("micro");
    expect(await runDurableObjectAlarm(sessionStub(replay.session))).toBe(true);
    // The next call, 11 s after the last one.
    const next = await replay.sendMore(callEnds(doc)[70]!, 11_000);
    expect(next.header.tier).toBe("time_based");
    expect(checkGuarantee(openaiChatAdapter, next.original, next.forwarded).ok).toBe(true);
    const stats = await statsOf(replay.session);
    expect({ last_tier: stats.last_tier, idle: stats.idle, alarms_idle: stats.counters.alarms_idle }).toEqual({ last_tier: "time_based", idle: false, alarms_idle: 1 });
    const after = await replay.sendMore(callEnds(doc)[71]!, 1_000);
    expect(after.header.tier).toBe("micro");
  }, 60_000);
});
