/**
 * The native mechanism in the pure core: same policy and cost model, prefix-shaped steps, the
 * splice-only lock lifted, the ledger re-applied natively (src/core/policy/native-prefix.ts).
 */
import { describe, expect, it } from "vitest";
import { MODEL_PRICES } from "../../src/core/cost/prices";
import { CORE_DEFAULTS, compact } from "../../src/core/policy/compact";
import { EMPTY_LEDGER, mergeLedger } from "../../src/core/policy/ledger";
import type { CoreConfig, TierContext } from "../../src/core/policy/types";
import type { ConversationView } from "../../src/core/view/types";
import { factsOf, lines, makeView, type MessageSpec } from "../support/make-view";

/** `n` Bash turns on a prefix-check model, every pair locked as the adapter locks them there; `locks` overrides some. */
function session(n: number, locks: Record<string, string> = {}, model = "claude-opus-5-5", tiny: string[] = []): ConversationView {
  const m: MessageSpec[] = [{ role: "user", text: "refactor" }];
  for (let i = 0; i < n; i++) {
    m.push({ role: "assistant", calls: [{ id: `t${i}`, tool: i === 1 ? "memory" : "Bash", input: { command: `make build-${i}` } }] });
    m.push({ role: "user", results: [{ id: `t${i}`, text: tiny.includes(`t${i}`) ? "ok" : lines(20_000, `r${i}`), locked: locks[`t${i}`] ?? "thinking_prefix" }] });
  }
  return makeView({ model, outside_tokens: 1_000, messages: m });
}
const ctx = (view: ConversationView, config: Partial<CoreConfig> = {}): TierContext => ({
  view: factsOf(view), ledger: EMPTY_LEDGER, pressure: { turn_count: 12, context_pct_used: 0.8, idle_seconds: 0, session_complete: false }, config: { ...CORE_DEFAULTS, exclude_tools: ["memory"], ...config },
  prices: MODEL_PRICES, now_ms: 1_000, expected_remaining_calls: 50, correlation_id: "r",
});

describe("native steps", () => {
  it("splice on a prefix-check model: every pair is locked, nothing saved", () => {
    const r = compact(ctx(session(12), { mechanism: "splice" }));
    expect([r.step, r.skipped, r.native]).toEqual([null, { tier: "auto", reason: "no_candidates" }, undefined]);
  });

  it("auto on claude-opus-5-5: native; the step is an oldest-first prefix (excluded tools skipped), all drop_result", () => {
    const r = compact(ctx(session(12)));
    expect(r.native).toEqual({ exclude_tools: ["memory"] });
    const ids = r.step!.pair_ids;
    const clearable = ["t0", "t2", "t3", "t4", "t5", "t6", "t7"]; // t8.. are in the 4 protected recent turns
    expect(ids).toEqual(clearable.slice(0, ids.length));
    expect(ids.length).toBeGreaterThan(0);
    expect(Object.values(r.plan.actions)).toEqual(ids.map(() => ({ kind: "drop_result" })));
  });

  it("the prefix stops at the first pair locked for a reason that holds natively", () => {
    const r = compact(ctx(session(12, { t6: "cache_control" })));
    expect(r.step!.pair_ids).toEqual(["t0", "t2", "t3", "t4", "t5"]);
    // Two pairs before the lock are not worth the cache write: the cost model refuses, as at splice.
    expect(compact(ctx(session(12, { t3: "cache_control" }))).skipped).toEqual({ tier: "auto", reason: "not_positive" });
  });

  it("the ledger is re-applied natively (the thinking_prefix lock does not stop it), and the next step extends the prefix", () => {
    const view = session(12);
    const first = compact(ctx(view));
    const ledger = mergeLedger(EMPTY_LEDGER, first.ledger_additions);
    const again = compact({ ...ctx(view), ledger });
    expect(Object.keys(again.plan.actions).sort()).toEqual([...first.step!.pair_ids].sort());
    expect(again.step).toBeNull();
    const longer = compact({ ...ctx(session(30)), ledger });
    const all = [...first.step!.pair_ids, ...(longer.step?.pair_ids ?? [])];
    const clearable = Array.from({ length: 30 }, (_, i) => `t${i}`).filter((id) => id !== "t1");
    expect(all).toEqual(clearable.slice(0, all.length));
    expect(longer.step).not.toBeNull();
  });

  it("a result too small to save anything stays in the prefix (the provider clears oldest first)", () => {
    const r = compact(ctx(session(12, {}, "claude-opus-5-5", ["t0"])));
    expect(r.step!.pair_ids[0]).toBe("t0");
    expect(r.plan.actions.t0).toEqual({ kind: "drop_result" });
  });

  it("native on a model that splices: the same prefix shape", () => {
    const r = compact(ctx(session(12, {}, "claude-sonnet-4-5"), { mechanism: "native" }));
    expect(r.native).toEqual({ exclude_tools: ["memory"] });
    expect(r.step!.pair_ids[0]).toBe("t0");
  });
});
