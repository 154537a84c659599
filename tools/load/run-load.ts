/**
 * `npm run load` (Node program, bounded): a smoke test of the whole path under concurrency. N
 * sessions replay M consecutive real corpus calls each (sessions concurrently, each session's
 * calls one after the other, as an agent sends them) through a `wrangler dev` with compaction
 * on (SLUICE_COMPACTION=1, default config) against the provider emulator (tools/emulator), and
 * a few through a second instance with compaction off. It then stops both and reads their
 * session Durable Objects' state from the local SQLite files (./read-do-state.ts) and reports:
 *
 * - errors (any non-200 answer or failed fetch): must be 0;
 * - DO state: the compaction-on instance holds exactly N sessions, each whose call count,
 *   request count (step RPCs) and report count (report RPCs) equal the calls it was sent;
 *   the compaction-off instance holds none (DESIGN invariant 1);
 * - session DO storage: the SQLite file size per session (median, largest);
 * - index writes per shard: each shard's SessionIndex file holds only sessions that hash to it,
 *   and the shards together hold every session and every call's outcome exactly once;
 * - RPCs per request: step RPCs and report RPCs the DOs counted per call sent (target: exactly
 *   1 before the forward, 1 after);
 * - p50 / p99 latency through the gateway, for orientation only (wrangler dev on a shared
 *   machine: not a target; speed targets live in `npm run bench`).
 *
 *   npm run load -- [--sessions N] [--calls M] [--json]
 *
 * Exit code 1 on any error or an inconsistent DO state, 2 on a bad command line.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { parseArgs } from "node:util";
import { join } from "node:path";
import { onExit } from "signal-exit";
import { agentHeaders } from "../replay/agent-headers";
import { readSessionText } from "../replay/read-session-text";
import { SEED_CORPUS_DIR } from "../shared/seed-corpus";
import { ENDPOINT_PATH } from "../replay/send-http";
import type { Provider, RecordedSession } from "../replay/types";
import { INDEX_WINDOW_MS } from "../../src/gateway/index-buffer";
import { readIndexShards, readSessionStates } from "./read-do-state";
import { INDEX_SHARDS } from "../../src/admin/index-shards";
import { startEmulatorProcess } from "./start-emulator-process";
import { startWrangler } from "./start-wrangler";

const CORPUS_DIR = SEED_CORPUS_DIR;
const GATEWAY_PREFIX: Record<Provider, string> = { anthropic: "/anthropic", "openai-chat": "/openai", "openai-responses": "/openai" };

/** How long after the last answer the instance may still send its after-the-answer reports (the index window, then a margin), ms. */
const SETTLE_MS = INDEX_WINDOW_MS + 1_500;

interface Call {
  session: number;
  provider: Provider;
  body: string;
}

/** A bad command line: printed without a stack. */
class UsageError extends Error {}

/** The options (node:util parseArgs, strict: an unknown flag or a flag without its value is an error). */
function options(argv: string[]) {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: argv, strict: true, options: { sessions: { type: "string" }, calls: { type: "string" }, json: { type: "boolean" } } }));
  } catch (e) {
    throw new UsageError(`${(e as Error).message}\nusage: npm run load -- [--sessions N] [--calls M] [--json]`);
  }
  const int = (name: string, dflt: number): number => {
    const v = values[name];
    if (v === undefined) return dflt;
    if (typeof v !== "string" || !/^\d+$/.test(v.trim()) || Number(v) < 1) throw new UsageError(`--${name} must be an integer ≥ 1, got ${String(v)}`);
    return Number(v);
  };
  return { n: int("sessions", 6), m: int("calls", 12), json: values.json === true };
}

/** The calls each session replays: M consecutive calls centred on the middle of the session. */
function loadSessions(n: number, m: number): Call[][] {
  const files = readdirSync(CORPUS_DIR).filter((f) => f.endsWith(".json")).sort();
  const sessions: RecordedSession[] = files.map((f) => readSessionText(readFileSync(join(CORPUS_DIR, f), "utf8"), f.replace(/\.json$/, "")));
  return Array.from({ length: n }, (_, i) => {
    const s = sessions[i % sessions.length]!;
    const start = Math.max(0, Math.min(s.calls.length - m, Math.floor(s.calls.length / 2) - Math.floor(m / 2)));
    return s.calls.slice(start, start + m).map((c) => ({ session: i, provider: s.provider, body: JSON.stringify(c.body) }));
  });
}

/** Sends one call through the gateway at `base`; returns latency (ms, through the end of the body) and the error, if any. */
async function send(base: string, call: Call, sessionId: string): Promise<{ ms: number; error: string | null }> {
  const headers = agentHeaders(call.provider, `key-${sessionId}`, sessionId);
  const t0 = performance.now();
  try {
    const res = await fetch(`${base}${GATEWAY_PREFIX[call.provider]}${ENDPOINT_PATH[call.provider]}`, { method: "POST", headers, body: call.body });
    const text = await res.text();
    return { ms: performance.now() - t0, error: res.status === 200 ? null : `${res.status} ${text.slice(0, 200)}` };
  } catch (e) {
    return { ms: performance.now() - t0, error: String(e) };
  }
}

/** The value at quantile `q` of `xs` (nearest rank), ms rounded to 0.1. */
const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round((s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0) * 10) / 10;
};

