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
import { chatBody, chatResult, respBody, respResult } from "../support/openai-arbitrary";
import { newCoreCaches } from "../../src/core/caches";

const cut: fc.Arbitrary<PairAction> = fc.oneof(
  fc.constant({ kind: "drop_result" as const }),
  fc.record({ kind: fc.constant("truncate_result" as const), head_bytes: fc.nat(200) }),
  fc.record({ kind: fc.constant("truncate_result" as const), head_bytes: fc.nat(200), tail_bytes: fc.nat(100) }),
);
function property(adapter: ProviderAdapter, arbResult: fc.Arbitrary<unknown>, build: (r: unknown[]) => string) {
  let marked = 0;
  fc.assert(
    fc.property(fc.array(fc.tuple(arbResult, cut), { minLength: 1, maxLength: 6 }), fc.boolean(), fc.nat(), (rows, archived, pick) => {
      const bytes = enc(build(rows.map(([r]) => r)));
      const parsed = adapter.read(bytes, newCoreCaches());
      const plan = { actions: Object.fromEntries(rows.map(([, a], k) => [`call_${k}`, a])) };
      const out = applyPlan(adapter, parsed, plan, { archive_session: archived ? "s-1" : null });
      expect(checkGuarantee(adapter, bytes, out.bytes, { placeholders: { archive_session: archived ? "s-1" : null } }).violations).toEqual([]);
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
      expect(checkGuarantee(adapter, bytes, bad, { placeholders: { archive_session: archived ? "s-1" : null } }).ok).toBe(false);
    }),
    { numRuns: 200, seed: 29 },
  );
  expect(marked).toBeGreaterThan(80);
}

describe("placeholders on OpenAI formats (random plans)", () => {
  it("Chat: accepted at placeholders, rejected at strict, one changed marker byte rejected", () => property(chat, chatResult, chatBody));
  it("Responses: accepted at placeholders, rejected at strict, one changed marker byte rejected", () => property(resp, respResult, respBody));
});
