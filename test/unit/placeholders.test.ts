/**
 * Guarantee level `placeholders` (src/core/plan/placeholder.ts, apply-plan.ts, check-guarantee.ts):
 * property tests of the checker's placeholder proof over random Anthropic conversations × random
 * plans, and the exact bytes forwarded for one truncation per provider through decideForward.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anthropicAdapter as A } from "../../src/providers/anthropic-messages";
import { applyPlan } from "../../src/core/plan/apply-plan";
import { checkGuarantee } from "../../src/core/plan/check-guarantee";
import { markerPlace, placeholderBytes, placeholderOptionsOf } from "../../src/core/plan/placeholder";
import { spliceOut } from "../../src/providers/shared/splice";
import { decideForward } from "../../src/gateway/decide-forward";
import { prepareCompaction } from "../../src/gateway/prepare-compaction";
import type { StepOutput } from "../../src/session/contract";
import type { Provider } from "../../src/core/view/types";
import { arbCase } from "../support/anthropic-arbitrary";
import { anthropicInvariants } from "../support/anthropic-invariants";
import { occurrences } from "../support/occurrences";
import { newCoreCaches } from "../../src/core/caches";

const enc = new TextEncoder();
const dec = new TextDecoder();
const RUNS = 300;

const arbPlaceholderCase = fc.tuple(arbCase, fc.boolean());
/** The level's options with the archive on (session "s-1") or off. */
const optsFor = (archived: boolean) => ({ archive_session: archived ? "s-1" : null });

