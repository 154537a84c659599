/**
 * Corpus tests for the Anthropic adapter: every anthropic session, every model-call prefix.
 * Pair counts are checked against an independent JSON.parse-based count and against MANIFEST.md.
 */
import { describe, expect, it } from "vitest";
import { anthropicAdapter as A } from "../../src/providers/anthropic-messages";
import { applyPlan } from "../../src/core/plan/apply-plan";
import { checkGuarantee } from "../../src/core/plan/check-guarantee";
import { EMPTY_PLAN } from "../../src/core/plan/types";
import { anthropicRequest, callPrefixes, manifestToolCalls, randomPlan, rng, sessions, type Session } from "../support/corpus";
import { newCoreCaches } from "../../src/core/caches";

const ANTHROPIC = sessions("anthropic");
const MANIFEST = manifestToolCalls();

/** Reference pairing by JSON.parse: ids used by exactly one tool_use and one tool_result, the result in the next (user) message. */
function referenceCounts(messages: Session["messages"]): { calls: number; pairs: number } {
  const blocks = (m: Session["messages"][number]) => (Array.isArray(m.content) ? (m.content as { type: string; id?: string; tool_use_id?: string }[]) : []);
  const useCount = new Map<string, number>();
  const resCount = new Map<string, number>();
  messages.forEach((m) => blocks(m).forEach((b) => {
    if (b.type === "tool_use") useCount.set(b.id!, (useCount.get(b.id!) ?? 0) + 1);
    if (b.type === "tool_result") resCount.set(b.tool_use_id!, (resCount.get(b.tool_use_id!) ?? 0) + 1);
  }));
  let calls = 0;
  let pairs = 0;
  messages.forEach((m, i) => blocks(m).forEach((b) => {
    if (b.type !== "tool_use") return;
    calls++;
    const next = messages[i + 1];
    if (useCount.get(b.id!) === 1 && resCount.get(b.id!) === 1 && m.role === "assistant" && next?.role === "user" && blocks(next).some((r) => r.type === "tool_result" && r.tool_use_id === b.id)) pairs++;
  }));
  return { calls, pairs };
}

/** Exact figures found in the corpus (see the report): pairs, and calls that are orphans. */
const EXPECTED: Record<string, { pairs: number; orphanCalls: number }> = {
  "cc-brain-explore-cleanup": { pairs: 61, orphanCalls: 70 }, // 35 ids replayed twice by the export
  "cc-brain-explore-ies-thinking": { pairs: 46, orphanCalls: 50 }, // 25 ids replayed twice
  "cc-brain-explore-subagent-bashpoll": { pairs: 194, orphanCalls: 0 },
  "cc-cctrace-opus4": { pairs: 132, orphanCalls: 1 }, // last tool_use never answered (MANIFEST)
};

describe("anthropic adapter on the corpus", () => {
  it("covers every anthropic session of the corpus", () => {
    expect(ANTHROPIC.map((s) => s.id).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const s of ANTHROPIC) {
    describe(s.id, () => {
      it("full session: pairs + orphaned calls = MANIFEST tool calls", () => {
        const view = A.read(anthropicRequest(s, s.messages.length), newCoreCaches()).view;
        const orphanCalls = view.orphans.filter((o) => {
          const m = s.messages[o.position.message_index]!;
          return Array.isArray(m.content) && (m.content[o.position.block_index] as { type: string }).type === "tool_use";
        }).length;
        expect({ pairs: view.pairs.length, orphanCalls }).toEqual(EXPECTED[s.id]);
        expect(view.pairs.length + orphanCalls).toBe(MANIFEST[s.id]);
      });

      it("every model-call prefix parses, pairs match the reference, empty plan is byte-identical, a random plan passes", () => {
        const next = rng(0x5eed + s.messages.length);
        for (const end of callPrefixes(s)) {
          const bytes = anthropicRequest(s, end, { indent: end % 2 === 0 ? undefined : 1 });
          const parsed = A.read(bytes, newCoreCaches());
          expect(parsed.view.messages.length).toBe(end);
          expect(parsed.view.pairs.length).toBe(referenceCounts(s.messages.slice(0, end)).pairs);
          const same = applyPlan(A, parsed, EMPTY_PLAN);
          expect(same.bytes).toBe(bytes);
          const out = applyPlan(A, parsed, randomPlan(parsed.view.pairs, next));
          const verdict = checkGuarantee(A, bytes, out.bytes, { input: parsed });
          expect(verdict.violations).toEqual([]);
        }
      });

      it("200 random plans on the full session all pass the checker", () => {
        // The recorded model, or a Claude 4.x id when none is recorded (so thinking sessions are editable).
        const bytes = anthropicRequest(s, s.messages.length, { model: s.model ?? "claude-opus-4-5" });
        const parsed = A.read(bytes, newCoreCaches());
        const next = rng(200 + s.messages.length);
        let removed = 0;
        for (let k = 0; k < 200; k++) {
          const out = applyPlan(A, parsed, randomPlan(parsed.view.pairs, next));
          const verdict = checkGuarantee(A, bytes, out.bytes, { input: parsed });
          expect(verdict.violations).toEqual([]);
          removed += bytes.length - out.bytes.length;
        }
        expect(removed).toBeGreaterThan(0);
      });
    });
  }

  it("an unknown model with thinking history locks every pair before the last thinking block", () => {
    const s = ANTHROPIC.find((x) => x.id === "cc-brain-explore-ies-thinking")!;
    const view = A.read(anthropicRequest(s, s.messages.length, { model: null }), newCoreCaches()).view;
    const lastThinking = Math.max(...s.messages.flatMap((m, i) => (Array.isArray(m.content) && m.content.some((b) => (b as { type: string }).type === "thinking") ? [i] : [])));
    for (const p of view.pairs) expect(p.locked).toBe(p.result.message_index < lastThinking ? "thinking_prefix" : p.locked);
    expect(view.pairs.filter((p) => p.locked === "thinking_prefix").length).toBe(view.pairs.filter((p) => p.result.message_index < lastThinking).length);
    expect(view.pairs.filter((p) => p.locked === "thinking_prefix").length).toBeGreaterThan(0);
  });
});
