/**
 * localSlimView (src/do/step-types.ts), the lease holder's slim view: the same values as
 * slimView (the step RPC's), with a pair whose result fits SLIM_RESULT_CHARS kept as the view's
 * own object and only longer ones copied with the text cut; and the core decides the same on it
 * (engine verdicts, a step-taking compact, leasedStep) over real corpus calls.
 */
import { describe, expect, it } from "vitest";
import { runHeuristicEngine } from "../../src/core/engine/run-heuristic-engine";
import { CORE_DEFAULTS, compact } from "../../src/core/policy/compact";
import { stepContext } from "../../src/core/policy/step-context";
import { EMPTY_LEDGER } from "../../src/core/policy/ledger";
import { configKey, leasedStep } from "../../src/core/policy/step-lease";
import type { ConversationView } from "../../src/core/view/types";
import { SLIM_RESULT_CHARS, localSlimView, slimView } from "../../src/do/step-types";
import { adapterFor } from "../../src/providers/registry";
import { anthropicRequest, callPrefixes, openaiRequest, sessions } from "../support/corpus";
import { makeView } from "../support/make-view";

const plain = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

describe("localSlimView", () => {
  const view = makeView({
    outside_tokens: 100,
    messages: [
      { role: "user", text: "go" },
      { role: "assistant", calls: [{ id: "a", tool: "Read", input: { path: "x" } }, { id: "b", tool: "Bash", input: { command: "make" } }, { id: "c", tool: "Bash", input: { command: "ls" } }] },
      { role: "user", results: [{ id: "a", text: "y".repeat(SLIM_RESULT_CHARS) }, { id: "b", text: "z".repeat(SLIM_RESULT_CHARS + 1) }, { id: "c", text: "short" }] },
      { role: "assistant", text: "done" },
    ],
  });

  it("keeps a pair of exactly SLIM_RESULT_CHARS (4,096) and a shorter one as the same objects; copies the one of 4,097 with 4,096 kept", () => {
    const local = localSlimView(view);
    expect(SLIM_RESULT_CHARS).toBe(4_096);
    expect(local.pairs.map((p, i) => p === view.pairs[i])).toEqual([true, false, true]);
    expect(local.pairs[1]!.result_text).toBe("z".repeat(4_096));
    expect(local.pairs[1]!.result_bytes).toBe(view.pairs[1]!.result_bytes);
    expect(view.pairs[1]!.result_text.length).toBe(4_097); // the view itself is untouched
    expect(local.messages).toBe(view.messages);
  });

  it("has the values of slimView field for field", () => {
    expect(plain(localSlimView(view))).toEqual(plain(slimView(view)));
  });

  for (const [provider, id] of [["anthropic", "cc-cctrace-opus4"], ["openai-chat", "codex-rtchess-01"]] as const) {
    it(`${id}: on its last 20 corpus calls (lazy views) the values equal slimView's, and the engine, a step-taking compact and leasedStep decide the same on both`, () => {
      const s = sessions(provider).find((x) => x.id === id)!;
      const ends = callPrefixes(s).slice(-20);
      let copied = 0;
      let kept = 0;
      let removals = 0;
      let steps = 0;
      // 400 s after the last activity (idle_seconds 300): the time_based tier, whose cache is cold, takes steps (counted below), so proposals and their pricing are compared, not only a skip.
      const idleNow = 1_400_000;
      for (const end of ends) {
        const read = (): ConversationView => adapterFor(provider)!.read(provider === "anthropic" ? anthropicRequest(s, end) : openaiRequest(s, end)).view;
        const v = read();
        const local = localSlimView(v);
        for (const [i, p] of local.pairs.entries()) p === v.pairs[i] ? kept++ : copied++;
        const slim = slimView(read());
        expect(plain(local)).toEqual(plain(slim));
        const engine = runHeuristicEngine(local, CORE_DEFAULTS);
        expect(plain(engine)).toEqual(plain(runHeuristicEngine(slim, CORE_DEFAULTS)));
        removals += Object.values(engine.verdicts).filter((x) => x.kind !== "keep").length;
        const state = { calls: 3, last_activity_ms: 1_000_000, idle: false, complete: false, ledger: EMPTY_LEDGER };
        const stepped = compact(stepContext(state, local, CORE_DEFAULTS, idleNow, "c"));
        expect(plain(stepped)).toEqual(plain(compact(stepContext(state, slim, CORE_DEFAULTS, idleNow, "c"))));
        if (stepped.step !== null) steps++;
        const lease = { holder: "h", expires_ms: 2_000_000, config_key: configKey(CORE_DEFAULTS, "compact"), calls: 3, last_activity_ms: 1_000_000, ledger: EMPTY_LEDGER };
        expect(plain(leasedStep(lease, lease.config_key, local, CORE_DEFAULTS, 1_001_000, "c"))).toEqual(plain(leasedStep(lease, lease.config_key, slim, CORE_DEFAULTS, 1_001_000, "c")));
      }
      expect(kept).toBeGreaterThan(0);
      expect(copied).toBeGreaterThan(0);
      expect(removals).toBeGreaterThan(0);
      expect(steps).toBeGreaterThan(0);
    });
  }
});
