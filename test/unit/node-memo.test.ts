/** NodeMemo (src/providers/shared/node-memo.ts): computed once per node object, never shared between nodes. */
import { describe, expect, it } from "vitest";
import { NodeMemo } from "../../src/providers/shared/node-memo";
import { scanJson } from "../../src/providers/shared/json-scan";

describe("NodeMemo", () => {
  it("computes once per node object; an equal node of another scan is computed afresh", () => {
    const memo = new NodeMemo<number>();
    const bytes = new TextEncoder().encode('{"a":[1,2]}');
    const a = scanJson(bytes);
    const b = scanJson(bytes);
    let calls = 0;
    const f = () => ++calls;
    expect([memo.get(a, f), memo.get(a, f), memo.get(b, f), memo.get(a, f), calls]).toEqual([1, 1, 2, 1, 2]);
  });
});
