/**
 * The agent's working set (src/core/engine/file-views.ts, the engine's working_set guard, and the
 * tiers that honour it) on one literal conversation: which pairs the engine guards, and which the
 * micro collapse and the idle tier leave whole, with `working_set_turns` unbounded and bounded.
 *
 * The conversation (turn = assistant message): t0 reads a.ts in full, t1 runs a build (a long log),
 * t2 edits a.ts, t3 reads b.ts in full, t4 reads 20 lines of c.ts, t5 runs the tests (a long log),
 * then six turns of prose. a.ts's current views are the read and the edit after it (the edit
 * carries only the changed lines); b.ts's and c.ts's are their reads.
 */
import { describe, expect, it } from "vitest";
import { MODEL_PRICES } from "../../src/core/cost/prices";
import { runHeuristicEngine } from "../../src/core/engine/run-heuristic-engine";
import { CORE_DEFAULTS, compact } from "../../src/core/policy/compact";
import { EMPTY_LEDGER } from "../../src/core/policy/ledger";
import { stepOutputOf } from "../../src/core/policy/step-output";
import type { BudgetPressure, CoreConfig, TierContext } from "../../src/core/policy/types";
import { factsOf, lines, makeView, type MessageSpec } from "../support/make-view";

const call = (id: string, tool: string, input: unknown, text: string): MessageSpec[] => [
  { role: "assistant", calls: [{ id, tool, input }] },
  { role: "user", results: [{ id, text }] },
];
const messages: MessageSpec[] = [
  { role: "user", text: "fix the build" },
  ...call("r1", "Read", { file_path: "/p/a.ts" }, lines(6_000, "a")),
  ...call("b1", "Bash", { command: "npm run build" }, lines(6_000, "build")),
  ...call("e1", "Edit", { file_path: "/p/a.ts", old_string: "a1", new_string: "a2" }, "The file /p/a.ts has been updated."),
  ...call("r2", "Read", { file_path: "/p/b.ts" }, lines(6_000, "b")),
  ...call("r3", "Read", { file_path: "/p/c.ts", offset: 1, limit: 20 }, lines(600, "c")),
  ...call("b2", "Bash", { command: "npm test" }, lines(6_000, "test")),
  ...Array.from({ length: 6 }, (): MessageSpec[] => [{ role: "assistant", text: "Looking further." }, { role: "user", text: "go on" }]).flat(),
];
const view = makeView({ outside_tokens: 1_000, messages });
const withTurns = (working_set_turns: number | null): CoreConfig => ({ ...CORE_DEFAULTS, working_set_turns });

describe("the working_set guard", () => {
  it("keeps every current file view (confidence 1) when unbounded; only the files touched in the last N turns when bounded", () => {
    expect(view.turn_count).toBe(12);
    const all = runHeuristicEngine(factsOf(view), withTurns(null));
    expect(all.hits.working_set).toEqual(["r1", "e1", "r2", "r3"]);
    expect(all.verdicts.r1).toEqual({ kind: "keep", confidence: 1, rule: "working_set" });
    expect(all.verdicts.b1).toEqual({ kind: "keep", confidence: 0, rule: "none" });
    // 9 turns: files touched at turn 3 or later (b.ts at 3, c.ts at 4); a.ts was last touched at turn 2.
    expect(runHeuristicEngine(factsOf(view), withTurns(9)).hits.working_set).toEqual(["r2", "r3"]);
    expect(runHeuristicEngine(factsOf(view), withTurns(7)).hits.working_set).toEqual([]);
  });
});

describe("tiers leave the working set whole", () => {
  const P = (o: Partial<BudgetPressure>): BudgetPressure => ({ turn_count: 12, context_pct_used: 0.3, idle_seconds: 0, session_complete: false, ...o });
  const ctx = (config: CoreConfig, o: Partial<TierContext> = {}): TierContext => ({
    view: factsOf(view), ledger: EMPTY_LEDGER, pressure: P({}), config, prices: MODEL_PRICES, now_ms: 10_000_000, expected_remaining_calls: 50, correlation_id: "req-1", ...o,
  });
  it("micro cuts the long build and test logs to a head; the long read of a.ts stays whole unless its file left the working set", () => {
    // A cold cache keeps micro from waiting for a cheaper moment (src/core/policy/step-timing.ts); idle_seconds raised so the tier stays micro.
    const due = (config: CoreConfig) => ctx({ ...config, idle_seconds: 3_600 }, { pressure: P({ idle_seconds: 300 }) });
    const kept = compact(due(withTurns(null)));
    expect(kept.tier).toBe("micro");
    const cut = (head_bytes: number) => ({ kind: "truncate_result", head_bytes });
    expect(kept.plan.actions).toEqual({ b1: cut(450), b2: cut(491) });
    const bounded = compact(due(withTurns(7)));
    // With 7 turns no file is in the working set: r1 (12 turns old, 6,000 bytes) loses its result to stale_large_output,
    // r2 is cut to a head, and the cost model's best cut point now ends before b2.
    expect(bounded.plan.actions).toEqual({ r1: { kind: "drop_result" }, b1: cut(450), r2: cut(461) });
  });
  it("the idle tier drops the old logs whole and leaves every current view of a file in the working set", () => {
    const first_seen = Object.fromEntries(view.pairs.map((p) => [p.id, 1_000_000]));
    const idle = (config: CoreConfig) => compact(ctx(config, { ledger: { ...EMPTY_LEDGER, first_seen }, pressure: P({ idle_seconds: 600 }) }));
    const r = idle(withTurns(null));
    expect(r.tier).toBe("time_based");
    expect(stepOutputOf(r).new_pair_rules).toEqual([{ pair_id: "b1", rule: "age" }, { pair_id: "b2", rule: "age" }]);
    expect(stepOutputOf(idle(withTurns(9))).new_pair_rules).toEqual([{ pair_id: "r1", rule: "age" }, { pair_id: "b1", rule: "age" }, { pair_id: "e1", rule: "age" }, { pair_id: "b2", rule: "age" }]);
  });
});
