/**
 * `npm run fuzz` (Node program): seeded, bounded fuzzing of the pure pipeline — adapter.read,
 * session id, the four tiers under forced pressures with aggressive settings, random plans,
 * applyPlan, checkGuarantee — over valid generated conversations and mutations of real corpus
 * requests (test/support/fuzz). Prints per-kind counts and every finding with the (seed, index)
 * that reproduces it; exits 1 when there is a finding.
 *
 *   npm run fuzz -- [--seed N] [--count N] [--max-seconds S] [--plans K] [--only I] [--json]
 *
 * Defaults: seed 1, count 2000, max-seconds 120, plans 6 random plans per parsed case. The run
 * stops at whichever of count and max-seconds comes first. Huge strings (multi-MB) are included.
 * The Worker-level run lives in test/workers/fuzz-gateway.test.ts (inside `npm test`).
 */
import { corpusSeeds } from "../../test/support/corpus-seeds";
import { fuzzPipeline, type Finding } from "../../test/support/fuzz/fuzz-pipeline";
import { makeCase } from "../../test/support/fuzz/make-case";

/** Reads `--name value` / `--name=value`. */
function arg(argv: string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === `--${name}`) return argv[i + 1];
    if (argv[i]!.startsWith(`--${name}=`)) return argv[i]!.slice(name.length + 3);
  }
  return undefined;
}

function num(argv: string[], name: string, dflt: number): number {
  const v = arg(argv, name);
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer`);
  return n;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const seed = num(argv, "seed", 1);
  const count = num(argv, "count", 2_000);
  const maxSeconds = num(argv, "max-seconds", 120);
  const plans = num(argv, "plans", 6);
  const only = arg(argv, "only");
  const seeds = corpusSeeds();
  const started = performance.now();
  const byKind: Record<string, { cases: number; parsed: number; accepted: number }> = {};
  const findings: Array<Finding & { seed: number; index: number; case_kind: string; base: string; provider: string }> = [];
  let tried = 0, plansTried = 0, accepted = 0;
  const indexes = only !== undefined ? [Number(only)] : Array.from({ length: count }, (_, i) => i);
  for (const index of indexes) {
    if ((performance.now() - started) / 1000 > maxSeconds) break;
    const c = await makeCase(seeds, seed, index);
    const o = fuzzPipeline(c, plans);
    tried++;
    plansTried += o.plans;
    accepted += o.accepted;
    const k = (byKind[c.kind] ??= { cases: 0, parsed: 0, accepted: 0 });
    k.cases++;
    if (o.parsed) k.parsed++;
    k.accepted += o.accepted;
    for (const f of o.findings) findings.push({ ...f, seed, index, case_kind: c.kind, base: c.base, provider: c.provider });
  }
  const report = { seed, inputs_tried: tried, plans_tried: plansTried, edits_accepted_and_verified: accepted, seconds: Number(((performance.now() - started) / 1000).toFixed(1)), by_kind: byKind, findings: findings.length };
  if (argv.includes("--json")) console.log(JSON.stringify({ ...report, findings }, null, 2));
  else {
    console.log(JSON.stringify(report, null, 2));
    for (const f of findings.slice(0, 50)) console.log(`FINDING ${f.kind} seed=${f.seed} index=${f.index} (${f.case_kind} of ${f.base}, ${f.provider}): ${f.detail}`);
  }
  process.exitCode = findings.length > 0 ? 1 : 0;
}

main().catch((err: Error) => { console.error(`fuzz: ${err.stack ?? err.message}`); process.exit(2); });
