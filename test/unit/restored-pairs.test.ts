/**
 * Removals Sluice undid between two requests (src/core/cache/restored-pairs.ts) on hand-built
 * views: which ledger pairs the plan holds back, and the first message a restored pair is back in;
 * and the session's memory of them between calls (src/observers/restores.ts over node:sqlite, and the cache diagnostics' report hook), which a
 * call whose edit was not forwarded, or a skipped call, leaves unknown.
 */
import { describe, expect, it } from "vitest";
import { heldBackPairs, restoredPairs } from "../../src/core/cache/restored-pairs";
import { EMPTY_LEDGER, ledgerKey, type Ledger, type LedgerEntry } from "../../src/core/policy/ledger";
import type { PairAction } from "../../src/core/plan/types";
import type { TierResult } from "../../src/core/policy/types";
import { cacheDiagnostics } from "../../src/observers/cache-diagnostics";
import { noteRestores } from "../../src/observers/restores";
import { factsOf, lines, makeView } from "../support/make-view";
import { memorySession } from "../support/memory-session";

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

describe("noteRestores (the session's held-back pairs between calls)", () => {
  const v = view(lines(4_000, "b"));
  const ledger = ledgerOf(v);
  const all = { plan: { actions: { a: { kind: "drop_pair" }, b: { kind: "drop_result" }, c: { kind: "drop_result" } } } } as unknown as TierResult;
  const lockedA = { plan: { actions: { b: { kind: "drop_result" }, c: { kind: "drop_result" } } } } as unknown as TierResult;
  const report = (outcome: "compacted" | "guarantee_check") => ({ correlation_id: "c", outcome, rollback_step: null, tokens_original: 100, tokens_sent: 100, tier: "none" as const, pairs_removed: 0, would_send: null });

  it("call 1 removes a, b, c; call 2 holds a back: a restored from its call, message 1; call 3 still holds it: nothing new", () => {
    const { tx } = memorySession();
    expect(noteRestores(tx, ledger, all, v, 1, "compact")).toBeNull();
    cacheDiagnostics.afterReport!(tx, { report: { outcome: report("compacted"), usage: null, estimated_input_tokens: 0, now_ms: 1 } });
    expect(noteRestores(tx, ledger, lockedA, v, 2, "compact")).toEqual({ message_index: 1, pairs: 1 });
    expect(noteRestores(tx, ledger, lockedA, v, 3, "compact")).toBeNull();
  });

  it("unknown, so nothing claimed: after a call that failed open, after a skipped call, in measurement mode", () => {
    const { tx } = memorySession();
    noteRestores(tx, ledger, all, v, 1, "compact");
    cacheDiagnostics.afterReport!(tx, { report: { outcome: report("guarantee_check"), usage: null, estimated_input_tokens: 0, now_ms: 1 } });
    expect(noteRestores(tx, ledger, lockedA, v, 2, "compact")).toBeNull();
    noteRestores(tx, ledger, all, v, 3, "compact");
    expect(noteRestores(tx, ledger, lockedA, v, 5, "compact")).toBeNull();
    noteRestores(tx, ledger, all, v, 6, "measure");
    expect(noteRestores(tx, ledger, lockedA, v, 7, "compact")).toBeNull();
    expect(noteRestores(tx, ledger, lockedA, v, 8, "measure")).toBeNull();
  });
});