describe("placeholders: the checker's proof (random plans)", () => {
  it("accepts every applied plan, with exactly one marker per applied result cut and none elsewhere", () => {
    let marked = 0;
    fc.assert(
      fc.property(arbPlaceholderCase, ([{ bytes, plan }, archived]) => {
        const opts = optsFor(archived);
        const parsed = A.read(bytes, newCoreCaches());
        const out = applyPlan(A, parsed, plan, opts);
        expect(checkGuarantee(A, bytes, out.bytes, { placeholders: opts }).violations).toEqual([]);
        expect(anthropicInvariants(JSON.parse(dec.decode(out.bytes)))).toEqual([]);
        for (const p of parsed.view.pairs) {
          const a = plan.actions[p.id];
          const cut = (a?.kind === "truncate_result" || a?.kind === "drop_result" || out.downgraded.includes(p.id)) && out.refused[p.id] === undefined;
          // Only a pair's own marker names it; without the archive all markers are alike, counted below.
          if (archived) expect(occurrences(out.bytes, placeholderBytes(p.id, opts)).length - occurrences(bytes, placeholderBytes(p.id, opts)).length).toBe(cut ? 1 : 0);
        }
        const cuts = Object.entries(plan.actions).filter(([id, a]) => (a.kind === "truncate_result" || a.kind === "drop_result" || out.downgraded.includes(id)) && out.refused[id] === undefined).length;
        expect(out.insertions.length).toBe(cuts);
        marked += out.insertions.length;
      }),
      { numRuns: RUNS },
    );
    expect(marked).toBeGreaterThan(RUNS / 10);
  });

  it("rejects an output with one marker byte changed, and a marker with the other archive setting", () => {
    let tried = 0;
    fc.assert(
      fc.property(arbPlaceholderCase, fc.nat(), ([{ bytes, plan }, archived], pick) => {
        const out = applyPlan(A, A.read(bytes, newCoreCaches()), plan, optsFor(archived));
        fc.pre(out.insertions.length > 0);
        tried++;
        // Change one byte of one marker to another printable ASCII byte (the body stays valid JSON).
        const ins = out.insertions[pick % out.insertions.length]!;
        const k = pick % ins.bytes.length;
        const shift = out.insertions.filter((i) => i.at < ins.at).reduce((s, i) => s + i.bytes.length, 0) - out.deletions.filter((d) => d.end <= ins.at).reduce((s, d) => s + d.end - d.start, 0);
        const at = ins.at + shift + k;
        expect(out.bytes[at]).toBe(ins.bytes[k]);
        const bad = out.bytes.slice();
        bad[at] = bad[at] === 0x5a ? 0x59 : 0x5a;
        expect(checkGuarantee(A, bytes, bad, { placeholders: optsFor(archived) }).ok).toBe(false);
        expect(checkGuarantee(A, bytes, out.bytes, { placeholders: optsFor(!archived) }).ok).toBe(false);
      }),
      { numRuns: RUNS },
    );
    expect(tried).toBeGreaterThan(RUNS / 10);
  });

  it("rejects every marker at level strict", () => {
    fc.assert(
      fc.property(arbPlaceholderCase, ([{ bytes, plan }, archived]) => {
        const out = applyPlan(A, A.read(bytes, newCoreCaches()), plan, optsFor(archived));
        fc.pre(out.insertions.length > 0);
        expect(checkGuarantee(A, bytes, out.bytes).ok).toBe(false);
      }),
      { numRuns: RUNS },
    );
  });

  it("at strict applyPlan inserts nothing and the output is the same as before the level existed", () => {
    fc.assert(
      fc.property(arbCase, ({ bytes, plan }) => {
        const out = applyPlan(A, A.read(bytes, newCoreCaches()), plan);
        expect(out.insertions).toEqual([]);
        expect(occurrences(out.bytes, enc.encode("[sluice:")).length).toBe(occurrences(bytes, enc.encode("[sluice:")).length);
      }),
      { numRuns: 100 },
    );
  });

  it("rejects a marker moved into another pair's result, and a second marker in the same result", () => {
    const body = JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 10, messages: [
      { role: "user", content: "go" },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "ls", input: {} }, { type: "tool_use", id: "t2", name: "ls", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "aaaaaaaaaaaaaaaaaaaa" }, { type: "tool_result", tool_use_id: "t2", content: "bbbbbbbbbbbbbbbbbbbb" }] },
      { role: "assistant", content: "ok" },
      { role: "user", content: "next" },
    ] });
    const bytes = enc.encode(body);
    const opts = optsFor(true);
    const m = (id: string) => dec.decode(placeholderBytes(id, opts));
    const ok = body.replace("aaaaaaaaaaaaaaaaaaaa", `aaaa${m("t1")}`);
    const check = (s: string) => checkGuarantee(A, bytes, enc.encode(s), { placeholders: opts }).violations;
    expect(check(ok)).toEqual([]);
    expect(check(body.replace("aaaaaaaaaaaaaaaaaaaa", `aaaa${m("t2")}`)).length).toBeGreaterThan(0);
    expect(check(ok.replace("bbbbbbbbbbbbbbbbbbbb", `bbbb${m("t1")}`))).toEqual(['"messages" is not the input with whole elements or string middles removed']);
    // Two markers in one result (two text parts): only one may stand.
    const parts = body.replace('"aaaaaaaaaaaaaaaaaaaa"', '[{"type":"text","text":"aaaaaaaaaaaaaaaaaaaa"},{"type":"text","text":"cccccccccccccccccccc"}]');
    const twice = parts.replace("aaaaaaaaaaaaaaaaaaaa", `aaaa${m("t1")}`).replace("cccccccccccccccccccc", `cccc${m("t1")}`);
    expect(checkGuarantee(A, enc.encode(parts), enc.encode(twice), { placeholders: opts }).violations).toContain("pair t1 carries more than one marker");
    // A marker where nothing was removed.
    expect(check(body.replace("aaaaaaaaaaaaaaaaaaaa", `aaaaaaaaaaaaaaaaaaaa${m("t1")}`))).toEqual(["pair t1 carries a marker but its result lost no bytes"]);
  });
});

