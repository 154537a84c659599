/**
 * The guarantee checker (src/core/plan/check-guarantee.ts) over random plans applied with
 * applyPlan (adapter compile + the drop_pair → drop_result fallback, as the gateway applies
 * them) on every OpenAI session of the corpus — openai-chat and openai-responses adapters from
 * the registry — on a sample of model-call prefixes. Every applied plan must pass; most plans
 * must really edit the body (so the test can fail). Seeded, so the sample is reproducible.
 */
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { applyPlan } from "../../src/core/plan/apply-plan";
import { checkGuarantee } from "../../src/core/plan/check-guarantee";
import type { Provider } from "../../src/core/view/types";
import { adapterFor } from "../../src/providers/registry";
import { CORPUS, callPrefixEnds, loadSession, prng, randomPlan, requestBody } from "./openai-corpus-support";
import { newCoreCaches } from "../../src/core/caches";

/** Prefixes sampled per session (evenly spaced, last included) and random plans per prefix. */
const PREFIXES = 10;
const PLANS = 4;

const SESSIONS = readdirSync(CORPUS)
  .filter((f) => f.endsWith(".json"))
  .map((f) => loadSession(f.slice(0, -5)))
  .filter((s) => s.provider === "openai-chat" || s.provider === "openai-responses");

describe("checkGuarantee accepts every plan applyPlan produces on the OpenAI corpus", () => {
  it("covers every OpenAI session of the corpus, both adapters", () => {
    expect(SESSIONS.map((s) => `${s.id}:${s.provider}`).sort()).toEqual([
      "codex-rtchess-01-responses:openai-responses",
      "codex-rtchess-01:openai-chat",
      "sweagent-gpt4-pydicom-1458:openai-chat",
      "tau-airline-gpt4o-task02:openai-chat",
      "tau-airline-gpt4o-task09:openai-chat",
    ]);
  });

  for (const s of SESSIONS) {
    it(`${s.id} (${s.provider}): ${PREFIXES} prefixes × ${PLANS} random plans`, () => {
      const adapter = adapterFor(s.provider as Provider)!;
      const ends = callPrefixEnds(s);
      const sample = [...new Set(Array.from({ length: PREFIXES }, (_, i) => ends[Math.floor(((i + 1) * (ends.length - 1)) / PREFIXES)]!))];
      const rnd = prng(0x5eed ^ s.id.length);
      const failures: string[] = [];
      let plans = 0;
      let edited = 0;
      for (const end of sample) {
        const bytes = requestBody(s, end);
        const parsed = adapter.read(bytes, newCoreCaches());
        for (let k = 0; k < PLANS; k++) {
          const plan = randomPlan(rnd, parsed.view.pairs.map((p) => p.id), 0.3 + rnd() * 0.7);
          const out = applyPlan(adapter, parsed, plan);
          plans++;
          if (out.bytes !== bytes) edited++;
          const verdict = checkGuarantee(adapter, bytes, out.bytes, { input: parsed });
          if (!verdict.ok) failures.push(`prefix ${end} plan ${k}: ${verdict.violations.slice(0, 3).join("; ")}`);
        }
      }
      expect(failures).toEqual([]);
      // Sessions without native tool calls (sweagent) have nothing to edit.
      const pairs = adapter.read(requestBody(s, ends[ends.length - 1]!), newCoreCaches()).view.pairs.length;
      if (pairs > 0) expect(edited).toBeGreaterThan(plans / 2);
      else expect(edited).toBe(0);
    });
  }
});

describe("checkGuarantee: removable members (OpenAI Chat `tool_calls`)", () => {
  const chat = adapterFor("openai-chat")!;
  const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
  const call = { id: "call_1", type: "function", function: { name: "ls", arguments: "{}" } };
  const body = (assistant: Record<string, unknown>, tool: boolean) => ({
    model: "gpt-4o",
    messages: [
      { role: "user", content: "go" },
      assistant,
      ...(tool ? [{ role: "tool", tool_call_id: "call_1", content: "a b c" }] : []),
      { role: "user", content: "and the rest?" },
      // A later tool exchange: the adapter locks the last one, not call_1.
      { role: "assistant", content: null, tool_calls: [{ ...call, id: "call_2" }] },
      { role: "tool", tool_call_id: "call_2", content: "d e" },
      { role: "assistant", content: "done" },
      { role: "user", content: "next" },
    ],
  });
  const input = enc(body({ role: "assistant", content: "Listing.", tool_calls: [call] }, true));

  it("drop_pair of a prose message's only call removes `tool_calls` and the tool message; the checker accepts it", () => {
    const parsed = chat.read(input, newCoreCaches());
    const out = applyPlan(chat, parsed, { actions: { call_1: { kind: "drop_pair" } } });
    expect(new TextDecoder().decode(out.bytes)).toBe(JSON.stringify(body({ role: "assistant", content: "Listing." }, false)));
    expect(checkGuarantee(chat, input, out.bytes).violations).toEqual([]);
  });

  it("refuses the same member removal when the tool message stays (a result without its call)", () => {
    const v = checkGuarantee(chat, input, enc(body({ role: "assistant", content: "Listing." }, true)));
    expect(v.ok).toBe(false);
    expect(v.violations.some((x) => x.startsWith("rule: "))).toBe(true);
  });

  it("refuses the removal of any other member (`content`)", () => {
    const v = checkGuarantee(chat, input, enc(body({ role: "assistant", tool_calls: [call] }, true)));
    expect(v).toMatchObject({ ok: false, violations: ['"messages" is not the input with whole elements or string middles removed'] });
  });
});
