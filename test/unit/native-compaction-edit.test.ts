/**
 * The compaction edit on the wire, exact bytes: render and insertion after the client's
 * clear_thinking edit, the independent checker (level rewrite only, the documented shape, the
 * messages byte for byte), decideForward's compaction branch (beta, note, report), the reader's
 * view of a history holding a compaction block, counting clearable tool uses after it, and the
 * answer's compaction iteration (usage and settlement).
 */
import { describe, expect, it } from "vitest";
import type { StepOutput } from "../../src/session/contract";
import { decideForward } from "../../src/gateway/decide-forward";
import { prepareCompaction } from "../../src/gateway/prepare-compaction";
import { checkNativeEdit } from "../../src/providers/anthropic-messages/check-native-edit";
import { insertNativeEdit, renderNativeEdit, type NativeCompactEdit } from "../../src/providers/anthropic-messages/native-edit";
import { scanJson } from "../../src/providers/shared/json-scan";
import { usageFromEvents, usageFromJson } from "../../src/usage/extract-usage";
import { settleNative } from "../../src/session/record-report";
import { assistant, result, use, user } from "../support/anthropic-bodies";
import { newCoreCaches } from "../../src/core/caches";

const enc = new TextEncoder();
const dec = new TextDecoder();
const THINK = { type: "thinking", thinking: "", signature: "sig" };
const CC_CM = { edits: [{ type: "clear_thinking_20251015", keep: "all" }] };
const COMPACTION = { type: "compaction", content: "Summary of 4 messages.", encrypted_content: null };
const messages = [
  user("go"),
  assistant([THINK, use("t1", { p: "a" }, "Read")]),
  user([result("t1", "A".repeat(400))]),
  assistant([THINK, use("t2", { p: "b" }, "Read")]),
  user([result("t2", "B".repeat(400))]),
  assistant("done"),
  user("next"),
];
const bodyOf = (extra: Record<string, unknown>, msgs: unknown[] = messages) => enc.encode(JSON.stringify({ model: "claude-opus-5-5", max_tokens: 100, ...extra, messages: msgs }));
const COMPACT: NativeCompactEdit = { type: "compact_20260112", trigger: { type: "input_tokens", value: 50_000 } };
const C = JSON.stringify(COMPACT);

describe("the compaction edit", () => {
  const b = bodyOf({ context_management: CC_CM });
  const root = scanJson(b);
  it("renders the trigger alone and clears nothing, whatever the plan", () => {
    expect(renderNativeEdit(b, root, { actions: { t1: { kind: "drop_result" } } }, { exclude_tools: [], compact: { trigger_tokens: 50_000 } }, newCoreCaches().anthropic))
      .toEqual({ edit: COMPACT, cleared: 0, clearable: 0, cleared_ids: [] });
  });
  const edited = insertNativeEdit(b, root, COMPACT);
  it("goes after Claude Code's clear_thinking edit, which stays first; every other byte is the client's", () => {
    expect(dec.decode(edited)).toBe(dec.decode(b).replace(`"keep":"all"}]}`, `"keep":"all"},${C}]}`));
  });
  it("the checker accepts it at rewrite only", () => {
    expect(checkNativeEdit(b, edited, COMPACT, "rewrite")).toEqual([]);
    expect(checkNativeEdit(b, edited, COMPACT, "strict")).toEqual(["added edit: compact_20260112 needs guarantee_level rewrite, not strict"]);
    expect(checkNativeEdit(b, edited, COMPACT)).toEqual(["added edit: compact_20260112 needs guarantee_level rewrite, not strict"]);
    expect(checkNativeEdit(b, edited, COMPACT, "placeholders")).toEqual(["added edit: compact_20260112 needs guarantee_level rewrite, not placeholders"]);
  });
  it("the checker rejects a changed message byte, a trigger under 50,000, an extra member", () => {
    const t = dec.decode(edited);
    expect(checkNativeEdit(b, enc.encode(t.replace('"next"', '"nexT"')), COMPACT, "rewrite")).toEqual(["messages: changed"]);
    const low = { ...COMPACT, trigger: { type: "input_tokens" as const, value: 49_999 } };
    expect(checkNativeEdit(b, enc.encode(t.replace(C, JSON.stringify(low))), low, "rewrite")).toEqual(["added edit: trigger"]);
    const paused = { ...COMPACT, pause_after_compaction: true };
    expect(checkNativeEdit(b, enc.encode(t.replace(C, JSON.stringify(paused))), paused, "rewrite")).toEqual(["added edit: unexpected member pause_after_compaction"]);
    expect(checkNativeEdit(b, edited, { ...COMPACT, trigger: { type: "input_tokens", value: 60_000 } }, "rewrite")).toEqual(["added edit: not the expected edit"]);
  });
});

