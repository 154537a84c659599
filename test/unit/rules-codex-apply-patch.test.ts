/**
 * The whole-pair rules on a real Codex history (corpus codex-rtchess-01, both wire formats): the request
 * before the 11th apply_patch holds an `Add File` patch each for index.html, styles.css and
 * app.js, then five `Update File: app.js` patches (the last one in the locked last turn). The facts are built from the real adapter's parse (src/gateway/request-facts.ts), the
 * heuristic engine marks the five older app.js patches superseded_edit (drop_pair), keeps the
 * index.html and styles.css ones (never touched again), and the
 * adapter applies that plan whole — calls, inputs, outputs and, on Responses, the reasoning item
 * bound to each call — with no refusal, and the guarantee checker accepts the edited bytes.
 */
import { describe, expect, it } from "vitest";
import { runHeuristicEngine } from "../../src/core/engine/run-heuristic-engine";
import { applyPlan } from "../../src/core/plan/apply-plan";
import { checkGuarantee } from "../../src/core/plan/check-guarantee";
import type { EditPlan } from "../../src/core/plan/types";
import { CORE_DEFAULTS } from "../../src/core/policy/compact";
import { DEFAULTS } from "../../src/config/defaults";
import { requestFactsOf } from "../../src/gateway/request-facts";
import { adapterFor } from "../../src/providers/registry";
import { loadSession, requestBody } from "./openai-corpus-support";
import { newCoreCaches } from "../../src/core/caches";

const SUPERSEDED = ["call_v3fRaqgi3xqCUmLIlZbQ8pQA", "call_sbB9Pek2AJgmGxXvzCvWYxup", "call_SpY3V1guY5kLZk1CRG7bQAd0", "call_FSQ4B73aia4W1iOGWgUt4Oj2", "call_1g4vaUKnyMtSSXawxmf8A0fy"];
/** The Add File patches of index.html and styles.css. */
const KEPT = ["call_QjR8c77xcoVf57foI1RoTGvR", "call_gtiwenXdBAhPN4Km0OpiCi6k"];

describe("superseded apply_patch pairs on the Codex corpus session", () => {
  it.each([
    // [session, history items in the request, items the plan removes]
    ["codex-rtchess-01", 30, 10],
    ["codex-rtchess-01-responses", 44, 15],
  ] as const)("%s: exact ids, applied whole, accepted by the checker", (id, end, removedItems) => {
    const s = loadSession(id);
    const adapter = adapterFor(s.provider as "openai-chat" | "openai-responses")!;
    const bytes = requestBody(s, end);
    const parsed = adapter.read(bytes, newCoreCaches());
    const run = runHeuristicEngine(requestFactsOf(parsed, { head_chars: DEFAULTS.head_chars, engine: "heuristic" }), CORE_DEFAULTS);
    expect(run.hits.superseded_edit).toEqual(SUPERSEDED);
    for (const pid of KEPT) expect(run.verdicts[pid]).toEqual({ kind: "keep", confidence: 0, rule: "none" });
    expect(run.verdicts.call_JvxDQGffvW9D833l9rK44nUN).toEqual({ kind: "keep", confidence: 1, rule: "locked" });
    for (const pid of SUPERSEDED) expect(run.verdicts[pid]).toEqual({ kind: "drop_pair", confidence: 0.75, rule: "superseded_edit" });

    const plan: EditPlan = { actions: Object.fromEntries(SUPERSEDED.map((pid) => [pid, { kind: "drop_pair" } as const])) };
    const out = applyPlan(adapter, parsed, plan);
    expect(out.refused).toEqual({});
    expect(out.downgraded).toEqual([]);
    expect(checkGuarantee(adapter, bytes, out.bytes, { input: parsed })).toMatchObject({ ok: true, violations: [] });
    const after = adapter.read(out.bytes, newCoreCaches());
    expect(after.view.messages.length).toBe(parsed.view.messages.length - removedItems);
    expect(after.view.pairs.map((p) => p.id)).toEqual(parsed.view.pairs.map((p) => p.id).filter((pid) => !SUPERSEDED.includes(pid)));
    const text = new TextDecoder().decode(out.bytes);
    for (const pid of SUPERSEDED) expect(text).not.toContain(pid);
  });
});
