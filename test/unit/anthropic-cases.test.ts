/**
 * Regression tests for the Anthropic editing cases in test/fixtures/cases (B01, B02, B03, B05, B14,
 * B15). Each case: (1) every plan over the case's own pairs, with every action kind, yields an
 * output meeting the case's `expected` checks; (2) the naive gateway action of the case is
 * rejected by the guarantee checker; (3) the fault's whole kind is covered by the generated
 * conversations of anthropic-property.test.ts plus the variations below.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anthropicAdapter as A } from "../../src/providers/anthropic-messages";
import { applyPlan } from "../../src/core/plan/apply-plan";
import { checkGuarantee } from "../../src/core/plan/check-guarantee";
import type { PairAction } from "../../src/core/plan/types";
import { arbCase } from "../support/anthropic-arbitrary";
import { anthropicInvariants, countCacheControl } from "../support/anthropic-invariants";
import { CASES_PATH } from "../support/shared-dir";
import { newCoreCaches } from "../../src/core/caches";

const enc = new TextEncoder();
const dec = new TextDecoder();
type Body = { system?: unknown; messages: { role: string; content: unknown }[] } & Record<string, unknown>;

function loadCase(id: string): { request: Body; expected: { rule: string } } {
  return JSON.parse(readFileSync(`${CASES_PATH}/${id}.json`, "utf8"));
}

const ACTIONS: PairAction[] = [
  { kind: "drop_pair" },
  { kind: "drop_result" },
  { kind: "truncate_result", head_bytes: 4 },
  { kind: "truncate_result", head_bytes: 3, tail_bytes: 3 },
  { kind: "strip_media" },
];

/** Every combination of one action per pair of the body (5^pairs plans), compact and pretty. */
function* allOutputs(request: Body) {
  for (const indent of [undefined, 2]) {
    const bytes = enc.encode(JSON.stringify(request, null, indent));
    const parsed = A.read(bytes, newCoreCaches());
    const ids = parsed.view.pairs.map((p) => p.id);
    const total = ACTIONS.length ** ids.length;
    for (let k = 0; k < total; k++) {
      const actions: Record<string, PairAction> = {};
      let x = k;
      for (const id of ids) { actions[id] = ACTIONS[x % ACTIONS.length]!; x = Math.floor(x / ACTIONS.length); }
      const out = applyPlan(A, parsed, { actions });
      yield { bytes, out: out.bytes, refused: out.refused, verdict: checkGuarantee(A, bytes, out.bytes), after: JSON.parse(dec.decode(out.bytes)) as Body };
    }
  }
}

/** Byte offsets [start, end) of messages[i] in `bytes` (via JSON text positions of the parsed tree). */
function messageSlice(bytes: Uint8Array, i: number): string {
  const parsed = A.read(bytes, newCoreCaches());
  const r = parsed.view.messages[i]!.range;
  return dec.decode(bytes.subarray(r.start, r.end));
}

/** Removes messages[i] (element + separator) from `bytes`: the naive trim of B01. */
function dropMessage(bytes: Uint8Array, i: number): Uint8Array {
  const v = A.read(bytes, newCoreCaches()).view.messages;
  const [s, e] = i + 1 < v.length ? [v[i]!.range.start, v[i + 1]!.range.start] : [v[i - 1]!.range.end, v[i]!.range.end];
  return new Uint8Array([...bytes.subarray(0, s), ...bytes.subarray(e)]);
}

/** Replaces the first occurrence of `from` with `to` in the body text (naive rewrites). */
function rewrite(bytes: Uint8Array, from: string, to: string): Uint8Array {
  const t = dec.decode(bytes);
  expect(t.includes(from)).toBe(true);
  return enc.encode(t.replace(from, to));
}

