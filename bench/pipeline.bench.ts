/**
 * `npm run bench`: parse + apply + check on the largest corpus request of every provider
 * adapter, as a ratio to a bare JSON.parse + JSON.stringify of the same body, measured in the
 * same run (target: ≤ 3×). Then the step RPC's payload bytes and the gateway's
 * CPU per compaction-on request over the corpus calls (step-rpc.bench.ts), the token
 * estimator's error (estimator.bench.ts) and the usage tap's CPU per streamed answer
 * (usage-tap.bench.ts).
 *
 * Method: the two workloads alternate in one loop (so machine load hits both alike); each is
 * timed per iteration; the figure is the median of the per-iteration ratios (paired, robust to
 * load drifting during the run), with the ratio of the fastest runs beside it. The plan is a fixed-seed random plan over
 * the request's pairs (every action kind). The baseline gets the body already decoded to a string.
 * "parse" includes the token estimate of every message (view.est_tokens is read), as the policy does.
 */
import { anthropicAdapter } from "../src/providers/anthropic-messages";
import { openaiChatAdapter } from "../src/providers/openai-chat";
import { openaiResponsesAdapter } from "../src/providers/openai-responses";
import { applyPlan } from "../src/core/plan/apply-plan";
import { checkGuarantee } from "../src/core/plan/check-guarantee";
import { newCoreCaches } from "../src/core/caches";
import type { ProviderAdapter } from "../src/providers/types";
import { anthropicRequest, callPrefixes, openaiRequest, randomPlan, rng, sessions } from "../test/support/corpus";
import { runEstimatorBench } from "./estimator.bench";
import { runUsageTapBench } from "./usage-tap.bench";
import { runStepRpcBench } from "./step-rpc.bench";

/** The adapters measured: every wire format Sluice compacts. */
const ADAPTERS = [anthropicAdapter, openaiChatAdapter, openaiResponsesAdapter];

const WARMUP = 15;
const RUNS = 61;

/** The largest model-call request body of the corpus for `adapter`'s provider. */
function largestRequest(adapter: ProviderAdapter): { id: string; bytes: Uint8Array } | null {
  let best: { id: string; bytes: Uint8Array } | null = null;
  for (const s of sessions(adapter.provider)) {
    const prefixes = callPrefixes(s);
    const end = prefixes[prefixes.length - 1];
    if (end === undefined) continue;
    const bytes = requestFor(adapter, s, end);
    if (bytes && (!best || bytes.length > best.bytes.length)) best = { id: s.id, bytes };
  }
  return best;
}

function requestFor(adapter: ProviderAdapter, s: ReturnType<typeof sessions>[number], end: number): Uint8Array | null {
  switch (adapter.provider) {
    case "anthropic":
      return anthropicRequest(s, end);
    case "openai-chat":
    case "openai-responses":
      return openaiRequest(s, end);
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function benchAdapter(adapter: ProviderAdapter): void {
  const req = largestRequest(adapter);
  if (!req) {
    console.log(`${adapter.provider}: no corpus request builder yet — skipped`);
    return;
  }
  const { bytes } = req;
  const text = new TextDecoder().decode(bytes);
  // One set of caches for the run, as a Worker isolate keeps one for its requests.
  const caches = newCoreCaches();
  const plan = randomPlan(adapter.read(bytes, caches).view.pairs, rng(3));
  const ours: number[] = [];
  const base: number[] = [];
  let sink = 0;
  let removed = 0;
  for (let i = 0; i < WARMUP + RUNS; i++) {
    let t = performance.now();
    sink += JSON.stringify(JSON.parse(text)).length;
    const b = performance.now() - t;
    t = performance.now();
    const parsed = adapter.read(bytes, caches);
    sink += parsed.view.est_tokens; // the gateway's policy reads the estimate: computed here, not lazily skipped
    const out = applyPlan(adapter, parsed, plan);
    const verdict = checkGuarantee(adapter, bytes, out.bytes, { input: parsed });
    const o = performance.now() - t;
    if (!verdict.ok) throw new Error(`checker rejected the bench plan: ${verdict.violations.join("; ")}`);
    removed = bytes.length - out.bytes.length;
    if (i >= WARMUP) { ours.push(o); base.push(b); }
  }
  const mo = median(ours);
  const mb = median(base);
  const paired = median(ours.map((o, i) => o / base[i]!));
  console.log(
    `${adapter.provider}: ${req.id} (${bytes.length.toLocaleString("en")} bytes, plan removes ${removed.toLocaleString("en")} bytes)\n` +
      `  parse+apply+check ${mo.toFixed(2)} ms  |  JSON.parse+stringify ${mb.toFixed(2)} ms  (medians)\n` +
      `  ratio ${paired.toFixed(2)}× (median of per-iteration ratios; target ≤ 3×)  |  best-case ${(Math.min(...ours) / Math.min(...base)).toFixed(2)}×` +
      (sink < 0 ? "" : ""),
  );
}

console.log(`node ${process.version}, ${RUNS} timed runs after ${WARMUP} warm-up, medians\n`);
for (const adapter of ADAPTERS) benchAdapter(adapter);
console.log("");
await runStepRpcBench(ADAPTERS);
console.log("");
runEstimatorBench();
console.log("");
runUsageTapBench();
