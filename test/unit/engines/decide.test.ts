/** The reference engine's decide(): the core heuristic rules over protocol candidates (exact verdicts). */
import { describe, expect, it } from "vitest";
import type { EngineCandidate } from "../../../src/engines/protocol";
import { candidatesView, decide } from "../../../tools/engine/decide";

const c = (id: string, over: Partial<EngineCandidate> = {}): EngineCandidate => ({
  id, tool_name: "Read", input_excerpt: '{"file_path":"a.ts"}', result_head: "x", result_bytes: 1, age_turns: 3, is_error: false, ...over,
});

describe("reference decide (core heuristic over candidates)", () => {
  it("older reads of the same file are dropped (superseded; a 1-byte repeat is too small for duplicate_result); the newest and other files stay", () => {
    expect(decide([c("t1"), c("t2", { input_excerpt: '{"file_path":"b.ts"}' }), c("t3"), c("t4")])).toEqual([
      { id: "t1", verdict: "drop_pair", confidence: 0.9 },
      { id: "t2", verdict: "keep", confidence: 1 },
      { id: "t3", verdict: "drop_pair", confidence: 0.9 },
      { id: "t4", verdict: "keep", confidence: 1 },
    ]);
  });

  it("a failed command retried successfully is dropped", () => {
    const bash = (id: string, head: string, is_error: boolean) => c(id, { tool_name: "Bash", input_excerpt: '{"command":"npm test"}', result_head: head, is_error });
    expect(decide([bash("b1", "Error: failed\nexit code 1", true), bash("b2", "ok", false)])).toEqual([
      { id: "b1", verdict: "drop_pair", confidence: 0.85 },
      { id: "b2", verdict: "keep", confidence: 1 },
    ]);
  });

  it("a large old read-only output loses its result (drop_result)", () => {
    expect(decide([c("s1", { tool_name: "Bash", input_excerpt: '{"command":"ls -la"}', result_bytes: 9000, age_turns: 20 }), c("s2", { age_turns: 0 })])).toEqual([
      { id: "s1", verdict: "drop_result", confidence: 0.65 },
      { id: "s2", verdict: "keep", confidence: 1 },
    ]);
  });

  it("maps ages to turn indexes and heads+sizes to result hashes", () => {
    const v = candidatesView([c("a", { age_turns: 5 }), c("b", { age_turns: 0, result_bytes: 2 })]);
    expect(v.turn_count).toBe(5);
    expect(v.pairs.map((p) => p.turn_index)).toEqual([0, 5]);
    expect(v.pairs[0]!.result_hash).not.toBe(v.pairs[1]!.result_hash);
  });

  it("no candidates, no verdicts", () => {
    expect(decide([])).toEqual([]);
  });
});
