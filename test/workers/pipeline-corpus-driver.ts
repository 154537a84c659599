/**
 * Replays a slice of a corpus session call by call through the Worker with compaction on, and
 * derives the properties the live pipeline must hold from what the upstream stand-in
 * received (not from what the gateway says it did):
 * (a) every forwarded body passes checkGuarantee against the original;
 * (b) prefix stability: let F_k be the bytes forwarded for call k and P_k = F_k up to the end of
 *     its last history element (the closing `}` of the last message; the bytes after it — `]`
 *     and the rest of the top-level object — are excluded). When call k+1 takes no step,
 *     F_{k+1} starts with P_k followed by the input's separator ","; a call whose prefix differs
 *     is a "prefix change". Prefix changes must happen exactly at the calls whose
 *     `x-sluice-compaction` header names a step;
 * (c) per call, estimated tokens of the original and the forwarded bytes (the product's own
 *     estimator over the received bytes), summed, against the DO's counters.
 */
import { expect } from "vitest";
import { checkGuarantee } from "../../src/core/plan/check-guarantee";
import { getMember, scanJson } from "../../src/providers/shared/json-scan";
import type { PipelineDeps } from "../../src/gateway/compaction-pipeline";
import type { ProviderAdapter } from "../../src/providers/types";
import { newTestId } from "./helpers";
import { callEnds, compactionHeader, compactVars, corpusRequest, manualClock, recordedGapMs, send, statsOf, upstreamBodies, type CorpusDoc } from "./pipeline-harness";
import { newCoreCaches } from "../../src/core/caches";

export interface ReplayCall {
  /** History end of the call (messages[:end]). */
  end: number;
  original: Uint8Array;
  forwarded: Uint8Array;
  header: Record<string, string>;
}

export interface Replay {
  session: string;
  calls: ReplayCall[];
  /** Sends the call answering messages[:end] in the same session, `advanceMs` after the previous one. */
  sendMore: (end: number, advanceMs: number) => Promise<ReplayCall>;
}

/**
 * Sends calls `from`..`from + count − 1` of `doc` to `path`. The pipeline's clock moves by the
 * gap the session really had between calls (its timestamps), so idle gaps past the provider
 * cache TTL make the cache cold as they did in the recorded session.
 */
export async function replaySlice(doc: CorpusDoc, path: string, from: number, count: number, config: Record<string, unknown>, overrides: Partial<PipelineDeps> = {}): Promise<Replay> {
  const session = newTestId(`corpus-${doc.id}`);
  const clock = manualClock();
  const vars = compactVars(config);
  const calls: ReplayCall[] = [];
  let seen = 0;
  const sendMore = async (end: number, advanceMs: number): Promise<ReplayCall> => {
    clock.advance(advanceMs);
    const original = corpusRequest(doc, end);
    const { res } = await send(vars, path, { "x-test-id": session, "x-sluice-session": session }, original, { ...overrides, now: clock.now });
    expect(res.status).toBe(200);
    const bodies = await upstreamBodies(session);
    expect(bodies.length).toBe(seen + 1);
    seen++;
    return { end, original, forwarded: bodies[bodies.length - 1]!, header: compactionHeader(res) };
  };
  let prev: number | null = null;
  for (const end of callEnds(doc).slice(from, from + count)) {
    calls.push(await sendMore(end, recordedGapMs(doc, prev, end)));
    prev = end;
  }
  return { session, calls, sendMore };
}

/** End offset of the last element of the history array in `bytes` (the `}` closing it, exclusive end). */
export function historyEnd(bytes: Uint8Array, historyKey: string): number {
  const h = getMember(scanJson(bytes), historyKey);
  if (h?.type !== "array" || h.items.length === 0) throw new Error(`no ${historyKey} array`);
  return h.items[h.items.length - 1]!.end;
}

function startsWith(whole: Uint8Array, prefix: Uint8Array, sep: number): boolean {
  if (whole.length <= prefix.length || whole[prefix.length] !== sep) return false;
  for (let i = 0; i < prefix.length; i++) if (whole[i] !== prefix[i]) return false;
  return true;
}

export interface ReplayFigures {
  steps: number[];
  prefix_changes: number[];
  tokens_original: number;
  tokens_sent: number;
  tokens_saved: number;
  check_failures: string[];
}

/** Measures (a), (b) and (c) over `calls` (indices in the figures are positions in `calls`). */
export function measure(calls: readonly ReplayCall[], adapter: ProviderAdapter): ReplayFigures {
  const figures: ReplayFigures = { steps: [], prefix_changes: [], tokens_original: 0, tokens_sent: 0, tokens_saved: 0, check_failures: [] };
  const comma = ",".charCodeAt(0);
  calls.forEach((c, k) => {
    const verdict = checkGuarantee(adapter, c.original, c.forwarded);
    if (!verdict.ok) figures.check_failures.push(`call ${k}: ${verdict.violations.slice(0, 3).join("; ")}`);
    if (c.header.step !== "none") figures.steps.push(k);
    if (k > 0) {
      const prev = calls[k - 1]!.forwarded;
      if (!startsWith(c.forwarded, prev.subarray(0, historyEnd(prev, adapter.historyKey)), comma)) figures.prefix_changes.push(k);
    }
    const before = adapter.read(c.original, newCoreCaches()).view.est_tokens;
    const after = adapter.read(c.forwarded, newCoreCaches()).view.est_tokens;
    if (c.header.tokens_before !== String(before) || c.header.tokens_after !== String(after)) figures.check_failures.push(`call ${k}: header says ${c.header.tokens_before} → ${c.header.tokens_after}, bytes say ${before} → ${after}`);
    figures.tokens_original += before;
    figures.tokens_sent += after;
    figures.tokens_saved += Math.max(0, before - after);
  });
  return figures;
}

/** Asserts (a), (b), (c) for a replay and returns its figures. */
export async function expectPipelineProperties(replay: Replay, adapter: ProviderAdapter): Promise<ReplayFigures> {
  const f = measure(replay.calls, adapter);
  expect(f.check_failures).toEqual([]);
  // Every call went through the pipeline in compact mode (no fail-open reason).
  expect(replay.calls.filter((c) => c.header.mode !== "compact").map((c) => c.header)).toEqual([]);
  expect(f.steps.length).toBeGreaterThan(0);
  // A step on the very first call has no previous request to break.
  expect(f.prefix_changes).toEqual(f.steps.filter((k) => k > 0));
  const stats = await statsOf(replay.session);
  expect(stats.steps.length).toBe(f.steps.length);
  expect({ original: stats.counters.tokens_original, sent: stats.counters.tokens_sent, saved: stats.counters.tokens_saved }).toEqual({ original: f.tokens_original, sent: f.tokens_sent, saved: f.tokens_saved });
  expect(f.tokens_saved).toBeGreaterThan(0);
  expect(f.tokens_saved).toBe(f.tokens_original - f.tokens_sent);
  return f;
}
