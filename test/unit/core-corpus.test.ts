/**
 * Corpus-driven tests of the core (shared corpus, /work/shared/corpus): heuristic rule hits per
 * session, and a call-by-call replay with default config asserting step discipline (DESIGN
 * invariant 6, case B16): between two steps the set of edited pairs — hence the compacted
 * prefix — is identical from one call to the next, and steps are discrete. Counts are
 * regression values measured on this corpus (issue 4 report).
 */
import { describe, expect, it } from "vitest";
import { runHeuristicEngine } from "../../src/core/engine/run-heuristic-engine";
import { CORE_DEFAULTS } from "../../src/core/policy/compact";
import { CORPUS_IDS, readCorpusSession } from "../support/read-corpus-session";
import { replayCore } from "../support/replay-core";

const RULES = ["superseded_read", "duplicate_result", "failed_then_retried", "stale_large_output"] as const;

describe("heuristic engine on the corpus (final request of each session)", () => {
  it("rule hits per session", () => {
    const table: Record<string, Record<string, number>> = {};
    for (const id of CORPUS_IDS) {
      const s = readCorpusSession(id);
      const view = s.viewAt(s.calls.length - 1);
      const run = runHeuristicEngine(view, CORE_DEFAULTS);
      const finalDrops = Object.values(run.verdicts).filter((v) => v.kind !== "keep").length;
      table[id] = { pairs: view.pairs.length, ...Object.fromEntries(RULES.map((r) => [r, run.hits[r].length])), removals: finalDrops };
    }
    console.table(table);
    expect(table).toEqual(EXPECTED_RULE_HITS);
  });
});

describe("step discipline: call-by-call replay with defaults", () => {
  it.each(CORPUS_IDS)("%s", (id) => {
    const run = replayCore(id);
    let steps = 0;
    for (let k = 1; k < run.calls.length; k++) {
      const prev = run.calls[k - 1]!;
      const cur = run.calls[k]!;
      if (cur.result.step !== null) {
        steps++;
        // A step only adds: every earlier removal stays.
        expect(prev.removed.every((p) => cur.removed.includes(p))).toBe(true);
        continue;
      }
      // No step: the same edits, and the previously forwarded messages are forwarded identically.
      expect(cur.removed).toEqual(prev.removed);
      expect(cur.signatures.slice(0, prev.signatures.length)).toEqual(prev.signatures);
    }
    if (run.calls[0]!.result.step !== null) steps++;
    expect(steps).toBe(run.steps);
    const removedPct = Math.round((1000 * run.tokens_removed_total) / run.tokens_original_total) / 10;
    const savingPct = Math.round(1000 * (1 - run.cost_with / run.cost_without)) / 10;
    console.log(`${id}: calls ${run.calls.length}, steps ${run.steps}, est. tokens removed ${run.tokens_removed_total} of ${run.tokens_original_total} (${removedPct} %), simulated input cost ${run.cost_without.toFixed(3)} → ${run.cost_with.toFixed(3)} USD (${savingPct} %)`);
    expect({ steps: run.steps, removed: run.tokens_removed_total }).toEqual(EXPECTED_REPLAY[id]);
    // Never costs more than no compaction (simple prefix-cache model of test/support/replay-core.ts).
    expect(run.cost_with).toBeLessThanOrEqual(run.cost_without);
  });
});

const EXPECTED_RULE_HITS: Record<string, Record<string, number>> = {
  "cc-brain-explore-cleanup": { pairs: 131, superseded_read: 12, duplicate_result: 70, failed_then_retried: 3, stale_large_output: 13, removals: 47 },
  "cc-brain-explore-ies-thinking": { pairs: 96, superseded_read: 11, duplicate_result: 50, failed_then_retried: 0, stale_large_output: 7, removals: 29 },
  "cc-brain-explore-subagent-bashpoll": { pairs: 194, superseded_read: 0, duplicate_result: 0, failed_then_retried: 0, stale_large_output: 0, removals: 0 },
  "cc-cctrace-opus4": { pairs: 132, superseded_read: 6, duplicate_result: 7, failed_then_retried: 0, stale_large_output: 6, removals: 16 },
  "codex-rtchess-01": { pairs: 298, superseded_read: 23, duplicate_result: 42, failed_then_retried: 12, stale_large_output: 7, removals: 79 },
  "codex-rtchess-01-responses": { pairs: 298, superseded_read: 23, duplicate_result: 42, failed_then_retried: 12, stale_large_output: 7, removals: 79 },
  "sweagent-gpt4-pydicom-1458": { pairs: 0, superseded_read: 0, duplicate_result: 0, failed_then_retried: 0, stale_large_output: 0, removals: 0 },
  "tau-airline-gpt4o-task02": { pairs: 26, superseded_read: 0, duplicate_result: 0, failed_then_retried: 0, stale_large_output: 0, removals: 0 },
  "tau-airline-gpt4o-task09": { pairs: 22, superseded_read: 0, duplicate_result: 4, failed_then_retried: 0, stale_large_output: 1, removals: 3 },
};
/** Steps taken and estimated tokens removed (summed over every call) with the default config. */
const EXPECTED_REPLAY: Record<string, { steps: number; removed: number }> = {
  "cc-brain-explore-cleanup": { steps: 7, removed: 3499185 },
  "cc-brain-explore-ies-thinking": { steps: 5, removed: 2178293 },
  "cc-brain-explore-subagent-bashpoll": { steps: 0, removed: 0 },
  "cc-cctrace-opus4": { steps: 9, removed: 5217752 },
  "codex-rtchess-01": { steps: 11, removed: 12306563 },
  "codex-rtchess-01-responses": { steps: 5, removed: 11013803 },
  "sweagent-gpt4-pydicom-1458": { steps: 0, removed: 0 },
  "tau-airline-gpt4o-task02": { steps: 0, removed: 0 },
  "tau-airline-gpt4o-task09": { steps: 0, removed: 0 },
};
