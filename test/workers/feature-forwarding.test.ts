/**
 * Newer provider features in a request Sluice compacts: the feature's bytes go upstream exactly
 * as the client sent them and the edit is the one the same conversation without the feature gets.
 * Each case runs the conversation with and without the feature in two sessions (two calls, 4,000 s
 * apart: past every cache TTL involved, so the second call takes a step in both) and expects the
 * forwarded bytes with the feature to equal the forwarded bytes without it, with the feature put
 * back the same way: 1-hour cache markers, mid-conversation tool additions and `clear_at` system
 * messages (Anthropic), `prompt_cache_options` / `prompt_cache_retention` / `prompt_cache_breakpoint`
 * (OpenAI Responses and Chat, GPT-5.6+).
 */
import { describe, expect, it } from "vitest";
import { literalAnthropic, literalResponsesInput, logText, sessionCalls } from "./pipeline-harness";

type Obj = Record<string, any>;

/** The bytes the upstream got for the second of two calls of `body` at `path`, 4,000 s apart, in a new session (which took a step). */
async function secondForwarded(path: string, body: string, headers: Record<string, string> = {}): Promise<string> {
  const r = await sessionCalls(path, [body, body], 4_000_000, headers);
  expect(r.headers[1]).toMatch(/^compact; tier=[a-z_]+; step=1;/);
  return r.forwarded[1]!;
}

/** Runs `base` and `withFeature(base)`; the second's forwarded bytes must be `withFeature` of the first's, and shorter than sent. */
async function expectFeatureKept(path: string, base: Obj, withFeature: (b: Obj) => Obj, headers: Record<string, string> = {}) {
  const plain = await secondForwarded(path, JSON.stringify(base), headers);
  const sent = JSON.stringify(withFeature(structuredClone(base)));
  const forwarded = await secondForwarded(path, sent, headers);
  expect(forwarded.length).toBeLessThan(sent.length);
  expect(forwarded).toBe(JSON.stringify(withFeature(JSON.parse(plain))));
}

const ANTHROPIC = "/anthropic/v1/messages";
/** The literal conversation with a cached system prompt and a cache marker on the last user message. */
function anthropicBase(): Obj {
  const b = literalAnthropic(logText("a", 800), logText("b", 800)) as Obj;
  const messages = b.messages as Obj[];
  messages[messages.length - 1] = { role: "user", content: [{ type: "text", text: "Next, please.", cache_control: { type: "ephemeral" } }] };
  return { model: b.model, max_tokens: b.max_tokens, system: [{ type: "text", text: "You run checks.", cache_control: { type: "ephemeral" } }], tools: b.tools, messages };
}

describe("Anthropic: the feature's bytes as sent, the same edit", () => {
  it("a 1-hour cache marker before a 5-minute one", async () => {
    await expectFeatureKept(ANTHROPIC, anthropicBase(), (b) => {
      b.system[0].cache_control = { type: "ephemeral", ttl: "1h" };
      return b;
    });
  });

  it("a mid-conversation tool addition (beta mid-conversation-tool-changes-2026-07-01)", async () => {
    await expectFeatureKept(ANTHROPIC, anthropicBase(), (b) => {
      b.messages.push({ role: "system", content: [{ type: "tool_addition", tool: { type: "tool_reference", name: "Grep" } }] });
      return b;
    }, { "anthropic-beta": "mid-conversation-tool-changes-2026-07-01" });
  });

  it("a mid-conversation system message with clear_at (beta mid-conversation-system-clear-at-2026-08-21)", async () => {
    await expectFeatureKept(ANTHROPIC, anthropicBase(), (b) => {
      b.messages.push({ role: "system", clear_at: "next_user_message", content: "Answer in one line." });
      return b;
    }, { "anthropic-beta": "mid-conversation-system-clear-at-2026-08-21" });
  });
});

describe("OpenAI GPT-5.6+ prompt caching: the feature's bytes as sent, the same edit", () => {
  const responsesBase = (): Obj => ({ model: "gpt-5.6-sol", input: literalResponsesInput(logText("a", 800), logText("b", 800)), store: false });

  it("Responses: prompt_cache_options, prompt_cache_retention and a prompt_cache_breakpoint on the last user part", async () => {
    await expectFeatureKept("/openai/v1/responses", responsesBase(), (b) => {
      b.input[b.input.length - 1].content[0].prompt_cache_breakpoint = { ttl: "30m" };
      return { ...b, prompt_cache_options: { mode: "explicit", ttl: "30m" }, prompt_cache_retention: "in_memory" };
    });
  });

  it("Chat: prompt_cache_options and prompt_cache_retention", async () => {
    const chat: Obj = {
      model: "gpt-5.6-sol",
      messages: [
        { role: "user", content: "Run the checks." },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "shell", arguments: "{\"cmd\":\"make a\"}" } }] },
        { role: "tool", tool_call_id: "c1", content: logText("a", 800) },
        { role: "assistant", content: null, tool_calls: [{ id: "c2", type: "function", function: { name: "shell", arguments: "{\"cmd\":\"make b\"}" } }] },
        { role: "tool", tool_call_id: "c2", content: logText("b", 800) },
        { role: "assistant", content: "Both ran." },
        { role: "user", content: "Next." },
      ],
    };
    await expectFeatureKept("/openai/v1/chat/completions", chat, (b) => ({ ...b, prompt_cache_options: { mode: "implicit", ttl: "30m" }, prompt_cache_retention: "24h" }));
  });
});
