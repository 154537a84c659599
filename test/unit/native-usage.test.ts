/** applied_edits read from Anthropic answers (JSON and SSE) and the native saving settled against them. */
import { describe, expect, it } from "vitest";
import type { OutcomeReport } from "../../src/session/contract";
import { usageFromEvents, usageFromJson } from "../../src/usage/extract-usage";
import { settleNative } from "../../src/session/record-report";

const USAGE = { input_tokens: 10, cache_read_input_tokens: 2000, cache_creation_input_tokens: 300, output_tokens: 40 };
const APPLIED = [
  { type: "clear_thinking_20251015", cleared_thinking_turns: 0, cleared_input_tokens: 0 },
  { type: "clear_tool_uses_20250919", cleared_tool_uses: 12, cleared_input_tokens: 48000 },
];
const NEUTRAL = [
  { type: "clear_thinking_20251015", cleared_tool_uses: 0, cleared_thinking_turns: 0, cleared_input_tokens: 0 },
  { type: "clear_tool_uses_20250919", cleared_tool_uses: 12, cleared_thinking_turns: 0, cleared_input_tokens: 48000 },
];

describe("applied_edits", () => {
  it("from a JSON message", () => {
    const body = JSON.stringify({ type: "message", content: [], usage: USAGE, context_management: { applied_edits: APPLIED } });
    expect(usageFromJson("anthropic", body)).toEqual({ ...USAGE, applied_edits: NEUTRAL });
    expect(usageFromJson("anthropic", JSON.stringify({ usage: USAGE, context_management: null }))).toEqual(USAGE);
  });
  it("from the final message_delta of a stream", () => {
    const events = [
      { event: "message_start", data: JSON.stringify({ type: "message_start", message: { usage: { ...USAGE, output_tokens: 1 }, context_management: null } }) },
      { event: "message_delta", data: JSON.stringify({ type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 40 }, context_management: { applied_edits: APPLIED } }) },
    ];
    expect(usageFromEvents("anthropic", events, null)).toEqual({ ...USAGE, applied_edits: NEUTRAL });
  });
});

describe("settleNative", () => {
  const outcome: OutcomeReport = { correlation_id: "c", outcome: "compacted", rollback_step: null, tokens_original: 60000, tokens_sent: 12000, tier: "auto", pairs_removed: 12, would_send: null, native_cleared: 12 };
  it("an applied edit keeps the saving and adds the provider's counts", () => {
    expect(settleNative(outcome, { ...USAGE, applied_edits: NEUTRAL })).toEqual({ outcome, counters: { native_cleared_tool_uses: 12, native_cleared_input_tokens: 48000 }, provider: { applied: true, tool_uses: 12, input_tokens: 48000 } });
    const other = NEUTRAL.map((e) => (e.type === "clear_tool_uses_20250919" ? { ...e, cleared_tool_uses: 11 } : e));
    expect(settleNative(outcome, { ...USAGE, applied_edits: other }).counters).toEqual({ native_cleared_tool_uses: 11, native_cleared_input_tokens: 48000, native_count_mismatch: 1 });
  });
  it("an edit the provider did not apply is recorded as native_not_applied and saves nothing", () => {
    const none = { ...outcome, outcome: "native_not_applied", tokens_sent: 60000, pairs_removed: 0 };
    const notApplied = { outcome: none, counters: {}, provider: { applied: false, tool_uses: 0, input_tokens: 0 } };
    expect(settleNative(outcome, USAGE)).toEqual(notApplied);
    expect(settleNative(outcome, { ...USAGE, applied_edits: [NEUTRAL[0]!] })).toEqual(notApplied);
    expect(settleNative(outcome, null)).toEqual(notApplied);
  });
  it("a spliced outcome is left as it is", () => {
    const spliced = { ...outcome, native_cleared: undefined };
    expect(settleNative(spliced, null)).toEqual({ outcome: spliced, counters: {} });
    expect(settleNative(null, USAGE)).toEqual({ outcome: null, counters: {} });
  });
});
