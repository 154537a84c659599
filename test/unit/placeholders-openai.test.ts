/**
 * Guarantee level `placeholders` on the two OpenAI wire formats: random Chat and Responses
 * conversations × random result cuts are accepted by the checker at that level (with one marker
 * per applied cut, in the pair's own result) and rejected at `strict`; one changed marker byte is
 * rejected.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { openaiChatAdapter as chat } from "../../src/providers/openai-chat/index";
import { openaiResponsesAdapter as resp } from "../../src/providers/openai-responses/index";
import { applyPlan } from "../../src/core/plan/apply-plan";
import { checkGuarantee } from "../../src/core/plan/check-guarantee";
import type { PairAction } from "../../src/core/plan/types";
import type { ProviderAdapter } from "../../src/providers/types";
import { enc } from "./openai-helpers";

const text = fc.oneof(fc.string({ unit: "grapheme", minLength: 1, maxLength: 300 }), fc.constantFrom("😀 emoji 👨‍👩‍👧", 'a"b\\c\nd\te', "line\n".repeat(40)));
const IMAGE = "data:image/png;base64,iVBORw0KGgo=";
const cut: fc.Arbitrary<PairAction> = fc.oneof(
  fc.constant({ kind: "drop_result" as const }),
  fc.record({ kind: fc.constant("truncate_result" as const), head_bytes: fc.nat(200) }),
  fc.record({ kind: fc.constant("truncate_result" as const), head_bytes: fc.nat(200), tail_bytes: fc.nat(100) }),
);
const result = (partType: string, imageType: string, image: unknown) =>
  fc.oneof(text, fc.array(fc.oneof(text.map((t) => ({ type: partType, text: t })), fc.constant({ type: imageType, ...(image as object) })), { minLength: 1, maxLength: 3 }));
const chatResult = result("text", "image_url", { image_url: { url: IMAGE } });
const respResult = result("input_text", "input_image", { image_url: IMAGE });

function chatBody(results: unknown[]): string {
  const messages: unknown[] = [{ role: "user", content: "go" }];
  results.forEach((r, k) => {
    messages.push({ role: "assistant", content: null, tool_calls: [{ id: `call_${k}`, type: "function", function: { name: "shell", arguments: "{}" } }] });
    messages.push({ role: "tool", tool_call_id: `call_${k}`, content: r });
  });
  messages.push({ role: "assistant", content: "ok" }, { role: "user", content: "next" });
  return JSON.stringify({ model: "gpt-4o", messages });
}

function respBody(results: unknown[]): string {
  const input: unknown[] = [{ role: "user", content: "go" }];
  results.forEach((r, k) => {
    input.push({ type: "function_call", call_id: `call_${k}`, name: "shell", arguments: "{}" });
    input.push({ type: "function_call_output", call_id: `call_${k}`, output: r });
  });
  input.push({ role: "assistant", content: "ok" }, { role: "user", content: "next" });
  return JSON.stringify({ model: "gpt-5", input });
}

function property(adapter: ProviderAdapter, arbResult: fc.Arbitrary<unknown>, build: (r: unknown[]) => string) {
  let marked = 0;
  fc.assert(
    fc.property(fc.array(fc.tuple(arbResult, cut), { minLength: 1, maxLength: 6 }), fc.boolean(), fc.nat(), (rows, archived, pick) => {
      const bytes = enc(build(rows.map(([r]) => r)));
      const parsed = adapter.read(bytes);
      const plan = { actions: Object.fromEntries(rows.map(([, a], k) => [`call_${k}`, a])) };
      const out = applyPlan(adapter, parsed, plan, { archived });
      expect(checkGuarantee(adapter, bytes, out.bytes, { placeholders: { archived } }).violations).toEqual([]);
      expect(out.insertions.length).toBe(Object.keys(plan.actions).filter((id) => out.refused[id] === undefined).length);
      if (out.insertions.length === 0) return;
      marked += out.insertions.length;
      expect(checkGuarantee(adapter, bytes, out.bytes).ok).toBe(false);
      // One marker byte changed (to another ASCII letter) is rejected.
      const ins = out.insertions[pick % out.insertions.length]!;
      const shift = out.insertions.filter((i) => i.at < ins.at).reduce((s, i) => s + i.bytes.length, 0) - out.deletions.filter((d) => d.end <= ins.at).reduce((s, d) => s + d.end - d.start, 0);
      const at = ins.at + shift + (pick % ins.bytes.length);
      const bad = out.bytes.slice();
      bad[at] = bad[at] === 0x5a ? 0x59 : 0x5a;
      expect(checkGuarantee(adapter, bytes, bad, { placeholders: { archived } }).ok).toBe(false);
    }),
    { numRuns: 200, seed: 29 },
  );
  expect(marked).toBeGreaterThan(80);
}

describe("placeholders on OpenAI formats (random plans)", () => {
  it("Chat: accepted at placeholders, rejected at strict, one changed marker byte rejected", () => property(chat, chatResult, chatBody));
  it("Responses: accepted at placeholders, rejected at strict, one changed marker byte rejected", () => property(resp, respResult, respBody));
});
