/**
 * The savings ledger's removals (src/observers/removal-log.ts) over the DO's own SQL store (the replay's
 * in-memory SQLite): each removal counted once, deterministic when its tool reads; a later
 * request's new pair flags the removal it fetches again (same tool, same input hash) or whose
 * file it names again (path hash); a rolled-back step takes its removals with it.
 */
import { describe, expect, it } from "vitest";
import { forgetRemovals, noteRemovals } from "../../src/observers/removal-log";
import { SessionDb } from "../../src/session/state";
import type { PairFacts, StepFacts } from "../../src/core/facts/step-facts";
import type { Ledger, LedgerAdditions } from "../../src/core/policy/ledger";
import { createMemorySql } from "../../tools/replay/sluice/create-memory-sql";

const pair = (id: string, tool: string, input_hash: string, call_class: PairFacts["call_class"], tokens: number) =>
  ({ id, tool_name: tool, input_hash, call_class, result_est_tokens: tokens }) as PairFacts;
const read = (path: string): PairFacts["call_class"] => ({ kind: "read", paths: [path], range: null, readonly: true, intent: "i", shell: false, refs: [] });
const A = pair("a", "Read", "in-x", read("px"), 500);
const B = pair("b", "Bash", "in-ls", { kind: "other", readonly: true, intent: "i", shell: true, refs: [] }, 300);
const C = pair("c", "Edit", "in-y", { kind: "edit", paths: ["py"], whole: false, readonly: false, intent: "i", shell: false, refs: [] }, 200);
const D = pair("d", "Read", "in-x", read("px"), 500); // fetches a again
const E = pair("e", "Grep", "in-g", read("py"), 50); // names c's file again

const facts = (pairs: PairFacts[]) => ({ pairs }) as StepFacts;
const ledger = (ids: string[]): Ledger => ({ entries: {}, first_seen: Object.fromEntries(ids.map((id) => [id, 0])), steps: [] });
const removing = (step: number, ids: string[]): LedgerAdditions => ({
  entries: ids.map((pair_id) => ({ pair_id, result_hash: "h", action: { kind: "drop_result" }, step, first_seen_ms: 0 })), first_seen: {}, step: null,
});

describe("noteRemovals", () => {
  it("counts removals once, flags re-fetches and mentions by later pairs, and forgets a rolled-back step's", () => {
    const { sql, close } = createMemorySql();
    new SessionDb(sql); // the session's tables, the removals table included
    try {
      expect(noteRemovals(sql, facts([A, B, C]), ledger([]), removing(1, ["a", "c"]))).toEqual({ removals: 2, removals_deterministic: 1, removed_tokens: 700, removals_refetched: 0, removals_mentioned: 0 });
      // The same removal again (a re-applied plan) is not counted twice.
      expect(noteRemovals(sql, facts([A, B, C]), ledger(["a", "b", "c"]), removing(1, ["a"])).removals).toBe(0);
      // Step 2: d repeats a's call and names its file; e names c's file; b (a read-only command) goes.
      expect(noteRemovals(sql, facts([A, B, C, D, E]), ledger(["a", "b", "c"]), removing(2, ["b"]))).toEqual({ removals: 1, removals_deterministic: 1, removed_tokens: 300, removals_refetched: 1, removals_mentioned: 2 });
      // Already flagged removals are not counted again.
      expect(noteRemovals(sql, facts([A, B, C, D, E, { ...D, id: "f" }]), ledger(["a", "b", "c", "d", "e"]), removing(3, []))).toMatchObject({ removals_refetched: 0, removals_mentioned: 0 });
      forgetRemovals(sql, 2);
      expect(sql.exec<{ pair_id: string; refetched: number; mentioned: number }>("SELECT pair_id, refetched, mentioned FROM removals ORDER BY pair_id").toArray())
        .toEqual([{ pair_id: "a", refetched: 1, mentioned: 1 }, { pair_id: "c", refetched: 0, mentioned: 1 }]);
    } finally {
      close();
    }
  });
});
