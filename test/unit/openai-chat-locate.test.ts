import { describe, expect, it } from "vitest";
import { openaiChatAdapter as chat } from "../../src/providers/openai-chat/index";
import { newCoreCaches } from "../../src/core/caches";

const enc = (s: string) => new TextEncoder().encode(s);
const call = (id: string) => ({ id, type: "function", function: { name: "f", arguments: "{}" } });
const tool = (id: string) => ({ role: "tool", tool_call_id: id, content: "x" });

/**
 * One assistant message with `extra` more plain calls than the interesting ones: d is repeated in
 * the message, a is answered twice, z answers nothing, b is never answered. With extra = 0 the
 * calls are matched by a linear scan, with extra = 20 through a Map (locate-pairs.ts FEW_CALLS):
 * the index must not depend on which.
 */
function read(extra: number) {
  const fill = Array.from({ length: extra }, (_, k) => `e${k}`);
  const messages = [
    { role: "user", content: "u" },
    { role: "assistant", content: null, tool_calls: [call("a"), call("b"), call("d"), call("d"), ...fill.map(call)] },
    tool("a"), tool("a"), tool("z"), tool("d"), ...fill.map(tool),
    { role: "user", content: "next" }, { role: "assistant", content: "ok" }, { role: "user", content: "more" },
  ];
  const view = chat.read(enc(JSON.stringify({ model: "m", messages })), newCoreCaches()).view;
  return {
    pairs: view.pairs.map((p) => [p.id, p.call.block_index, p.result.message_index]).filter(([id]) => !String(id).startsWith("e")),
    extraPairs: view.pairs.length - 1,
    orphans: view.orphans.map((o) => [o.id, o.kind, o.position.message_index, o.position.block_index]),
  };
}

describe("OpenAI Chat pairing within one assistant message", () => {
  it("gives the same pairs and orphans for few calls (linear scan) and many calls (Map)", () => {
    const expected = {
      pairs: [["a", 0, 2]],
      orphans: [
        ["d", "duplicate_id", 1, 2],
        ["d", "duplicate_id", 1, 3],
        ["a", "duplicate_id", 3, -1],
        ["z", "result_without_call", 4, -1],
        ["d", "duplicate_id", 5, -1],
        ["b", "call_without_result", 1, 1],
      ],
    };
    expect(read(0)).toEqual({ ...expected, extraPairs: 0 });
    expect(read(20)).toEqual({ ...expected, extraPairs: 20 });
  });
});
