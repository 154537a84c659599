/**
 * Which used-after-removal calls a restore would have answered (tools/shared/restore-marker.ts,
 * tools/replay/restore-answers.ts): the markers that name a removed pair, the removed pairs a
 * forwarded body marks, the calls whose every used token such a pair held — on hand-made bodies,
 * then on one seed-corpus session, in-process, at the placeholders level with archive_removed on.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { restoreMarkersIn } from "../../tools/shared/restore-marker";
import { restoreAnswers, restorablePairs } from "../../tools/replay/restore-answers";
import { commonVocabulary } from "../../tools/replay/common-vocabulary";
import { readSessionText } from "../../tools/replay/read-session-text";
import { runReplay } from "../../tools/replay/run-replay";
import { OPERATOR_ROWS } from "../../tools/replay/operator-table";
import type { JsonObject } from "../../tools/replay/types";
import { CORPUS_PATH } from "../support/shared-dir";

describe("restore markers", () => {
  it("reads the restore id and the call id it names, unescaping the call part; the older archive-id form names the call id itself", () => {
    const text = 'head\n[sluice: rest of tool result removed; restore_tool_result("cc:abc:conv:01%2F2/toolu_%25x%5D")] and\n[sluice: rest of tool result removed; archive id call_7]';
    expect(restoreMarkersIn(text)).toEqual([
      { restore_id: "cc:abc:conv:01%2F2/toolu_%25x%5D", call_id: "toolu_%x]" },
      { restore_id: "call_7", call_id: "call_7" },
    ]);
  });

  it("finds none in the markers that name nothing (Sluice without archive, the other strategies), nor in a restore id without a session part", () => {
    expect(restoreMarkersIn("x\n[sluice: rest of tool result removed]")).toEqual([]);
    expect(restoreMarkersIn("[cleared] Old environment output: (3 lines omitted) [Old tool result content cleared]")).toEqual([]);
    expect(restoreMarkersIn('[sluice: rest of tool result removed; restore_tool_result("toolu_1")]')).toEqual([]);
  });
});

describe("what a restore answers", () => {
  const marker = (id: string) => `\n[sluice: rest of tool result removed; restore_tool_result("s1/${id}")]`;
  // t1 cut with its marker, t2 cut with t1's marker (names another pair), t3 dropped whole.
  const sent: JsonObject = {
    messages: [
      { role: "user", content: "go" },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Read", input: { p: "a" } }, { type: "tool_use", id: "t2", name: "Read", input: { p: "b" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: `const a${marker("t1")}` }, { type: "tool_result", tool_use_id: "t2", content: [{ type: "text", text: `const b${marker("t1")}` }] }] },
    ],
  };

  it("marks a removed pair only when its own result carries a marker naming it", () => {
    expect(restorablePairs("anthropic", sent, ["t1", "t2", "t3"])).toEqual(["t1"]);
    expect(restorablePairs("anthropic", sent, [])).toEqual([]);
  });

  it("answers a call when every used token was held by a marked pair, and not when one was held only by unmarked or no pairs", () => {
    expect(restoreAnswers([{ token: "kingOffsets", pairs: ["t3", "t1"] }, { token: "evaluateBoard", pairs: ["t1"] }], ["t1"])).toBe(true);
    expect(restoreAnswers([{ token: "kingOffsets", pairs: ["t1"] }, { token: "evaluateBoard", pairs: ["t3"] }], ["t1"])).toBe(false);
    expect(restoreAnswers([{ token: "HAT136", pairs: [] }], ["t1"])).toBe(false);
    expect(restoreAnswers([], ["t1"])).toBe(false);
  });
});

const ID = "cc-brain-explore-ies-thinking";
const corpus = readdirSync(CORPUS_PATH).filter((f) => f.endsWith(".json")).sort().map((f) => readSessionText(readFileSync(join(CORPUS_PATH, f), "utf8"), f));

describe(`restore on ${ID}`, () => {
  it("answers every call Sluice's placeholders level with archive_removed had removed tokens from; none of observation-mask's", async () => {
    const out = await runReplay({
      sessions: corpus.filter((s) => s.id === ID), strategies: ["none", "observation-mask", "sluice-placeholders"], sluice: "in-process", emulator: null, gateway: null, concurrency: 2,
      vocabulary: commonVocabulary(corpus), sluiceEnv: { COMPACTION_CONFIG: JSON.stringify({ archive_removed: true }) },
    });
    const m = out.report.total;
    expect(Object.fromEntries(Object.entries(m).map(([s, x]) => [s, [x.used_after_removal_calls, x.used_after_removal_restorable_calls]]))).toEqual({
      none: [0, 0], "observation-mask": [5, 0], "sluice-placeholders": [1, 1],
    });
    expect(OPERATOR_ROWS.find((r) => r.label.startsWith("of those, calls a restore"))!.value(m["sluice-placeholders"]!)).toBe("1 of 1 (100.0%)");
    // Every pair those calls used stayed in the forwarded body, cut, with the marker naming it.
    const run = out.runs.find((r) => r.strategy === "sluice-placeholders")!;
    expect(run.calls.filter((c) => c.used_after_removal).map((c) => [c.index, c.uar_restorable])).toEqual([
      [50, ["toolu_016XqFMufQ2f4oqTF8X8HU14"]],
    ]);
  }, 300_000);
});
