/**
 * Mention keys read from a parsed body (src/providers/shared/message-mentions.ts) through the
 * real adapters: only assistant prose counts (string content, text / output_text parts), never
 * tool calls, tool results, user text or reasoning; and the step facts carry them per message.
 */
import { describe, expect, it } from "vitest";
import { proseMentionKeys } from "../../src/core/text/mention-keys";
import { requestFactsOf } from "../../src/gateway/request-facts";
import { messageMentions } from "../../src/providers/shared/message-mentions";
import { adapterFor } from "../../src/providers/registry";
import { decodeStepFacts, encodeStepFacts } from "../../src/core/facts/wire-facts";
import { newCoreCaches } from "../../src/core/caches";

const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));

describe("messageMentions", () => {
  it("OpenAI Chat: the assistant's string content only", () => {
    const parsed = adapterFor("openai-chat")!.read(enc({
      model: "gpt-4o",
      messages: [
        { role: "user", content: "fix `src/user.ts`" },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "shell", arguments: '{"command":"cat src/a.ts"}' } }] },
        { role: "tool", tool_call_id: "c1", content: "see src/tool.ts" },
        { role: "assistant", content: "Changed `src/a.ts`." },
      ],
    }), newCoreCaches());
    expect(messageMentions(parsed)).toEqual([[], [], [], proseMentionKeys("Changed `src/a.ts`.")]);
  });
  it("Anthropic: text blocks of assistant messages, not tool_use, tool_result or thinking", () => {
    const parsed = adapterFor("anthropic")!.read(enc({
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      messages: [
        { role: "user", content: "go" },
        { role: "assistant", content: [{ type: "thinking", thinking: "maybe lib/x.py", signature: "s" }, { type: "text", text: "Reading app.js" }, { type: "tool_use", id: "t1", name: "Read", input: { file_path: "/r/b.ts" } }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "c.ts" }] },
      ],
    }), newCoreCaches());
    expect(messageMentions(parsed)).toEqual([[], proseMentionKeys("Reading app.js\n"), []]);
  });
  it("OpenAI Responses: output_text parts of assistant message items; the facts carry them through the wire codec", () => {
    const parsed = adapterFor("openai-responses")!.read(enc({
      model: "gpt-5",
      input: [
        { type: "message", role: "user", content: [{ type: "input_text", text: "see a.md" }] },
        { type: "reasoning", summary: [{ type: "summary_text", text: "b.md" }] },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Updated `README.md`" }] },
      ],
    }), newCoreCaches());
    const keys = proseMentionKeys("Updated `README.md`\n");
    expect(messageMentions(parsed)).toEqual([[], [], keys]);
    const facts = requestFactsOf(parsed, { head_chars: 100, engine: "heuristic" });
    expect(facts.messages.map((m) => m.mentions)).toEqual([[], [], keys]);
    expect(decodeStepFacts(encodeStepFacts(facts))).toEqual(facts);
  });
});
