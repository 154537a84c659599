/** readToolCallMemo (src/core/engine/read-tool-call-memo.ts): same answers as readToolCall, reused only for the same id, tool name and input. */
import { describe, expect, it } from "vitest";
import { readToolCall } from "../../src/core/engine/read-tool-call";
import { readToolCallMemo } from "../../src/core/engine/read-tool-call-memo";

describe("readToolCallMemo", () => {
  it("answers what readToolCall answers, and the stored object again for the same pair", () => {
    const p = { id: "memo-1", tool_name: "Read", input_text: '{"file_path":"src/a.ts","offset":10,"limit":5}' };
    const first = readToolCallMemo(p);
    expect(first).toEqual(readToolCall(p));
    expect(first).toEqual({ kind: "read", paths: ["src/a.ts"], range: { from: 10, to: 14 }, readonly: true, intent: "read:src/a.ts" });
    expect(readToolCallMemo({ ...p })).toBe(first);
  });

  it("a reused id with another input or tool is classified afresh", () => {
    const a = { id: "memo-2", tool_name: "Bash", input_text: '{"command":"ls src"}' };
    const b = { id: "memo-2", tool_name: "Bash", input_text: '{"command":"rm -rf build"}' };
    expect(readToolCallMemo(a)).toEqual(readToolCall(a));
    expect(readToolCallMemo(b)).toEqual(readToolCall(b));
    expect(readToolCallMemo(b)).not.toEqual(readToolCall(a));
    const c = { id: "memo-2", tool_name: "Read", input_text: b.input_text };
    expect(readToolCallMemo(c)).toEqual(readToolCall(c));
  });
});