async function run(emulatorUrl: string, sessions: Call[][], o: { n: number; m: number; json: boolean }): Promise<number> {
  const runId = Date.now().toString(36);
  const persistOn = mkdtempSync(join(tmpdir(), "sluice-load-on-"));
  const persistOff = mkdtempSync(join(tmpdir(), "sluice-load-off-"));
  const removeState = () => { rmSync(persistOn, { recursive: true, force: true }); rmSync(persistOff, { recursive: true, force: true }); };
  const releaseState = onExit(removeState, { alwaysLast: true });
  const base = { ANTHROPIC_BASE_URL: emulatorUrl, OPENAI_BASE_URL: emulatorUrl };
  const started = performance.now();
  // One after the other: two wrangler processes starting at once can race for an internal port.
  const off = await startWrangler({ ...base, SLUICE_COMPACTION: "0", COMPACTION_CONFIG: "" }, persistOff);
  let on: Awaited<ReturnType<typeof startWrangler>>;
  try {
    on = await startWrangler({ ...base, SLUICE_COMPACTION: "1" }, persistOn);
  } catch (e) {
    await off.stop();
    throw e;
  }
  const latencies: number[] = [];
  const errors: string[] = [];
  const sid = (i: number) => `load-${runId}-s${i}`;
  try {
    // Compaction off: the first call of each session (no DO may be written).
    await Promise.all(sessions.map(async (calls, i) => {
      const r = await send(off.url, calls[0]!, `${sid(i)}-off`);
      if (r.error) errors.push(`off session ${i}: ${r.error}`);
    }));
    await Promise.all(sessions.map(async (calls, i) => {
      for (const c of calls) {
        const r = await send(on.url, c, sid(i));
        latencies.push(r.ms);
        if (r.error) errors.push(`session ${i}: ${r.error}`);
      }
    }));
    await new Promise((r) => setTimeout(r, SETTLE_MS));
  } finally {
    await Promise.allSettled([off.stop(), on.stop()]);
  }
  const sent = new Map(sessions.map((calls, i): [string, number] => [sid(i), calls.length]));
  const states = readSessionStates(persistOn).filter((s) => s.session_id !== null && sent.has(s.session_id));
  const exact = states.filter((s) => s.calls === sent.get(s.session_id!) && s.reports === s.calls);
  const offStates = readSessionStates(persistOff);
  const calls = [...sent.values()].reduce((a, b) => a + b, 0);
  const shards = readIndexShards(persistOn, new Set(sent.keys()));
  // Every session's rows in exactly one shard file, every call's outcome recorded once.
  const shardsConsistent = shards.every((s) => s.shard !== null) && shards.reduce((a, s) => a + s.sessions, 0) === sent.size && shards.reduce((a, s) => a + s.requests, 0) === calls;
  const consistent = states.length === sent.size && exact.length === sent.size && offStates.length === 0 && shardsConsistent;
  const report = {
    sessions: o.n,
    calls_per_session: o.m,
    requests: calls,
    seconds: Math.round((performance.now() - started) / 100) / 10,
    errors: errors.length,
    first_errors: errors.slice(0, 10),
    do_state: { consistent, sessions_found: states.length, sessions_exact: exact.length, compaction_off_do_files: offStates.length },
    rpcs_per_request: {
      before_forward: Math.round((states.reduce((a, s) => a + s.calls, 0) / calls) * 1000) / 1000,
      after_answer: Math.round((states.reduce((a, s) => a + s.reports, 0) / calls) * 1000) / 1000,
    },
    session_do_bytes: { p50: quantile(states.map((s) => s.bytes), 0.5), max: Math.max(0, ...states.map((s) => s.bytes)) },
    index_shards: { consistent: shardsConsistent, per_shard: shards },
    latency_ms: { p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) },
  };
  removeState();
  releaseState();
  console.log(o.json ? JSON.stringify(report, null, 2) : [
    `npm run load: ${report.sessions} sessions × ${report.calls_per_session} calls = ${calls} requests in ${report.seconds} s (compaction on)`,
    `  errors: ${report.errors}${report.first_errors.length > 0 ? `\n    ${report.first_errors.join("\n    ")}` : ""}`,
    `  DO state: ${consistent ? "consistent" : "INCONSISTENT"} — ${exact.length}/${sent.size} sessions count exactly the calls sent (calls, step RPCs, report RPCs); compaction-off DO files: ${offStates.length}`,
    `  RPCs per request: ${report.rpcs_per_request.before_forward} before the forward, ${report.rpcs_per_request.after_answer} after the answer (target 1 and 1)`,
    `  session DO storage (SQLite pages after ${o.m} calls): p50 ${report.session_do_bytes.p50} bytes, max ${report.session_do_bytes.max} bytes`,
    `  index writes per shard (of ${INDEX_SHARDS}; shard: sessions/requests): ${shards.map((x) => `${x.shard ?? "MIXED"}: ${x.sessions}/${x.requests}`).join(", ")}${shardsConsistent ? "" : " — INCONSISTENT"}`,
    `  latency through wrangler dev (orientation only): p50 ${report.latency_ms.p50} ms, p99 ${report.latency_ms.p99} ms`,
  ].join("\n"));
  return errors.length === 0 && consistent ? 0 : 1;
}

async function main(): Promise<void> {
  const { n, m, json } = options(process.argv.slice(2));
  const emulator = await startEmulatorProcess();
  let code: number;
  try {
    code = await run(emulator.url, loadSessions(n, m), { n, m, json });
  } finally {
    await emulator.close(); // its own process: closed on every path, errors included
  }
  process.exit(code);
}

main().catch((err: Error) => { console.error(`load: ${err instanceof UsageError ? err.message : (err.stack ?? err.message)}`); process.exit(2); });
