/**
 * What Sluice forwards for the providers' own compaction passes the emulator's checks of those
 * features (tools/emulator/anthropic/on-demand-compaction.ts, openai-responses/compaction.ts), and
 * the edit Sluice would otherwise add is what the emulator refuses: so a regression that made
 * Sluice touch these requests shows up as a 400 in the replay and the e2e run.
 */
import { describe, expect, it } from "vitest";
import { compactionSignature } from "../../tools/emulator/anthropic/on-demand-compaction";
import { validateMessagesRequest } from "../../tools/emulator/anthropic/validate-messages";
import { validateResponsesRequest } from "../../tools/emulator/openai-responses/validate-request";
import { claudeCodeLiteral, literalResponsesInput, logText, sessionCalls, thinkingBlock as THINK } from "./pipeline-harness";

const BETA = "compact-2026-09-04,context-management-2025-06-27";
const headers = { "anthropic-beta": BETA };
const noLinks = { requiredReasoning: new Map<string, string>(), reasoningFollower: new Map<string, string>() };

/** The bytes the upstream got for the second of two calls of `body` at `path`, 400 s apart, in a new session. */
const secondForwarded = async (path: string, body: string, extra: Record<string, string> = {}): Promise<string> => (await sessionCalls(path, [body, body], 400_000, extra)).forwarded[1]!;

const claudeCode = (messages: unknown[], extra: Record<string, unknown> = {}) => JSON.stringify({ ...JSON.parse(claudeCodeLiteral(extra)), messages });

describe("Anthropic on-demand compaction through Sluice, checked by the emulator", () => {
  it("the summary request goes as sent and passes; Sluice's native edit beside it would be refused", async () => {
    const body = claudeCodeLiteral({ compaction: { type: "summarize" } });
    const forwarded = await secondForwarded("/anthropic/v1/messages", body, headers);
    expect(forwarded).toBe(body);
    expect(validateMessagesRequest(JSON.parse(forwarded), headers)).toMatchObject({ ok: true });
    // The control: the same conversation without the field gets Sluice's native edit; with the field added back, the emulator refuses it.
    const edited = JSON.parse(await secondForwarded("/anthropic/v1/messages", claudeCodeLiteral(), headers));
    expect(edited.context_management.edits.map((e: { type: string }) => e.type)).toContain("clear_tool_uses_20250919");
    expect(validateMessagesRequest({ ...edited, compaction: { type: "summarize" } }, headers)).toEqual({
      ok: false,
      rejection: { api: "anthropic", status: 400, type: "invalid_request_error", message: "compaction: cannot be combined with `context_management`" },
    });
  });

  it("the signed block sent back goes as sent and passes; its content changed would be refused", async () => {
    const summary = "Summary of 7 messages.";
    const block = { type: "compaction", content: summary, signature: compactionSignature(summary) };
    // The returned message first, in place of the messages it summarised.
    const later = [{ role: "assistant", content: [block] }, { role: "user", content: "Continue." }, { role: "assistant", content: [THINK("d"), { type: "tool_use", id: "toolu_C", name: "shell", input: { cmd: "make c" } }] }, { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_C", content: logText("c", 800) }] }, { role: "assistant", content: [THINK("e"), { type: "text", text: "Ran." }] }, { role: "user", content: "Go on." }];
    const body = claudeCode(later);
    const forwarded = await secondForwarded("/anthropic/v1/messages", body, headers);
    expect(forwarded).toBe(body);
    expect(validateMessagesRequest(JSON.parse(forwarded), headers)).toMatchObject({ ok: true });
    const changed = JSON.parse(body);
    changed.messages[0].content[0].content = "Summary of 6 messages.";
    expect(validateMessagesRequest(changed, headers)).toMatchObject({ ok: false, rejection: { message: "messages.0.content.0: Invalid `signature` in `compaction` block" } });
  });
});

describe("Responses compaction through Sluice, checked by the emulator", () => {
  const INPUT = literalResponsesInput(logText("a", 800), logText("b", 800));
  const responses = (input: unknown[], extra: Record<string, unknown> = {}) => JSON.stringify({ model: "gpt-6.2-sol", input, store: false, ...extra });

  it.each([
    ["a compaction_trigger request", responses([...INPUT, { type: "compaction_trigger" }])],
    ["a context_management compaction request", responses(INPUT, { context_management: [{ type: "compaction", compact_threshold: 200000 }] })],
  ])("%s goes as sent and passes R5–R7", async (_, body) => {
    const forwarded = await secondForwarded("/openai/v1/responses", body);
    expect(forwarded).toBe(body);
    expect(validateResponsesRequest(JSON.parse(forwarded), noLinks)).toBeNull();
  });

  it("an item added after the trigger (a proxy appending to the input) would be refused", () => {
    const moved = JSON.parse(responses([...INPUT, { type: "compaction_trigger" }, { type: "message", role: "user", content: [{ type: "input_text", text: "[memory]" }] }]));
    expect(validateResponsesRequest(moved, noLinks)).toEqual({ api: "openai", status: 400, type: "invalid_request_error", message: "The 'compaction_trigger' item must be the final input item.", param: "input", code: null });
  });
});
