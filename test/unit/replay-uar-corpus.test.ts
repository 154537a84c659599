/**
 * Used after removal on one corpus session, in-process, against the common vocabulary of the
 * whole corpus (as `npm run replay -- <corpus>` computes it): the exact count per strategy, the
 * tokens Sluice's answers used after it removed them, and the rule that removed each.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commonVocabulary } from "../../tools/replay/common-vocabulary";
import { readSessionText } from "../../tools/replay/read-session-text";
import { runReplay } from "../../tools/replay/run-replay";
import { CORPUS_PATH } from "../support/shared-dir";

const ID = "cc-brain-explore-ies-thinking";
const corpus = readdirSync(CORPUS_PATH).filter((f) => f.endsWith(".json")).sort().map((f) => readSessionText(readFileSync(join(CORPUS_PATH, f), "utf8"), f));

describe(`used after removal on ${ID}`, () => {
  it("counts the calls per strategy and charges Sluice's to the rules that removed the tokens", async () => {
    const vocabulary = commonVocabulary(corpus);
    const out = await runReplay({ sessions: corpus.filter((s) => s.id === ID), strategies: ["none", "observation-mask", "sluice"], sluice: "in-process", emulator: null, gateway: null, concurrency: 2, vocabulary });
    const m = out.report.total;
    expect(Object.fromEntries(Object.entries(m).map(([s, x]) => [s, [x.calls, x.used_after_removal_calls, x.used_after_removal_pct]]))).toEqual({
      none: [84, 0, 0], "observation-mask": [84, 5, 5.95], sluice: [84, 3, 3.57],
    });
    const sluice = out.runs.find((r) => r.strategy === "sluice")!;
    // Memory notes the agent read (Serena's read_memory) and SiYuan block ids (20251130004638-cm5m9g8), all removed by the idle tier.
    expect(sluice.calls.flatMap((c) => (c.used_after_removal ?? []).map((u) => [c.index, u.token, u.pairs]))).toEqual([
      [41, "project_overview", ["toolu_01Pv3kxdYLAcG2v4rbGo1AiX", "toolu_016XqFMufQ2f4oqTF8X8HU14"]],
      [43, "20251130004638", ["toolu_01J3rdRaLtWgfVWgW5XS1uAo", "toolu_017iJNfD2LbdjzgtowLGrqeK"]],
      [43, "cm5m9g8", ["toolu_01J3rdRaLtWgfVWgW5XS1uAo", "toolu_017iJNfD2LbdjzgtowLGrqeK"]],
      [50, "read_memory", ["toolu_016XqFMufQ2f4oqTF8X8HU14"]],
    ]);
    expect(m.sluice!.by_rule).toEqual({
      age: { pairs_removed: 32, tokens_removed: 19_043, tokens_not_sent: 1_130_768, uar_calls: 3, uar_tokens: 4 },
      duplicate_result: { pairs_removed: 12, tokens_removed: 7_180, tokens_not_sent: 100_520, uar_calls: 0, uar_tokens: 0 },
      long_result: { pairs_removed: 3, tokens_removed: 2_972, tokens_not_sent: 41_608, uar_calls: 0, uar_tokens: 0 },
      stale_large_output: { pairs_removed: 1, tokens_removed: 1_293, tokens_not_sent: 18_102, uar_calls: 0, uar_tokens: 0 },
      superseded_read: { pairs_removed: 2, tokens_removed: 2_561, tokens_not_sent: 35_854, uar_calls: 0, uar_tokens: 0 },
    });
  }, 300_000);
});
