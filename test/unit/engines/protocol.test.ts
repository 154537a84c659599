import { describe, expect, it } from "vitest";
import type { ToolPair } from "../../../src/core/view/types";
import { buildEngineRequest } from "../../../src/engines/build-engine-request";
import { engineRequestSchema } from "../../../src/engines/protocol";
import { headChars } from "../../../src/core/text/head-chars";
import { pairFacts } from "../../../src/core/facts/step-facts";
import { readEngineAnswer } from "../../../src/engines/read-engine-answer";
import { ToolCallMemo } from "../../../src/core/engine/read-tool-call-memo";

const pair = (id: string, over: Partial<ToolPair> = {}): ToolPair => ({
  id, tool_name: "Read", input_text: '{"path":"a.ts"}', input_bytes: 15, call: { message_index: 1, block_index: 0 },
  result: { message_index: 2, block_index: 0 }, turn_index: 1, result_text: "line1\nline2", result_bytes: 13,
  result_est_tokens: 4, result_is_error: false, result_media_count: 0, result_hash: "00", locked: null, ...over,
});

describe("headChars", () => {
  it("cuts at n UTF-16 units and never splits a surrogate pair", () => {
    expect(headChars("abcdef", 3)).toBe("abc");
    expect(headChars("ab", 3)).toBe("ab");
    expect(headChars("a😀b", 2)).toBe("a");
    expect(headChars("a😀b", 3)).toBe("a😀");
    expect(headChars("abc", 0)).toBe("");
  });
});

describe("buildEngineRequest", () => {
  it("maps pairs to candidates with head_chars caps and ages", () => {
    const facts = (p: ToolPair) => pairFacts(p, { head_chars: 8, engine: "local" }, new ToolCallMemo());
    const req = buildEngineRequest(
      [facts(pair("t1", { result_text: "0123456789", input_text: "abcdefghijkl" })), facts(pair("t2", { turn_index: 5, result_is_error: true, tool_name: "Bash" }))],
      { model: "qwen3:8b", head_chars: 8, turn_count: 6 });
    expect(req).toEqual({
      protocol: "sluice-engine/1", model: "qwen3:8b", head_chars: 8,
      candidates: [
        { id: "t1", tool_name: "Read", input_excerpt: "abcdefgh", result_head: "01234567", result_bytes: 13, age_turns: 5, is_error: false },
        { id: "t2", tool_name: "Bash", input_excerpt: '{"path":', result_head: "line1\nli", result_bytes: 13, age_turns: 1, is_error: true },
      ],
    });
    expect(engineRequestSchema.safeParse(req).success).toBe(true);
  });
});

describe("readEngineAnswer", () => {
  const ids = ["a", "b", "c"];
  const answer = (verdicts: unknown) => JSON.stringify({ verdicts });

  it("turns confident verdicts into plan actions; below the threshold is keep", () => {
    const r = readEngineAnswer(answer([
      { id: "a", verdict: "drop_pair", confidence: 0.9 },
      { id: "b", verdict: "drop_result", confidence: 0.59 },
      { id: "c", verdict: "drop_result", confidence: 0.6, reason: "ignored" },
    ]), ids, 0.6);
    expect(r).toEqual({ ok: true, plan: { actions: { a: { kind: "drop_pair" }, c: { kind: "drop_result" } } }, verdicts: [
      { id: "a", verdict: "drop_pair", confidence: 0.9 },
      { id: "b", verdict: "drop_result", confidence: 0.59 },
      { id: "c", verdict: "drop_result", confidence: 0.6 },
    ], cost_usd: 0 });
  });

  it("cost_usd: the engine's reported cost of the answer, USD; absent is 0; negative, infinite or a string is malformed", () => {
    const keep = ids.map((id) => ({ id, verdict: "keep", confidence: 1 }));
    const withCost = (cost: unknown) => readEngineAnswer(JSON.stringify({ verdicts: keep, cost_usd: cost }), ids, 0.6);
    expect(withCost(0.0042)).toMatchObject({ ok: true, cost_usd: 0.0042 });
    expect(withCost(0)).toMatchObject({ ok: true, cost_usd: 0 });
    expect(readEngineAnswer(answer(keep), ids, 0.6)).toMatchObject({ ok: true, cost_usd: 0 });
    expect(withCost(-0.01)).toEqual({ ok: false, detail: "answer does not match the protocol at cost_usd" });
    expect(withCost("0.01")).toEqual({ ok: false, detail: "answer does not match the protocol at cost_usd" });
    expect(readEngineAnswer('{"verdicts":[],"cost_usd":1e999}', [], 0.6)).toEqual({ ok: false, detail: "answer does not match the protocol at cost_usd" });
  });

  it("keep verdicts leave the plan empty", () => {
    const r = readEngineAnswer(answer(ids.map((id) => ({ id, verdict: "keep", confidence: 1 }))), ids, 0.6);
    expect(r.ok && r.plan).toEqual({ actions: {} });
  });

  it("any defect makes the whole answer malformed", () => {
    const ok = [{ id: "a", verdict: "keep", confidence: 1 }, { id: "b", verdict: "keep", confidence: 1 }];
    const cases: Array<[string, string]> = [
      ["{verdicts:", "answer is not JSON"],
      ["[]", "answer does not match the protocol at (root)"],
      [answer([...ok, { id: "c", verdict: "delete", confidence: 1 }]), "answer does not match the protocol at verdicts.2.verdict"],
      [answer([...ok, { id: "c", verdict: "keep", confidence: 1.5 }]), "answer does not match the protocol at verdicts.2.confidence"],
      [answer([...ok, { id: "c", verdict: "keep", confidence: "0.9" }]), "answer does not match the protocol at verdicts.2.confidence"],
      [answer([...ok, { id: "c", verdict: "keep", confidence: 1 }, { id: "zz", verdict: "keep", confidence: 1 }]), 'unknown id "zz"'],
      [answer(ok), 'missing 1 id(s), first "c"'],
      [answer([...ok, { id: "b", verdict: "keep", confidence: 1 }]), 'duplicate id "b"'],
    ];
    expect(cases.map(([text]) => readEngineAnswer(text, ids, 0.6))).toEqual(cases.map(([, detail]) => ({ ok: false, detail })));
  });
});