describe("Anthropic editing cases", () => {
  it("B01: a tool_use and its tool_result are never separated; the naive trim is rejected", () => {
    const { request } = loadCase("B01");
    for (const o of allOutputs(request)) {
      expect(o.verdict.violations).toEqual([]);
      expect(anthropicInvariants(o.after)).toEqual([]);
      // Acceptable outputs: unchanged message list, or messages[1] and [2] both gone.
      const n = o.after.messages.length;
      expect(n === 5 || (n === 3 && JSON.stringify(o.after.messages) === JSON.stringify([request.messages[0], request.messages[3], request.messages[4]]))).toBe(true);
    }
    const bytes = enc.encode(JSON.stringify(request));
    const naive = checkGuarantee(A, bytes, dropMessage(bytes, 1));
    expect(naive.ok).toBe(false);
    expect(naive.violations.some((v) => v.includes("answers no tool_use"))).toBe(true);
  });

  it("B02: a kept tool_use keeps its tool_result (emptied or shortened, never removed)", () => {
    const { request } = loadCase("B02");
    for (const o of allOutputs(request)) {
      expect(o.verdict.violations).toEqual([]);
      expect(anthropicInvariants(o.after)).toEqual([]);
      // Either both pairs stay (each result still a tool_result with its id) or messages[1] and [2] went together.
      if (o.after.messages.length === 5) {
        const uses = (o.after.messages[1]!.content as { type: string; id: string }[]).map((b) => ["tool_result", b.id]);
        const results = (o.after.messages[2]!.content as { type: string; tool_use_id: string }[]).map((b) => [b.type, b.tool_use_id]);
        expect(results).toEqual(uses);
        expect(uses.length).toBeGreaterThan(0);
      } else expect(o.after.messages).toEqual([request.messages[0], request.messages[3], request.messages[4]]);
    }
    const bytes = enc.encode(JSON.stringify(request));
    // Naive: drop the empty tool_result of toolu_01CCCC…
    const naive = rewrite(bytes, ',{"type":"tool_result","tool_use_id":"toolu_01CCCCCCCCCCCCCCCCCCCCCC","content":""}', "");
    expect(checkGuarantee(A, bytes, naive).violations.some((v) => v.includes("has no tool_result in the next turn"))).toBe(true);
  });

  it("B03: the latest assistant message with thinking is forwarded byte-identical; older thinking messages keep their calls", () => {
    const { request } = loadCase("B03");
    const bytes = enc.encode(JSON.stringify(request));
    const original = messageSlice(bytes, 1);
    for (const o of allOutputs(request)) {
      expect(o.verdict.violations).toEqual([]);
      expect(o.out).toBe(o.bytes); // its only pair is in the last assistant turn
    }
    const naive = rewrite(bytes, '{"type":"text","text":"Let me look at the config first."},', "");
    expect(checkGuarantee(A, bytes, naive).ok).toBe(false);
    expect(messageSlice(bytes, 1)).toBe(original);

    // Whole kind: an OLDER assistant message with thinking + tool_use, then newer turns.
    const older: Body = {
      ...request,
      messages: [...request.messages, { role: "assistant", content: [{ type: "text", text: "Port is 9000." }] }, { role: "user", content: "Thanks. Anything else?" }],
    };
    const ob = enc.encode(JSON.stringify(older));
    const pr = A.read(ob, newCoreCaches());
    // Claude 4.x (no prefix check): result edits allowed, removing the call from the thinking message refused.
    const plan = { actions: { toolu_01DDDDDDDDDDDDDDDDDDDDDD: { kind: "drop_pair" as const } } };
    expect(A.compile(pr, plan).refused).toEqual({ toolu_01DDDDDDDDDDDDDDDDDDDDDD: "thinking_in_message" });
    // applyPlan falls back to drop_result: the thinking message keeps its tool_use byte for byte.
    const r = applyPlan(A, pr, plan);
    expect(r.downgraded).toEqual(["toolu_01DDDDDDDDDDDDDDDDDDDDDD"]);
    const outMsgs = JSON.parse(new TextDecoder().decode(r.bytes)).messages;
    expect(outMsgs[1]).toEqual(older.messages[1]);
    // A model with preserved-thinking prefix checks: nothing before the last thinking block is edited.
    for (const model of ["claude-fable-5-1", "claude-opus-5-5", "some-future-model"]) {
      const fb = enc.encode(JSON.stringify({ ...older, model, messages: [...older.messages.slice(0, 4), { role: "assistant", content: [{ type: "thinking", thinking: "t", signature: "s" }, { type: "text", text: "More?" }] }, { role: "user", content: "no" }] }));
      const p = A.read(fb, newCoreCaches());
      expect(p.view.pairs.map((x) => x.locked)).toEqual(["thinking_prefix"]);
    }
  });

  it("B05: never more than 4 cache_control markers; client breakpoints stay on their blocks", () => {
    const { request } = loadCase("B05");
    expect(countCacheControl(request)).toBe(4);
    for (const o of allOutputs(request)) {
      expect(o.verdict.violations).toEqual([]);
      expect(countCacheControl(o.after)).toBe(4);
      expect(o.out).toBe(o.bytes); // the only pair carries cache_control: locked
    }
    // Whole kind: a body with 5 markers cannot pass the checker after any edit.
    const five: Body = { ...request, messages: [...request.messages, { role: "assistant", content: "ok" }, { role: "user", content: [{ type: "text", text: "more", cache_control: { type: "ephemeral" } }] }] };
    const fb = enc.encode(JSON.stringify(five));
    expect(A.checkRules(fb, A.read(fb, newCoreCaches()).root, newCoreCaches())).toEqual(["cache_control: 5 breakpoints, at most 4 allowed"]);
    // And random conversations (at most 4 markers) never gain one.
    fc.assert(
      fc.property(arbCase, ({ body, bytes, plan }) => {
        const out = JSON.parse(dec.decode(applyPlan(A, A.read(bytes, newCoreCaches()), plan).bytes));
        expect(countCacheControl(out)).toBeLessThanOrEqual(countCacheControl(body));
      }),
      { numRuns: 100 },
    );
  });

  it("B14: no empty or whitespace-only text block and no empty content array after any edit", () => {
    const { request } = loadCase("B14");
    for (const o of allOutputs(request)) {
      expect(o.verdict.violations).toEqual([]);
      expect(anthropicInvariants(o.after)).toEqual([]);
      expect((o.after.messages[0]!.content as { text: string }[]).some((b) => b.text === "hello")).toBe(true);
    }
    const bytes = enc.encode(JSON.stringify(request));
    // Naive: strip the marker text in place, leaving "" (in prose, and inside the tool_result).
    expect(checkGuarantee(A, bytes, rewrite(bytes, "<system-reminder>Today is a Tuesday.</system-reminder>", "")).ok).toBe(false);
    const inResult = checkGuarantee(A, bytes, rewrite(bytes, "<system-reminder>stale</system-reminder>", ""));
    expect(inResult.violations).toEqual([
      "pair toolu_01HHHHHHHHHHHHHHHHHHHHHH is locked (last_assistant_turn) but changed",
      `string cut at byte ${dec.decode(bytes).indexOf("<system-reminder>stale")} is outside an editable tool result`,
      "rule: messages[2].content[0].content[0].text: empty or whitespace-only",
    ]);
    // Whole kind: whitespace-led results keep a visible character whatever the cut.
    const ws: Body = {
      model: "claude-sonnet-4-5",
      messages: [
        { role: "user", content: "go" },
        { role: "assistant", content: [{ type: "tool_use", id: "w", name: "t", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "w", content: [{ type: "text", text: "\n\n    \t  x" }, { type: "text", text: "  \n  y  \n " }] }] },
        { role: "assistant", content: "ok" },
        { role: "user", content: "next" },
      ],
    };
    const wb = enc.encode(JSON.stringify(ws));
    const wp = A.read(wb, newCoreCaches());
    for (let head = 0; head < 30; head++) for (const tail of [undefined, 1, 2, 5]) {
      const out = applyPlan(A, wp, { actions: { w: tail === undefined ? { kind: "truncate_result", head_bytes: head } : { kind: "truncate_result", head_bytes: head, tail_bytes: tail } } });
      expect(checkGuarantee(A, wb, out.bytes).violations).toEqual([]);
    }
  });

  it("B15: the system prompt, string or blocks, is never altered", () => {
    const { request } = loadCase("B15");
    for (const system of [request.system, [{ type: "text", text: request.system }]]) {
      const body: Body = {
        ...request,
        system,
        messages: [request.messages[0]!, { role: "assistant", content: [{ type: "tool_use", id: "s", name: "t", input: {} }] }, { role: "user", content: [{ type: "tool_result", tool_use_id: "s", content: "x".repeat(200) }] }, ...request.messages.slice(1)],
      };
      for (const o of allOutputs(body)) {
        expect(o.verdict.violations).toEqual([]);
        expect(o.after.system).toEqual(system);
      }
      const bytes = enc.encode(JSON.stringify(body));
      const naive = checkGuarantee(A, bytes, rewrite(bytes, "Always answer in French.", ""));
      expect(naive.violations).toContain('top-level "system" changed');
    }
  });
});
