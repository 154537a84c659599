/**
 * The corpus suite shared by the OpenAI corpus test files (one file per session, so vitest runs
 * them in parallel): every sampled model-call prefix parses with pairs = native calls and no
 * orphans, apply(empty plan) is byte-identical, the full history's pair count equals the
 * MANIFEST's tool-call count, and 200 random plans on random prefixes pass the audit.
 */
import { describe, expect, it } from "vitest";
import { EMPTY_PLAN } from "../../src/core/plan/types";
import type { ParsedRequest, ProviderAdapter } from "../../src/providers/types";
import { spliceOut } from "../../src/providers/shared/splice";
import { audit } from "./openai-helpers";
import { callPrefixEnds, countCalls, loadSession, manifestToolCalls, prng, randomPlan, requestBody } from "./openai-corpus-support";
import { newCoreCaches } from "../../src/core/caches";

export interface SuiteOptions {
  /** Test every `stride`-th prefix (plus the first and the last); 1 = all. */
  stride: number;
  /** Pairs and orphans expected on the full history. */
  fullPairs: number;
  plans: number;
  seed: number;
}

export function corpusSuite(id: string, adapter: ProviderAdapter, historyKey: "messages" | "input", opt: SuiteOptions): void {
  const s = loadSession(id);
  const ends = callPrefixEnds(s);
  describe(`corpus ${id} (${adapter.provider})`, () => {
    it(`parses every sampled model-call prefix: pairs = native calls, no orphans, empty plan byte-identical`, () => {
      const sample = ends.filter((_, k) => k % opt.stride === 0 || k === ends.length - 1);
      const bad: string[] = [];
      sample.forEach((end, k) => {
        const bytes = requestBody(s, end, k % 10 === 5);
        const parsed = adapter.read(bytes, newCoreCaches());
        const calls = countCalls(s, end);
        if (parsed.view.pairs.length !== calls || parsed.view.orphans.length !== 0) bad.push(`prefix ${end}: ${parsed.view.pairs.length} pairs, ${parsed.view.orphans.length} orphans, ${calls} calls`);
        const compiled = adapter.compile(parsed, EMPTY_PLAN);
        const out = spliceOut(bytes, compiled.deletions);
        if (compiled.deletions.length !== 0 || out !== bytes || Object.keys(compiled.refused).length !== 0) bad.push(`prefix ${end}: empty plan changed the body`);
      });
      expect(bad).toEqual([]);
      expect(sample.length).toBeGreaterThanOrEqual(Math.min(ends.length, 12));
    });
    it(`finds the MANIFEST's tool-call count as pairs in the full history`, () => {
      const { view } = adapter.read(requestBody(s, s.messages.length), newCoreCaches());
      expect(manifestToolCalls()[id]).toBe(opt.fullPairs);
      expect({ pairs: view.pairs.length, orphans: view.orphans }).toEqual({ pairs: opt.fullPairs, orphans: [] });
    });
    it(`${opt.plans} random plans on random prefixes: valid JSON, rules kept, prose identical, byte-subsequence`, () => {
      const rnd = prng(opt.seed);
      const failures: string[] = [];
      let edited = 0;
      const parsedByEnd = new Map<number, ParsedRequest>();
      for (let k = 0; k < opt.plans; k++) {
        const end = ends[Math.floor(rnd() * ends.length)]!;
        const parsed = parsedByEnd.get(end) ?? adapter.read(requestBody(s, end), newCoreCaches());
        parsedByEnd.set(end, parsed);
        const plan = randomPlan(rnd, parsed.view.pairs.map((p) => p.id), 0.2 + rnd() * 0.8);
        const compiled = adapter.compile(parsed, plan);
        if (compiled.deletions.length > 0) edited++;
        const out = spliceOut(parsed.bytes, compiled.deletions);
        for (const f of audit(adapter, parsed.bytes, out, plan, historyKey)) failures.push(`plan ${k} (prefix ${end}): ${f}`);
      }
      expect(failures.slice(0, 10)).toEqual([]);
      if (ends.length > 2 && opt.fullPairs > 0) expect(edited).toBeGreaterThan(opt.plans / 2);
    });
  });
}
