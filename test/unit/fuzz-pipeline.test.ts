/**
 * Fixed-seed run of the pure-pipeline fuzz target (test/support/fuzz/fuzz-pipeline.ts) inside
 * `npm test`: the same code `npm run fuzz` runs for volume, on a small bounded count. Every
 * finding fails the test with its (seed, index); the regression tests of what fuzzing found
 * live in fuzz-regressions.test.ts.
 */
import { describe, expect, it } from "vitest";
import { corpusSeeds } from "../support/corpus-seeds";
import { fuzzPipeline } from "../support/fuzz/fuzz-pipeline";
import { makeCase } from "../support/fuzz/make-case";

const SEED = 4242;
const COUNT = 80;
const RANDOM_PLANS = 4;

describe(`pure-pipeline fuzz (seed ${SEED}, ${COUNT} cases)`, () => {
  it("no finding; edits were accepted and verified", async () => {
    const seeds = corpusSeeds();
    const findings: string[] = [];
    let parsed = 0, accepted = 0;
    for (let index = 0; index < COUNT; index++) {
      const c = await makeCase(seeds, SEED, index);
      const o = fuzzPipeline(c, RANDOM_PLANS);
      if (o.parsed) parsed++;
      accepted += o.accepted;
      for (const f of o.findings) findings.push(`seed=${SEED} index=${index} ${c.kind} of ${c.base}: ${f.kind} ${f.detail}`);
    }
    expect(findings).toEqual([]);
    // Not vacuous: many inputs reach the tiers, and many edits pass the checker and get verified.
    expect(parsed).toBeGreaterThan(COUNT / 3);
    expect(accepted).toBeGreaterThan(100);
  }, 120_000);
});
