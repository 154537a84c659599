/**
 * Guarantee level `rewrite`, the splice side of a `summarize` action (src/providers/shared/
 * summary-place.ts, src/core/plan/apply-plan.ts, the checker's `summaries` option): property
 * tests over random requests of the three wire formats × random plans with summaries over random
 * hosts (accepted, exactly one block per applied host), and the checker's rejections (a changed
 * block byte, a block attributed to another pair, a block at strict, a doubled block).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anthropicAdapter as anthropic } from "../../src/providers/anthropic-messages";
import { openaiChatAdapter as chat } from "../../src/providers/openai-chat/index";
import { openaiResponsesAdapter as resp } from "../../src/providers/openai-responses/index";
import { applyPlan } from "../../src/core/plan/apply-plan";
import { checkGuarantee } from "../../src/core/plan/check-guarantee";
import { summaryBlockBytes } from "../../src/core/plan/summary-block";
import { summaryBlocks } from "../../src/gateway/decide-forward";
import type { EditPlan } from "../../src/core/plan/types";
import type { ProviderAdapter } from "../../src/providers/types";
import { arbCase, arbText } from "../support/anthropic-arbitrary";
import { anthropicInvariants } from "../support/anthropic-invariants";
import { chatBody, chatResult, respBody, respResult } from "../support/openai-arbitrary";
import { occurrences } from "../support/occurrences";
import { newCoreCaches } from "../../src/core/caches";

const enc = new TextEncoder();
const dec = new TextDecoder();

/** Up to two stretches: [first pair index, pairs covered, summary text]. */
const arbStretches = fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 3 }), arbText), { minLength: 1, maxLength: 2 });

/**
 * `base` with summaries laid over it: each stretch's first pair hosts a `summarize` covering it
 * and the next pairs (which get drop_pair); stretches that would overlap an earlier one are skipped.
 */
function withSummaries(ids: readonly string[], base: EditPlan, stretches: [number, number, string][]): EditPlan {
  const actions = { ...base.actions };
  const taken = new Set<string>();
  for (const [at, n, text] of stretches) {
    if (ids.length === 0) break;
    const covers = ids.slice(at % ids.length, (at % ids.length) + n);
    if (covers.some((id) => taken.has(id))) continue;
    covers.forEach((id) => taken.add(id));
    actions[covers[0]!] = { kind: "summarize", covers, text };
    for (const id of covers.slice(1)) actions[id] = { kind: "drop_pair" };
  }
  return { actions };
}

/** Applies `plan`, checks it at level rewrite, and returns the applied hosts with their block offsets in the output. */
function applyAndCheck(adapter: ProviderAdapter, bytes: Uint8Array, plan: EditPlan) {
  const out = applyPlan(adapter, adapter.read(bytes, newCoreCaches()), plan);
  const summaries = summaryBlocks(plan);
  expect(checkGuarantee(adapter, bytes, out.bytes, { summaries }).violations).toEqual([]);
  const hosts = [...summaries.keys()].filter((id) => out.refused[id] === undefined);
  for (const id of hosts) expect(occurrences(out.bytes, summaries.get(id)!).length - occurrences(bytes, summaries.get(id)!).length).toBe(1);
  expect(out.insertions.length).toBe(hosts.length);
  return { out, summaries, hosts };
}

/** The checker's rejections for one applied plan with at least one block. */
function expectRejections(adapter: ProviderAdapter, bytes: Uint8Array, applied: ReturnType<typeof applyAndCheck>, pick: number): void {
  const { out, summaries, hosts } = applied;
  const host = hosts[pick % hosts.length]!;
  const block = summaries.get(host)!;
  const at = occurrences(out.bytes, block)[0]!;
  // One block byte changed (to another ASCII letter: the body stays valid JSON).
  const bad = out.bytes.slice();
  const k = at + (pick % block.length);
  bad[k] = bad[k] === 0x5a ? 0x59 : 0x5a;
  expect(checkGuarantee(adapter, bytes, bad, { summaries }).ok).toBe(false);
  // At strict no block is accepted.
  expect(checkGuarantee(adapter, bytes, out.bytes).ok).toBe(false);
  // The same bytes attributed to another pair: the host's literal holds bytes no pair may add.
  const other = adapter.read(bytes, newCoreCaches()).view.pairs.find((p) => !summaries.has(p.id))?.id ?? "not_a_pair";
  const moved = new Map([...summaries].filter(([id]) => id !== host));
  moved.set(other, block);
  expect(checkGuarantee(adapter, bytes, out.bytes, { summaries: moved }).ok).toBe(false);
  // The block twice in the host's literal.
  const doubled = new Uint8Array(out.bytes.length + block.length);
  doubled.set(out.bytes.subarray(0, at + block.length));
  doubled.set(block, at + block.length);
  doubled.set(out.bytes.subarray(at + block.length), at + 2 * block.length);
  expect(checkGuarantee(adapter, bytes, doubled, { summaries }).ok).toBe(false);
}

