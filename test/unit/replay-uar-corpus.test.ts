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
      none: [84, 0, 0], "observation-mask": [84, 5, 5.95], sluice: [84, 1, 1.19],
    });
    const sluice = out.runs.find((r) => r.strategy === "sluice")!;
    // The memory notes the agent read (Serena's read_memory; they also hold the SiYuan block id 20251130004638-cm5m9g8 it
    // quotes at call 43) stay: its working set (src/core/engine/file-views.ts). The idle tier's drop of the project
    // activation is the one removal a later answer used.
    expect(sluice.calls.flatMap((c) => (c.used_after_removal ?? []).map((u) => [c.index, u.token, u.pairs]))).toEqual([
      [50, "read_memory", ["toolu_016XqFMufQ2f4oqTF8X8HU14"]],
    ]);
    expect(m.sluice!.by_rule).toEqual({
      age: { pairs_removed: 28, tokens_removed: 4_372, tokens_not_sent: 235_837, uar_calls: 1, uar_tokens: 1 },
    });
  }, 300_000);
});
