/**
 * The native mechanism's request edit, exact bytes: render (keep = clearable − C), insertion
 * (after the client's edits, or a new member), the independent checker, and decideForward's
 * native branch with its header note and beta.
 */
import { describe, expect, it } from "vitest";
import type { StepOutput } from "../../src/session/contract";
import { decideForward } from "../../src/gateway/decide-forward";
import { prepareCompaction } from "../../src/gateway/prepare-compaction";
import { betaHeaderFor } from "../../src/gateway/request-headers";
import { checkNativeEdit } from "../../src/providers/anthropic-messages/check-native-edit";
import { insertNativeEdit, NativeInsertError, renderNativeEdit, type NativeClearEdit } from "../../src/providers/anthropic-messages/native-edit";
import { scanJson } from "../../src/providers/shared/json-scan";
import { assistant, result, use, user } from "../support/anthropic-bodies";
import { newCoreCaches } from "../../src/core/caches";

const enc = new TextEncoder();
const dec = new TextDecoder();
const THINK = { type: "thinking", thinking: "", signature: "sig" };
const messages = [
  user("go"),
  assistant([THINK, use("t1", { p: "a" }, "Read"), use("m1", {}, "memory")]),
  user([result("t1", "A".repeat(400)), result("m1", "M")]),
  assistant([THINK, use("t2", { p: "b" }, "Read")]),
  user([result("t2", "B".repeat(400))]),
  assistant([THINK, use("t3", {}, "Bash")]),
  user([result("t3", "C")]),
  assistant("done"),
  user("next"),
];
const CC_CM = { edits: [{ type: "clear_thinking_20251015", keep: "all" }] };
const bodyOf = (extra: Record<string, unknown>) => enc.encode(JSON.stringify({ model: "claude-opus-5-5", max_tokens: 100, ...extra, messages }));
const EDIT = (keep: number, exclude?: string[]): NativeClearEdit => ({ type: "clear_tool_uses_20250919", trigger: { type: "input_tokens", value: 1 }, keep: { type: "tool_uses", value: keep }, ...(exclude ? { exclude_tools: exclude } : {}), clear_tool_inputs: false });
const E = (keep: number, exclude?: string[]) => JSON.stringify(EDIT(keep, exclude));

describe("renderNativeEdit", () => {
  const bytes = bodyOf({});
  const root = scanJson(bytes);
  it("C = leading clearable tool uses removed; keep = clearable − C; excluded tools neither counted nor cleared", () => {
    const r = renderNativeEdit(bytes, root, { actions: { t1: { kind: "drop_result" }, t2: { kind: "drop_pair" } } }, { exclude_tools: ["memory"] }, newCoreCaches().anthropic);
    expect(r).toEqual({ edit: EDIT(1, ["memory"]), cleared: 2, clearable: 3, cleared_ids: ["t1", "t2"] });
  });
  it("counts only a leading run: a removal after a kept use is not cleared", () => {
    const r = renderNativeEdit(bytes, root, { actions: { t2: { kind: "drop_result" } } }, { exclude_tools: [] }, newCoreCaches().anthropic);
    expect(r).toBeNull();
    const r2 = renderNativeEdit(bytes, root, { actions: { t1: { kind: "drop_result" }, t3: { kind: "drop_result" } } }, { exclude_tools: [] }, newCoreCaches().anthropic);
    expect(r2).toEqual({ edit: EDIT(3), cleared: 1, clearable: 4, cleared_ids: ["t1"] });
  });
});

describe("insertNativeEdit", () => {
  const ins = (b: Uint8Array, e: NativeClearEdit) => dec.decode(insertNativeEdit(b, scanJson(b), e));
  it("after Claude Code's clear_thinking edit, which stays first", () => {
    const b = bodyOf({ context_management: CC_CM });
    expect(ins(b, EDIT(2))).toBe(dec.decode(b).replace(`"keep":"all"}]}`, `"keep":"all"},${E(2)}]}`));
  });
  it("a new top-level member after the last one when the client sent none; an edits member when it sent {}; into []", () => {
    const b = bodyOf({});
    expect(ins(b, EDIT(2))).toBe(`${dec.decode(b).slice(0, -1)},"context_management":{"edits":[${E(2)}]}}`);
    const b2 = enc.encode('{"context_management":{},"messages":[]}');
    expect(ins(b2, EDIT(0))).toBe(`{"context_management":{"edits":[${E(0)}]},"messages":[]}`);
    const b3 = enc.encode('{"context_management":{"x":1},"messages":[]}');
    expect(ins(b3, EDIT(0))).toBe(`{"context_management":{"edits":[${E(0)}],"x":1},"messages":[]}`);
    const b4 = enc.encode('{"context_management":{"edits":[ ]},"messages":[]}');
    expect(ins(b4, EDIT(0))).toBe(`{"context_management":{"edits":[${E(0)} ]},"messages":[]}`);
  });
  it("refuses a context_management or edits that is not an object / array", () => {
    const b = enc.encode('{"context_management":null,"messages":[]}');
    expect(() => insertNativeEdit(b, scanJson(b), EDIT(0))).toThrow(new NativeInsertError("context_management", "expected an object, got null"));
  });
});