const step = (actions: StepOutput["plan"]["actions"]): StepOutput => ({
  disabled: false, tier: "micro", plan: { actions }, step: 1, skipped: null, tokens_original: 100, tokens_after: 90, pairs_removed: 1, cost_estimate: 0, new_pair_ids: Object.keys(actions), warnings: [],
});

/** The body decideForward forwards for `body` under `actions` at the given config. */
function forwarded(provider: Provider, body: string, actions: StepOutput["plan"]["actions"], config: { guarantee_level: string; archive_removed: boolean }): string {
  const ready = prepareCompaction(provider, new Headers({ "x-sluice-session": "s-1" }), enc.encode(body));
  if (ready.kind !== "ready") throw new Error(ready.note);
  const d = decideForward(ready, enc.encode(body), step(actions), "compact", "c-1", placeholderOptionsOf(config, "s-1"));
  expect(d.report.outcome).toBe("compacted");
  return dec.decode(d.body);
}

const LISTING = "src/a.ts\\nsrc/b.ts\\nsrc/c.ts\\nsrc/d.ts\\nsrc/e.ts\\n";

describe("placeholders: exact forwarded bytes", () => {
  it("the marker's documented bytes (docs/configuration.md)", () => {
    expect(dec.decode(placeholderBytes("toolu_01A", optsFor(false)))).toBe("\\n[sluice: rest of tool result removed]");
    expect(placeholderBytes("toolu_01A", optsFor(false)).length).toBe(39);
    expect(dec.decode(placeholderBytes("toolu_01A", { archive_session: "cc:9f1c:conv:0a1b" }))).toBe('\\n[sluice: rest of tool result removed; restore_tool_result(\\"cc:9f1c:conv:0a1b/toolu_01A\\")]');
    expect(placeholderBytes("toolu_01A", { archive_session: "cc:9f1c:conv:0a1b" }).length).toBe(93);
    // A quote or a slash in an id is escaped by the restore id, so the quoted argument stays whole.
    expect(dec.decode(placeholderBytes('a"b', { archive_session: "s/1" }))).toBe('\\n[sluice: rest of tool result removed; restore_tool_result(\\"s%2F1/a%22b\\")]');
    expect(placeholderOptionsOf({ guarantee_level: "placeholders", archive_removed: true }, "s-1")).toEqual({ archive_session: "s-1" });
    expect(placeholderOptionsOf({ guarantee_level: "placeholders", archive_removed: false }, "s-1")).toEqual({ archive_session: null });
    expect(placeholderOptionsOf({ guarantee_level: "strict", archive_removed: true }, "s-1")).toBeNull();
    expect(placeholderOptionsOf({ guarantee_level: "rewrite", archive_removed: true }, "s-1")).toBeNull();
  });
  it("Anthropic: a truncated tool_result ends with the marker naming its restore id", () => {
    const body = `{"model":"claude-sonnet-4-5","max_tokens":100,"messages":[{"role":"user","content":"list"},{"role":"assistant","content":[{"type":"tool_use","id":"toolu_01A","name":"Bash","input":{"command":"ls"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01A","content":"${LISTING}"}]},{"role":"assistant","content":"ok"},{"role":"user","content":"next"}]}`;
    const act = { toolu_01A: { kind: "truncate_result" as const, head_bytes: 18 } };
    expect(forwarded("anthropic", body, act, { guarantee_level: "placeholders", archive_removed: true })).toBe(
      `{"model":"claude-sonnet-4-5","max_tokens":100,"messages":[{"role":"user","content":"list"},{"role":"assistant","content":[{"type":"tool_use","id":"toolu_01A","name":"Bash","input":{"command":"ls"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01A","content":"src/a.ts\\nsrc/b.ts\\n[sluice: rest of tool result removed; restore_tool_result(\\"s-1/toolu_01A\\")]"}]},{"role":"assistant","content":"ok"},{"role":"user","content":"next"}]}`,
    );
    // The same plan at strict: the exact head, nothing written.
    expect(forwarded("anthropic", body, act, { guarantee_level: "strict", archive_removed: true })).toBe(body.replace(LISTING, "src/a.ts\\nsrc/b.ts"));
  });

  it("OpenAI Chat: a truncated tool message ends with the marker (archive off)", () => {
    const body = `{"model":"gpt-4o","messages":[{"role":"user","content":"list"},{"role":"assistant","content":null,"tool_calls":[{"id":"call_7","type":"function","function":{"name":"shell","arguments":"{\\"cmd\\":\\"ls\\"}"}}]},{"role":"tool","tool_call_id":"call_7","content":"${LISTING}"},{"role":"assistant","content":"ok"},{"role":"user","content":"next"},{"role":"assistant","content":"done"},{"role":"user","content":"more"}]}`;
    expect(forwarded("openai-chat", body, { call_7: { kind: "truncate_result", head_bytes: 9 } }, { guarantee_level: "placeholders", archive_removed: false })).toBe(
      body.replace(LISTING, "src/a.ts\\n[sluice: rest of tool result removed]"),
    );
  });

  it("OpenAI Responses: a truncated function_call_output keeps head and tail around the marker", () => {
    const body = `{"model":"gpt-5","input":[{"role":"user","content":"list"},{"type":"function_call","call_id":"call_r1","name":"shell","arguments":"{}"},{"type":"function_call_output","call_id":"call_r1","output":"${LISTING}"},{"role":"assistant","content":"ok"},{"role":"user","content":"next"},{"role":"assistant","content":"done"},{"role":"user","content":"more"}]}`;
    expect(forwarded("openai-responses", body, { call_r1: { kind: "truncate_result", head_bytes: 10, tail_bytes: 10 } }, { guarantee_level: "placeholders", archive_removed: true })).toBe(
      body.replace(LISTING, 'src/a.ts\\n\\n[sluice: rest of tool result removed; restore_tool_result(\\"s-1/call_r1\\")]src/e.ts\\n'),
    );
  });
});