describe("decideForward, compaction step", () => {
  const b = bodyOf({ context_management: CC_CM });
  const ready = prepareCompaction("anthropic", new Headers({ "x-sluice-session": "s" }), b);
  if (ready.kind !== "ready") throw new Error("not ready");
  const est = ready.parsed.view.est_tokens;
  const out: StepOutput = {
    disabled: false, tier: "auto", skipped: null, plan: { actions: {} }, step: 2, tokens_original: est, tokens_after: 3_100,
    pairs_removed: 0, cost_estimate: 0, new_pair_ids: [], warnings: [], native: { exclude_tools: [], compact: { trigger_tokens: 50_000 } },
  };
  it("at rewrite: the compaction edit, its beta, the trigger in the header, the trigger in the report", () => {
    const d = decideForward(ready, b, out, "compact", "c", null, "rewrite");
    expect(d.kind).toBe("edited");
    expect(dec.decode(d.body)).toBe(dec.decode(b).replace(`"keep":"all"}]}`, `"keep":"all"},${C}]}`));
    expect(d.beta).toBe("compact-2026-01-12");
    expect(d.note).toBe(`compact; tier=auto; step=2; pairs_removed=0; tokens_before=${est}; tokens_after=3100; mechanism=native; cleared_tool_uses=0; compaction_trigger=50000`);
    expect(d.report).toEqual({ correlation_id: "c", rollback_step: null, tokens_original: est, tokens_sent: 3_100, pairs_removed: 0, would_send: null, outcome: "compacted", tier: "auto", native_compaction_trigger: 50_000 });
  });
  it("at strict the checker refuses it: the original bytes go and the step rolls back", () => {
    const d = decideForward(ready, b, out, "compact", "c");
    expect([d.kind, d.body, d.note, d.report.rollback_step]).toEqual(["original", b, "skipped; reason=guarantee_check", 2]);
  });
});

describe("a history holding a compaction block", () => {
  // What a client sends after Sluice's compaction step: the whole history, the answer's compaction block, what followed.
  const echoed = [
    ...messages.slice(0, 5),
    assistant([COMPACTION, THINK, use("t3", { p: "c" }, "Read")]),
    user([result("t3", "C".repeat(400))]),
    assistant([THINK, use("t4", { p: "d" }, "Read")]),
    user([result("t4", "D".repeat(400))]),
    assistant("done"),
    user("next"),
  ];
  const b = bodyOf({ context_management: CC_CM }, echoed);
  it("reaches the session (it decides whether the block is its own); pairs keep their own locks; the block's message is named", () => {
    const r = prepareCompaction("anthropic", new Headers(), b);
    if (r.kind !== "ready") throw new Error("not ready");
    expect([r.parsed.view.server_managed, r.parsed.view.compaction_message]).toEqual(["compaction", 5]);
    expect(r.parsed.view.pairs.map((p) => [p.id, p.locked])).toEqual([["t1", "thinking_prefix"], ["t2", "thinking_prefix"], ["t3", "thinking_prefix"], ["t4", null]]);
  });
  it("a client edit that clears tool uses still stands aside before the session", () => {
    const r = prepareCompaction("anthropic", new Headers(), bodyOf({ context_management: { edits: [{ type: "clear_tool_uses_20250919" }] } }, echoed));
    if (r.kind !== "skip" || !("stand_aside" in r)) throw new Error("not a stand-aside");
    expect([r.note, r.reason, r.stand_aside.reason, r.stand_aside.type]).toEqual(["skipped; reason=server_managed", "server_managed", "server_managed", "clear_tool_uses_20250919"]);
  });
  it("clearable tool uses are counted from the block on (the provider drops everything before it)", () => {
    const r = renderNativeEdit(b, scanJson(b), { actions: { t3: { kind: "drop_result" } } }, { exclude_tools: [] }, newCoreCaches().anthropic);
    expect(r).toEqual({ edit: { type: "clear_tool_uses_20250919", trigger: { type: "input_tokens", value: 1 }, keep: { type: "tool_uses", value: 1 }, clear_tool_inputs: false }, cleared: 1, clearable: 2, cleared_ids: ["t3"] });
  });
});

describe("the answer's compaction iteration", () => {
  const iterations = [
    { type: "compaction", input_tokens: 180_000, output_tokens: 2_400, cache_read_input_tokens: 20_000, cache_creation_input_tokens: 0, cache_creation: null },
    { type: "message", input_tokens: 2_600, output_tokens: 300, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
  ];
  it("is read from usage.iterations, JSON and streaming (final message_delta)", () => {
    const json = JSON.stringify({ type: "message", content: [COMPACTION], usage: { input_tokens: 2_600, output_tokens: 300, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, iterations } });
    expect(usageFromJson("anthropic", json)?.compaction).toEqual({ input_tokens: 200_000, output_tokens: 2_400 });
    const start = { type: "message_start", message: { usage: { input_tokens: 2_600, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } } };
    const delta = { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 300, iterations } };
    const u = usageFromEvents("anthropic", [{ event: "message_start", data: JSON.stringify(start) }, { event: "message_delta", data: JSON.stringify(delta) }], null);
    expect(u).toEqual({ input_tokens: 2_600, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 300, compaction: { input_tokens: 200_000, output_tokens: 2_400 } });
  });
  const report = { correlation_id: "c", rollback_step: null, tokens_original: 120_000, tokens_sent: 4_000, pairs_removed: 0, would_send: null, outcome: "compacted" as const, tier: "auto" as const, native_compaction_trigger: 50_000 };
  const usage = { input_tokens: 2_600, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 300 };
  it("settles the step: reported, the saving stands and the summary's cost is counted; absent, nothing was saved", () => {
    expect(settleNative(report, { ...usage, compaction: { input_tokens: 200_000, output_tokens: 2_400 } }))
      .toEqual({ outcome: report, counters: { native_compactions: 1, native_compaction_input_tokens: 200_000, native_compaction_output_tokens: 2_400 }, compacted: true });
    expect(settleNative(report, usage)).toEqual({ outcome: { ...report, outcome: "native_not_applied", tokens_sent: 120_000 }, counters: {} });
  });
});