describe("checkNativeEdit", () => {
  const b = bodyOf({ context_management: CC_CM });
  const good = insertNativeEdit(b, scanJson(b), EDIT(2));
  it("accepts exactly one added edit after the client's", () => {
    expect(checkNativeEdit(b, good, EDIT(2))).toEqual([]);
  });
  it("names each violation", () => {
    const t = dec.decode(good);
    expect(checkNativeEdit(b, enc.encode(t.replace('"go"', '"Go"')), EDIT(2))).toEqual(["messages: changed"]);
    expect(checkNativeEdit(b, enc.encode(t.replace(`{"type":"clear_thinking_20251015","keep":"all"},${E(2)}`, `${E(2)},{"type":"clear_thinking_20251015","keep":"all"}`)), EDIT(2))).toEqual([
      "context_management.edits[0]: the client's edit changed", "added edit: type", "added edit: trigger", "added edit: keep", "added edit: clear_tool_inputs", "added edit: not the expected edit",
    ]);
    expect(checkNativeEdit(b, enc.encode(t.replace(E(2), `${E(2)},${E(2)}`)), EDIT(2))).toEqual(["context_management.edits: expected 2 edits, got 3"]);
    expect(checkNativeEdit(b, good, EDIT(3))).toEqual(["added edit: not the expected edit"]);
    expect(checkNativeEdit(b, enc.encode(t.replace('"clear_tool_inputs":false', '"clear_tool_inputs":true')), EDIT(2))).toEqual(["added edit: clear_tool_inputs", "added edit: not the expected edit"]);
    expect(checkNativeEdit(b, enc.encode(t.replace('"max_tokens":100', '"max_tokens":101')), EDIT(2))).toEqual(["max_tokens: changed"]);
  });
});

describe("decideForward, native", () => {
  const b = bodyOf({ context_management: CC_CM });
  const ready = prepareCompaction("anthropic", new Headers({ "x-sluice-session": "s" }), b);
  if (ready.kind !== "ready") throw new Error("not ready");
  const est = ready.parsed.view.est_tokens;
  const out: StepOutput = {
    disabled: false, tier: "auto", skipped: null, plan: { actions: { t1: { kind: "drop_result" }, t2: { kind: "drop_result" } } }, step: 3, tokens_original: est, tokens_after: est,
    pairs_removed: 2, cost_estimate: 0, new_pair_ids: ["t2"], warnings: [], native: { exclude_tools: ["memory"] },
  };
  const cleared = ready.parsed.view.pairs.filter((p) => p.id === "t1" || p.id === "t2").reduce((s, p) => s + p.result_est_tokens, 0);

  it("forwards the messages byte for byte with one inserted edit, the beta to add, and the header stating the mechanism", () => {
    const d = decideForward(ready, b, out, "compact", "c");
    expect(d.kind).toBe("edited");
    expect(dec.decode(d.body)).toBe(dec.decode(b).replace(`"keep":"all"}]}`, `"keep":"all"},${E(1, ["memory"])}]}`));
    expect(d.beta).toBe("context-management-2025-06-27");
    expect(d.note).toBe(`compact; tier=auto; step=3; pairs_removed=2; tokens_before=${est}; tokens_after=${est - cleared}; mechanism=native; cleared_tool_uses=2`);
    expect(d.report).toEqual({ correlation_id: "c", rollback_step: null, tokens_original: est, tokens_sent: est - cleared, pairs_removed: 2, would_send: null, outcome: "compacted", tier: "auto", native_cleared: 2 });
  });
  it("measurement forwards the original and counts what would be cleared; a plan clearing nothing sends no edit", () => {
    const m = decideForward(ready, b, out, "measure", "c");
    expect([m.kind, m.body, m.beta, m.report.outcome, m.report.would_send]).toEqual(["original", b, undefined, "measured", est - cleared]);
    const none = decideForward(ready, b, { ...out, plan: { actions: {} }, step: null, new_pair_ids: [] }, "compact", "c");
    expect([none.kind, none.body, none.note]).toEqual(["original", b, `compact; tier=auto; step=none; pairs_removed=0; tokens_before=${est}; tokens_after=${est}; mechanism=native; cleared_tool_uses=0`]);
  });
  it("a new step the edit would not carry out (not leading tool uses) fails open and rolls back", () => {
    const d = decideForward(ready, b, { ...out, plan: { actions: { t2: { kind: "drop_result" } } }, new_pair_ids: ["t2"] }, "compact", "c");
    expect([d.kind, d.body, d.note, d.report.rollback_step]).toEqual(["original", b, "skipped; reason=native_not_prefix", 3]);
  });

  it("a context_management it cannot extend (null) fails open and rolls the step back", () => {
    const nb = bodyOf({ context_management: null });
    const r = prepareCompaction("anthropic", new Headers(), nb);
    if (r.kind !== "ready") throw new Error("not ready");
    const d = decideForward(r, nb, out, "compact", "c");
    expect([d.kind, d.body, d.note, d.report.outcome, d.report.rollback_step]).toEqual(["original", nb, "skipped; reason=apply_error", "apply_error", 3]);
  });
});

describe("betaHeaderFor", () => {
  it("appends the beta after the client's values only when absent", () => {
    expect(betaHeaderFor(new Headers(), "context-management-2025-06-27")).toEqual({ "anthropic-beta": "context-management-2025-06-27" });
    expect(betaHeaderFor(new Headers({ "anthropic-beta": "interleaved-thinking-2025-05-14" }), "context-management-2025-06-27")).toEqual({ "anthropic-beta": "interleaved-thinking-2025-05-14,context-management-2025-06-27" });
    expect(betaHeaderFor(new Headers({ "anthropic-beta": "a, context-management-2025-06-27" }), "context-management-2025-06-27")).toBeUndefined();
  });
});
