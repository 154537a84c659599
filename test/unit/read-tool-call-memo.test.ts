/** ToolCallMemo (src/core/engine/read-tool-call-memo.ts): same answers as readToolCall, reused only for the same id, tool name and input. */
import { describe, expect, it } from "vitest";
import { readToolCall } from "../../src/core/engine/read-tool-call";
import { ToolCallMemo } from "../../src/core/engine/read-tool-call-memo";

describe("ToolCallMemo", () => {
  it("answers what readToolCall answers, and the stored object again for the same pair", () => {
    const memo = new ToolCallMemo();
    const p = { id: "memo-1", tool_name: "Read", input_text: '{"file_path":"src/a.ts","offset":10,"limit":5}' };
    const first = memo.read(p);
    expect(first).toEqual(readToolCall(p));
    expect(first).toEqual({ kind: "read", paths: ["src/a.ts"], range: { from: 10, to: 14 }, readonly: true, intent: "read:src/a.ts" });
    expect(memo.read({ ...p })).toBe(first);
  });

  it("a reused id with another input or tool is classified afresh", () => {
    const memo = new ToolCallMemo();
    const a = { id: "memo-2", tool_name: "Bash", input_text: '{"command":"ls src"}' };
    const b = { id: "memo-2", tool_name: "Bash", input_text: '{"command":"rm -rf build"}' };
    expect(memo.read(a)).toEqual(readToolCall(a));
    expect(memo.read(b)).toEqual(readToolCall(b));
    expect(memo.read(b)).not.toEqual(readToolCall(a));
    const c = { id: "memo-2", tool_name: "Read", input_text: b.input_text };
    expect(memo.read(c)).toEqual(readToolCall(c));
  });
});