describe("rewrite: summary blocks on the splice path (random plans)", () => {
  it("Anthropic: accepted with one block per applied host; changed, moved, strict and doubled blocks rejected", () => {
    let placed = 0;
    fc.assert(
      fc.property(arbCase, arbStretches, fc.nat(), ({ bytes, plan }, stretches, pick) => {
        const ids = anthropic.read(bytes, newCoreCaches()).view.pairs.map((p) => p.id);
        const full = withSummaries(ids, plan, stretches);
        const applied = applyAndCheck(anthropic, bytes, full);
        expect(anthropicInvariants(JSON.parse(dec.decode(applied.out.bytes)))).toEqual([]);
        if (applied.hosts.length === 0) return;
        placed++;
        expectRejections(anthropic, bytes, applied, pick);
      }),
      { numRuns: 250, seed: 2903 },
    );
    expect(placed).toBeGreaterThan(60);
  });

  const openai = (adapter: ProviderAdapter, arbResult: fc.Arbitrary<unknown>, build: (r: unknown[]) => string) => {
    let placed = 0;
    fc.assert(
      fc.property(fc.array(arbResult, { minLength: 1, maxLength: 6 }), arbStretches, fc.nat(), (results, stretches, pick) => {
        const bytes = enc.encode(build(results));
        const plan = withSummaries(results.map((_, k) => `call_${k}`), { actions: {} }, stretches);
        const applied = applyAndCheck(adapter, bytes, plan);
        if (applied.hosts.length === 0) return;
        placed++;
        expectRejections(adapter, bytes, applied, pick);
      }),
      { numRuns: 200, seed: 2904 },
    );
    expect(placed).toBeGreaterThan(100);
  };
  it("OpenAI Chat: accepted with one block per applied host; changed, moved, strict and doubled blocks rejected", () => openai(chat, chatResult, chatBody));
  it("OpenAI Responses: accepted with one block per applied host; changed, moved, strict and doubled blocks rejected", () => openai(resp, respResult, respBody));
});

describe("rewrite: summary places and refusals", () => {
  const body = (content: string) =>
    `{"model":"claude-sonnet-4-5","max_tokens":10,"messages":[{"role":"user","content":"go"},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"ls","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1"${content}}]},{"role":"assistant","content":"ok"},{"role":"user","content":"next"}]}`;
  const plan = (text: string | null): EditPlan => ({ actions: { t1: { kind: "summarize", covers: ["t1"], text } } });
  const run = (content: string, text: string | null) => {
    const bytes = enc.encode(body(content));
    const out = applyPlan(anthropic, anthropic.read(bytes, newCoreCaches()), plan(text));
    return { text: dec.decode(out.bytes), refused: out.refused, bytes, out };
  };

  it("a tool_result without content, or with only an image, is kept whole (no_summary_place); a null text is not written", () => {
    expect(run("", "s").refused).toEqual({ t1: "no_summary_place" });
    expect(run("", "s").text).toBe(body(""));
    const image = ',"content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}}]';
    expect(run(image, "s").refused).toEqual({ t1: "no_summary_place" });
    expect(run(',"content":"abc"', null).refused).toEqual({ t1: "summary_not_written" });
    expect(run(',"content":"abc"', null).text).toBe(body(',"content":"abc"'));
  });

  it("parts: media and later text parts go, the first text part holds the block; an empty string gets the block", () => {
    const parts = ',"content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AA=="}},{"type":"text","text":"one"},{"type":"text","text":"two"}]';
    const got = run(parts, 'said "hi"');
    expect(got.text).toBe(body(',"content":[{"type":"text","text":"[sluice: summary of 1 earlier tool call; its full result was removed from this conversation]\\nsaid \\"hi\\""}]'));
    expect(checkGuarantee(anthropic, got.bytes, got.out.bytes, { summaries: summaryBlocks(plan('said "hi"')) }).violations).toEqual([]);
    expect(run(',"content":""', "s").text).toBe(body(',"content":"[sluice: summary of 1 earlier tool call; its full result was removed from this conversation]\\ns"'));
  });

  it("the checker refuses a block next to kept text of the host's result", () => {
    const input = enc.encode(body(',"content":[{"type":"text","text":"one"},{"type":"text","text":"two"}]'));
    const block = dec.decode(summaryBlockBytes(1, "s"));
    const kept = enc.encode(body(`,"content":[{"type":"text","text":"${block}"},{"type":"text","text":"two"}]`));
    expect(checkGuarantee(anthropic, input, kept, { summaries: new Map([["t1", summaryBlockBytes(1, "s")]]) }).violations).toEqual(["pair t1 carries a summary block but kept other result content"]);
    const twice = enc.encode(body(`,"content":[{"type":"text","text":"${block}"},{"type":"text","text":"${block}"}]`));
    expect(checkGuarantee(anthropic, input, twice, { summaries: new Map([["t1", summaryBlockBytes(1, "s")]]) }).violations).toContain("pair t1 carries more than one summary block");
  });
});
