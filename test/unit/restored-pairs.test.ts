/**
 * Removals Sluice undid between two requests (src/core/cache/restored-pairs.ts) on hand-built
 * views: which ledger pairs the plan holds back, and the first message a restored pair is back in.
 */
import { describe, expect, it } from "vitest";
import { heldBackPairs, restoredPairs } from "../../src/core/cache/restored-pairs";
import { EMPTY_LEDGER, ledgerKey, type Ledger, type LedgerEntry } from "../../src/core/policy/ledger";
import type { PairAction } from "../../src/core/plan/types";
import { factsOf, lines, makeView } from "../support/make-view";

const view = (b: string) => factsOf(makeView({
  messages: [
    { role: "user", text: "go" },
    { role: "assistant", calls: [{ id: "a", tool: "Read", input: { file_path: "/src/a.ts" } }] },
    { role: "user", results: [{ id: "a", text: lines(4_000, "a") }] },
    { role: "assistant", calls: [{ id: "b", tool: "Bash", input: { command: "make" } }] },
    { role: "user", results: [{ id: "b", text: b }] },
    { role: "assistant", calls: [{ id: "c", tool: "Bash", input: { command: "make test" } }] },
    { role: "user", results: [{ id: "c", text: lines(4_000, "c") }] },
  ],
}));

/** A ledger removing a (whole pair), b and c (results), keyed by the results of `v`. */
function ledgerOf(v: ReturnType<typeof view>): Ledger {
  const acts: Record<string, PairAction> = { a: { kind: "drop_pair" }, b: { kind: "drop_result" }, c: { kind: "drop_result" } };
  const entries: Record<string, LedgerEntry> = {};
  for (const p of v.pairs) entries[ledgerKey(p.id, p.result_hash)] = { pair_id: p.id, result_hash: p.result_hash, action: acts[p.id]!, step: 1, first_seen_ms: 0 };
  return { ...EMPTY_LEDGER, entries };
}

describe("heldBackPairs / restoredPairs", () => {
  const v = view(lines(4_000, "b"));
  const ledger = ledgerOf(v);

  it("held back: the ledger's pairs the plan leaves in place (absent or keep), a changed result under its old key included", () => {
    expect(heldBackPairs(v, ledger, { actions: { a: { kind: "drop_pair" }, b: { kind: "drop_result" }, c: { kind: "drop_result" } } })).toEqual([]);
    expect(heldBackPairs(v, ledger, { actions: { b: { kind: "drop_result" }, c: { kind: "keep" } } })).toEqual(["a", "c"]);
    expect(heldBackPairs(view("make: changed output"), ledger, { actions: { a: { kind: "drop_pair" }, c: { kind: "drop_result" } } })).toEqual(["b"]);
    expect(heldBackPairs(v, EMPTY_LEDGER, { actions: {} })).toEqual([]);
  });

  it("restored: held back now, not before; the call's message for a whole pair, else the result's", () => {
    // a was removed whole (drop_pair): it is back from its call, message 1.
    expect(restoredPairs(v, ledger, ["a", "c"], [])).toEqual({ message_index: 1, pairs: 2 });
    // c was held back already; b (drop_result) is back from its result, message 4.
    expect(restoredPairs(v, ledger, ["b", "c"], ["c"])).toEqual({ message_index: 4, pairs: 1 });
    expect(restoredPairs(v, ledger, ["c"], ["c"])).toBeNull();
    // Without the previous request's list nothing is claimed.
    expect(restoredPairs(v, ledger, ["a"], null)).toBeNull();
  });
});
