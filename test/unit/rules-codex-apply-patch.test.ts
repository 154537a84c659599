/**
 * The whole-pair rules on a real Codex history (corpus codex-rtchess-01, both wire formats).
 * 1. The request before the 11th apply_patch holds an `Add File` patch each for index.html,
 *    styles.css and app.js, then five `Update File: app.js` patches (the last one in the locked
 *    last turn), and no read of app.js: the agent keeps patching the file, so every patch stays
 *    (a later edit carries only its changed lines; the next answers use names that only the
 *    earlier patches hold).
 * 2. The request that ends with the agent's `Add File: app.js` rewrite (after deleting the file):
 *    the rewrite is a complete newer view of the file: the two partial reads of app.js and its
 *    first `Add File` go, drop_pair, with the three plans a later plan replaced; the 26 update
 *    patches and the Delete stay (no full read of app.js follows: a whole rewrite does not show
 *    what a patch before it wrote), bar the failed one its retry replaced; the facts come from the real adapter's
 *    parse (src/gateway/request-facts.ts), the adapter applies that plan whole — calls, inputs,
 *    outputs and, on Responses, the reasoning item bound to each call — with no refusal, and the
 *    guarantee checker accepts the edited bytes.
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

/** The app.js patches before the agent reads or rewrites the file. */
const PATCHES = ["call_v3fRaqgi3xqCUmLIlZbQ8pQA", "call_sbB9Pek2AJgmGxXvzCvWYxup", "call_SpY3V1guY5kLZk1CRG7bQAd0", "call_FSQ4B73aia4W1iOGWgUt4Oj2", "call_1g4vaUKnyMtSSXawxmf8A0fy"];
/**
 * In call order: the app.js edits before the later `Add File: app.js` rewrite (its first Add File,
 * 26 updates, the Delete File), and the three update_plan calls a later plan supersedes (PLANS: a
 * plan is written whole each time).
 */
const PLANS = ["call_PH2RlZJJiz3FOH4fZx85Yx3e", "call_53HPcoBU4hPIC9r3HJMrL7ur", "call_lzwkGW0tBrOUOU2TMCXEqdFQ"];
const BEFORE_REWRITE = [
  PLANS[0]!, ...PATCHES, "call_JvxDQGffvW9D833l9rK44nUN", "call_fAR6xLkiFJGcITGFDMu6uuSh", "call_iApbQlNmH0jTB2u9N5wOY4he", "call_ufxeWPVuzAIWY4XWc3cTTVrw", "call_zT2H5jRGVgqySgcOgwauGcQi",
  "call_sjUpnKyVHwl9tighxxkMFLeE", "call_TSg7OAMjiDsWFqYE0gj8AY14", "call_aWVe0rTmpuDP8eVoUhMMLFTm", PLANS[1]!, "call_4z71PAgf2gV0zV7PIMX4yH2J", "call_ALZICGGaXvPGa0A9XDU65VIi", "call_tY3HE0grBFeQFdfBS6rpBf3u",
  "call_4V5SCtsFlc19ycBMYMzbg98m", "call_eoPlJFTo2Jd6fwnCaeNDGDsq", "call_9D8yhS3OdDAH7z3fsnHX6d3h", "call_KKdqoKpvG9iyQ5yINmj8jvJt", "call_jZM6WX6Qdury7ugzBNvY4Isz", "call_6AjE6XFXOx3jLqql5dhilPIg",
  "call_Oq4IgHx3rRQRoiwuVgC05GF8", PLANS[2]!, "call_K5Su77HQo7YB27C5nDFdlLiD", "call_G845vTOD1drXnqGaU5gOLtJr", "call_AHCazMJIfUmj4WY8ivm0bF4V", "call_8XfUvClEK9HjaqAa6kUnhyrC", "call_VthQBzg38V8bp0xdQxqS5BXj",
];
/** The failed app.js patch among them, retried later. */
const RETRIED = ["call_jZM6WX6Qdury7ugzBNvY4Isz"];
/** The partial reads of app.js (`sed -n '272,340p'`, `sed -n '1,200p'`) before the rewrite. */
const READS = ["call_3qcR4YRlmuBBSp1FMkZobKcc", "call_ynf5gacCVZ62Vz0i7g0If6SB"];

const factsAt = (id: "codex-rtchess-01" | "codex-rtchess-01-responses", end: number) => {
  const s = loadSession(id);
  const adapter = adapterFor(s.provider as "openai-chat" | "openai-responses")!;
  const bytes = requestBody(s, end);
  const parsed = adapter.read(bytes, newCoreCaches());
  return { adapter, bytes, parsed, run: runHeuristicEngine(requestFactsOf(parsed, { head_chars: DEFAULTS.head_chars, engine: "heuristic" }), CORE_DEFAULTS) };
};

describe("apply_patch pairs on the Codex corpus session", () => {
  it.each([
    ["codex-rtchess-01", 30],
    ["codex-rtchess-01-responses", 44],
  ] as const)("%s: a file the agent keeps patching keeps every patch", (id, end) => {
    const { run } = factsAt(id, end);
    expect(run.hits.superseded_edit).toEqual([]);
    for (const pid of PATCHES) expect(run.verdicts[pid]).toEqual({ kind: "keep", confidence: 1, rule: "working_set" });
    expect(run.verdicts.call_JvxDQGffvW9D833l9rK44nUN).toEqual({ kind: "keep", confidence: 1, rule: "locked" });
  });

  it.each([
    // [session, history items in the request, items the plan removes]
    ["codex-rtchess-01", 124, 14],
    ["codex-rtchess-01-responses", 182, 20],
  ] as const)("%s: after the whole rewrite, the earlier whole writes, plans and reads go, the update patches stay: exact ids, applied whole, accepted by the checker", (id, end, removedItems) => {
    const { adapter, bytes, parsed, run } = factsAt(id, end);
    // The plans and the first whole write of app.js (PATCHES[0]: `Add File`), in call order.
    const whole = [PLANS[0]!, PATCHES[0]!, PLANS[1]!, PLANS[2]!];
    expect(run.hits.superseded_edit).toEqual(whole);
    expect(run.hits.superseded_read).toEqual(READS);
    // One patch failed and was retried: that rule removes it.
    expect(run.hits.failed_then_retried).toEqual(RETRIED);
    for (const pid of BEFORE_REWRITE) {
      const verdict = whole.includes(pid) ? { kind: "drop_pair", confidence: 0.8, rule: "superseded_edit" } : RETRIED.includes(pid) ? { kind: "drop_pair", confidence: 0.85, rule: "failed_then_retried" } : { kind: "keep", confidence: 1, rule: "working_set" };
      expect(run.verdicts[pid], pid).toEqual(verdict);
    }
    const gone = [...whole, ...RETRIED, ...READS];
    const plan: EditPlan = { actions: Object.fromEntries(gone.map((pid) => [pid, { kind: "drop_pair" } as const])) };
    const out = applyPlan(adapter, parsed, plan);
    expect(out.refused).toEqual({});
    expect(out.downgraded).toEqual([]);
    expect(checkGuarantee(adapter, bytes, out.bytes, { input: parsed })).toMatchObject({ ok: true, violations: [] });
    const after = adapter.read(out.bytes, newCoreCaches());
    expect(after.view.messages.length).toBe(parsed.view.messages.length - removedItems);
    expect(after.view.pairs.map((p) => p.id)).toEqual(parsed.view.pairs.map((p) => p.id).filter((pid) => !gone.includes(pid)));
    const text = new TextDecoder().decode(out.bytes);
    for (const pid of gone) expect(text).not.toContain(pid);
  });
});
