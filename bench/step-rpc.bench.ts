/**
 * The step RPC and the gateway's CPU per request (part of `npm run bench`):
 *
 * 1. Payload: the JSON length of the step input (src/session/contract.ts StepInput: the
 *    request's StepFacts, the config's hash, ids) for the largest corpus request of each
 *    adapter, against the target 16 KB + 200 B per pair, and the longest result text it
 *    carries (≤ head_chars by construction).
 * 2. Gateway CPU per request on the compaction-on path, in Node, over every call of every
 *    corpus session of the adapter in order (the deployed Session over an in-memory SQLite, as
 *    tools/replay/sluice/run-in-process.ts does; calls 60 s apart): the
 *    parts the Worker runs — parse (with the isolate's scan cache and core caches), facts, the step input's
 *    serialisation (JSON.stringify stands in for the RPC's structured clone), apply + check —
 *    timed; the DO's step is not (it runs in the Durable Object).
 */
import { loadConfig } from "../src/config/load-config";
import { decodeStepFacts, encodeStepFacts } from "../src/core/facts/wire-facts";
import { decideForward } from "../src/gateway/decide-forward";
import { prepareCompaction, stepFactsFor } from "../src/gateway/prepare-compaction";
import { ScanCache } from "../src/gateway/scan-cache";
import { Session } from "../src/session/session";
import { configHash, type StepOutput } from "../src/session/contract";
import { newCoreCaches, type CoreCaches } from "../src/core/caches";
import { QUIET_TRACE } from "../src/core/trace/record-tier-event";
import type { ProviderAdapter } from "../src/providers/types";
import type { StepInput } from "../src/session/contract";
import { createMemorySql } from "../tools/replay/sluice/create-memory-sql";
import { anthropicRequest, callPrefixes, openaiRequest, sessions, type Session } from "../test/support/corpus";

/** Payload target (docs/dev/README.md): a fixed part plus a part per pair. */
export const PAYLOAD_FIXED_BYTES = 16 * 1024;
export const PAYLOAD_PER_PAIR_BYTES = 200;

const loaded = loadConfig({ SLUICE_COMPACTION: "1" });
if (!loaded.ok) throw new Error(loaded.error.message);
const CONFIG = loaded.config;

function requestFor(adapter: ProviderAdapter, s: Session, end: number): Uint8Array {
  return adapter.provider === "anthropic" ? anthropicRequest(s, end) : openaiRequest(s, end);
}

/** The step input the gateway would send for `bytes` (null when the request is skipped). */
function stepInputOf(adapter: ProviderAdapter, bytes: Uint8Array, caches: CoreCaches, scan?: ScanCache, key = ""): { input: StepInput; prepared: Extract<ReturnType<typeof prepareCompaction>, { kind: "ready" }> } | null {
  const prepared = prepareCompaction(adapter.provider, new Headers(), bytes, { lookup: () => adapter, ...(scan ? { scan: (b: Uint8Array) => scan.scan(key, b) } : {}), caches });
  if (prepared.kind !== "ready") return null;
  const input: StepInput = { session_id: prepared.session.id, facts: encodeStepFacts(stepFactsFor(prepared, CONFIG, new Headers())), config_hash: configHash(CONFIG), mode: "compact", correlation_id: "00000000-0000-4000-8000-000000000000", now_ms: 0 };
  return { input, prepared };
}

/** Prints the payload figures for the largest request of `adapter`'s provider. */
function payload(adapter: ProviderAdapter): void {
  let best: { id: string; bytes: Uint8Array } | null = null;
  for (const s of sessions(adapter.provider)) {
    const end = callPrefixes(s).at(-1);
    if (end === undefined) continue;
    const bytes = requestFor(adapter, s, end);
    if (!best || bytes.length > best.bytes.length) best = { id: s.id, bytes };
  }
  if (!best) return;
  const step = stepInputOf(adapter, best.bytes, newCoreCaches());
  if (!step) return;
  const json = JSON.stringify(step.input).length;
  const facts = decodeStepFacts(step.input.facts);
  const pairs = facts.pairs.length;
  const target = PAYLOAD_FIXED_BYTES + PAYLOAD_PER_PAIR_BYTES * pairs;
  const longestText = Math.max(0, ...facts.pairs.map((p) => Math.max(p.result_head.length, p.error_line.length, p.input_head.length)));
  console.log(
    `${adapter.provider}: step RPC payload for ${best.id} (${best.bytes.length.toLocaleString("en")}-byte body, ${pairs} pairs, ${facts.messages.length} messages): ` +
      `${json.toLocaleString("en")} bytes JSON (${(json / best.bytes.length * 100).toFixed(1)} % of the body); target ≤ ${target.toLocaleString("en")} → ${json <= target ? "met" : "MISSED"}; ` +
      `longest text carried ${longestText} chars (a failed result's first line; head_chars ${CONFIG.head_chars} bounds it)`,
  );
}

/** Prints the gateway CPU per request over every corpus call of `adapter`'s provider. */
async function gatewayCpu(adapter: ProviderAdapter): Promise<void> {
  const times: number[] = [];
  let compacted = 0;
  // The isolate's state: one scan cache and one set of core caches for every call.
  const scan = new ScanCache();
  const caches = newCoreCaches();
  for (const s of sessions(adapter.provider)) {
    const m = createMemorySql();
    const session = new Session({ sql: m.sql, env: { SLUICE_COMPACTION: "1" }, trace: QUIET_TRACE });
    const ends = callPrefixes(s);
    for (let k = 0; k < ends.length; k++) {
      const bytes = requestFor(adapter, s, ends[k]!);
      const now = k * 60_000;
      let t = performance.now();
      const step = stepInputOf(adapter, bytes, caches, scan, s.id);
      if (step) JSON.stringify(step.input);
      let ms = performance.now() - t;
      if (step) {
        const input = { ...step.input, now_ms: now, correlation_id: `${s.id}#${k}` };
        // The DO's part (not timed), then the gateway's apply + check.
        const out = (await session.step(input)) as StepOutput;
        t = performance.now();
        const d = decideForward(step.prepared, bytes, out, "compact", input.correlation_id);
        JSON.stringify(d.report);
        ms += performance.now() - t;
        if (d.kind === "edited") compacted++;
        await session.report({ outcome: d.report, usage: null, estimated_input_tokens: d.report.tokens_sent, now_ms: now });
      }
      times.push(ms);
    }
    m.close();
  }
  const sorted = [...times].sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / Math.max(1, times.length);
  console.log(
    `${adapter.provider}: gateway CPU per compaction-on request over ${times.length} corpus calls (${compacted} forwarded edited): ` +
      `mean ${mean.toFixed(2)} ms, p50 ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} ms, p99 ${sorted[Math.floor(sorted.length * 0.99)]!.toFixed(2)} ms`,
  );
}

/** Runs both parts for every adapter. */
export async function runStepRpcBench(adapters: readonly ProviderAdapter[]): Promise<void> {
  for (const a of adapters) payload(a);
  console.log("");
  for (const a of adapters) await gatewayCpu(a);
}