describe("placeholders: splicing and the marker place", () => {
  const b = enc.encode("0123456789");
  const X = enc.encode("X");
  it("inserts before the original byte at its offset, also at a deletion's start and at the end", () => {
    expect(dec.decode(spliceOut(b, [{ start: 2, end: 5 }], [{ at: 2, bytes: X }]))).toBe("01X56789");
    expect(dec.decode(spliceOut(b, [{ start: 2, end: 5 }], [{ at: 5, bytes: X }]))).toBe("01X56789");
    expect(dec.decode(spliceOut(b, [], [{ at: 10, bytes: X }, { at: 0, bytes: X }]))).toBe("X0123456789X");
    expect(spliceOut(b, [], [])).toBe(b);
  });
  it("refuses an insertion inside a deleted range or out of bounds", () => {
    expect(() => spliceOut(b, [{ start: 2, end: 5 }], [{ at: 3, bytes: X }])).toThrow(RangeError);
    expect(() => spliceOut(b, [], [{ at: 11, bytes: X }])).toThrow(RangeError);
  });
  it("places the marker at the first removed text byte, else after the last kept text before a removed part", () => {
    // Two text literals [0,10) and [20,30) (quotes included), a media part [12,18) between them.
    const texts = [{ start: 0, end: 10 }, { start: 20, end: 30 }];
    expect(markerPlace(texts, [{ start: 4, end: 9 }, { start: 20, end: 31 }])).toBe(4);
    expect(markerPlace(texts, [{ start: 11, end: 19 }, { start: 25, end: 29 }])).toBe(9);
    expect(markerPlace(texts, [{ start: 19, end: 31 }])).toBe(9);
    expect(markerPlace([{ start: 20, end: 30 }], [{ start: 11, end: 19 }])).toBeNull();
    expect(markerPlace([], [{ start: 1, end: 2 }])).toBeNull();
  });
});
