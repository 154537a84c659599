import { describe, expect, it } from "vitest";
import type { EngineCandidate } from "../../../src/engines/protocol";
import { decide } from "../../../tools/engine/decide";

const c = (id: string, over: Partial<EngineCandidate> = {}): EngineCandidate => ({
  id, tool_name: "Read", input_excerpt: '{"path":"a.ts"}', result_head: "x", result_bytes: 1, age_turns: 3, is_error: false, ...over,
});

describe("reference decide", () => {
  it("drops older duplicates of the same tool+input+head+size, keeps the newest", () => {
    expect(decide([c("t1"), c("t2", { input_excerpt: "other" }), c("t3"), c("t4")])).toEqual([
      { id: "t1", verdict: "drop_pair", confidence: 0.9 },
      { id: "t2", verdict: "keep", confidence: 1 },
      { id: "t3", verdict: "drop_pair", confidence: 0.9 },
      { id: "t4", verdict: "keep", confidence: 1 },
    ]);
  });

  it("a different size or head is not a duplicate", () => {
    expect(decide([c("t1", { result_bytes: 2 }), c("t2", { result_head: "y" }), c("t3")]).map((v) => v.verdict)).toEqual(["keep", "keep", "keep"]);
  });

  it("drops a failed call retried later with the same tool; the last failure stays", () => {
    expect(decide([c("b1", { tool_name: "Bash", is_error: true }), c("r1"), c("b2", { tool_name: "Bash", input_excerpt: "fixed" }),
      c("b3", { tool_name: "Bash", is_error: true, input_excerpt: "again" })])).toEqual([
      { id: "b1", verdict: "drop_pair", confidence: 0.8 },
      { id: "r1", verdict: "keep", confidence: 1 },
      { id: "b2", verdict: "keep", confidence: 1 },
      { id: "b3", verdict: "keep", confidence: 1 },
    ]);
  });

  it("a failed duplicate takes the higher confidence", () => {
    expect(decide([c("e1", { is_error: true }), c("e2", { is_error: true })])).toEqual([
      { id: "e1", verdict: "drop_pair", confidence: 0.9 },
      { id: "e2", verdict: "keep", confidence: 1 },
    ]);
  });

  it("no candidates, no verdicts", () => {
    expect(decide([])).toEqual([]);
  });
});
