/**
 * `npm run load` (Node program, bounded): N concurrent sessions replay real corpus calls
 * against the provider emulator (tools/emulator) three ways in one run — direct to the
 * emulator, through `wrangler dev` with compaction off, and through a second `wrangler dev`
 * with compaction on (SLUICE_COMPACTION=1, default config) — and reports per path the
 * throughput, p50/p99 latency, the paired added latency over direct, the CPU ms per request
 * each wrangler instance used (Linux /proc: ./process-cpu.ts; its Node proxy and workerd,
 * summed and per process), the on/off ratios (also split by the call's place in its session:
 * first, second, later), the error count, and whether the session Durable Objects counted
 * exactly the calls sent.
 *
 *   npm run load -- [--sessions N] [--calls M] [--rounds R] [--interval-ms T] [--json]
 *
 * Prints a short text summary (./format-report.ts); `--json` prints the whole report as JSON
 * instead (every round's figures, CPU per process, idle burn, the first errors). Either way a
 * run at ≥ 3 % CPU steal adds a warning on stderr, and the exit code is 1 on any error or an
 * inconsistent DO state.
 *
 * Defaults: 6 sessions × 12 calls = 72 requests per path and round, 9 rounds (1 944 in all),
 * each session sending one call every T = 250 ms (24 calls/s in all; ./schedule.ts: sessions
 * staggered, latency counted from each call's due time; T = 0 is the closed loop, each call the
 * moment the session's last answer ends, which measures saturation throughput — in paced runs
 * the throughput figure is just the offered rate). The emulator runs in its own process
 * (./start-emulator-process.ts). A
 * round runs the three paths one after the other with fresh sessions and credentials; the
 * figures reported are the medians over rounds (each round's own ratios, then their median), so
 * load drifting on a shared machine hits the three paths alike. Each session is one
 * corpus session (cycled for N > 9) replaying M consecutive calls from the middle of its
 * history in order, as an agent does; the N sessions run concurrently. Phases run one
 * after another (direct, off, on; direct, on, off in odd rounds) after one warm-up request per
 * path; each path uses its own emulator credential so every path starts with cold provider
 * caches. Each wrangler phase ends SETTLE_MS after its last answer, so the after-the-answer
 * reports (batched: src/gateway/report-buffer.ts) land, and are charged, within it.
 *
 * Why CPU too: added latency is the difference of two noisy figures. A compaction hook that
 * returns at once (a temporary edit) measured 1.00× CPU per request against off while its
 * per-round added-latency ratios ran 1.2–2.1× (docs/reliability.md).
 *
 * DO consistency without an admin route (wrangler-dev-only, read-do-state.ts): after the run
 * both wrangler processes are stopped and their local SQLite files read; the compaction-on
 * instance must hold exactly N sessions, each with `calls` and `requests` equal to the calls it
 * was sent (M, or fewer for a shorter session), the compaction-off instance none
 * (DESIGN invariant 1: no DO write when off).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { parseArgs } from "node:util";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { onExit } from "signal-exit";
import { agentHeaders } from "../replay/agent-headers";
import { readSessionText } from "../replay/read-session-text";
import { ENDPOINT_PATH } from "../replay/send-http";
import type { Provider, RecordedSession } from "../replay/types";
import { INDEX_WINDOW_MS } from "../../src/gateway/index-buffer";
import { cpuSince, idleCpuPerSecond, machineCpu, minByCommand, minusIdle, stealPercent, stealWarning, treeCpuByCommand } from "./process-cpu";
import { formatReport } from "./format-report";
import { readSessionStates } from "./read-do-state";
import { dueMs } from "./schedule";
import { startEmulatorProcess } from "./start-emulator-process";
import { startWrangler } from "./start-wrangler";
import { pooledAddedByCallPosition, pooledAddedRatio, quartiles, summarizePath, summarizeRounds } from "./summarize-latency";

const CORPUS_DIR = fileURLToPath(new URL("../../../shared/corpus/", import.meta.url).href);
const GATEWAY_PREFIX: Record<Provider, string> = { anthropic: "/anthropic", "openai-chat": "/openai", "openai-responses": "/openai" };

type PathName = "direct" | "off" | "on";

interface Call {
  session: number;
  provider: Provider;
  body: string;
}

/** A bad command line: printed without a stack. */
class UsageError extends Error {}

/**
 * Default number of rounds. Nine, not five (until 2026-12-01): one round's on/off ratio moves by
 * ± 0.3 between rounds of the same code, so a 5-round median still moved ± 0.15 between runs;
 * over 9 rounds it moved 1.13–1.34 in seven runs at ≤ 5 % steal (docs/reliability.md). About 3 minutes.
 */
const DEFAULT_ROUNDS = 9;

/** The options (node:util parseArgs, strict: an unknown flag or a flag without its value is an error). */
function options(argv: string[]) {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: argv, strict: true, options: { sessions: { type: "string" }, calls: { type: "string" }, rounds: { type: "string" }, "interval-ms": { type: "string" }, json: { type: "boolean" } } }));
  } catch (e) {
    throw new UsageError(`${(e as Error).message}\nusage: npm run load -- [--sessions N] [--calls M] [--rounds R] [--interval-ms T] [--json]`);
  }
  const int = (name: string, dflt: number, min: number): number => {
    const v = values[name];
    if (v === undefined) return dflt;
    const n = Number(v);
    if (typeof v !== "string" || !/^\d+$/.test(v.trim()) || n < min) throw new UsageError(`--${name} must be an integer ≥ ${min}, got ${String(v)}`);
    return n;
  };
  return { n: int("sessions", 6, 1), m: int("calls", 12, 1), rounds: int("rounds", DEFAULT_ROUNDS, 1), intervalMs: int("interval-ms", DEFAULT_INTERVAL_MS, 0), json: values.json === true };
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

/** Sends one call on `path`; returns latency (ms, through the end of the body) and status. */
async function send(base: string, path: PathName, call: Call, runId: string): Promise<{ ms: number; status: number; error: string | null }> {
  const url = path === "direct" ? `${base}${ENDPOINT_PATH[call.provider]}` : `${base}${GATEWAY_PREFIX[call.provider]}${ENDPOINT_PATH[call.provider]}`;
  const key = `load-${runId}-${path}-s${call.session}`;
  const headers = agentHeaders(call.provider, key, `load-${runId}-s${call.session}`);
  const t0 = performance.now();
  try {
    const res = await fetch(url, { method: "POST", headers, body: call.body });
    const text = await res.text();
    return { ms: performance.now() - t0, status: res.status, error: res.status === 200 ? null : `${res.status} ${text.slice(0, 200)}` };
  } catch (e) {
    return { ms: performance.now() - t0, status: 0, error: String(e) };
  }
}

/** Default time between a session's calls, ms (./schedule.ts): 6 sessions → 24 calls/s, about half of what compaction-on serves saturated here. */
const DEFAULT_INTERVAL_MS = 250;

/** How long after a phase its instance may still work on the phase's requests (the index window, then a margin), ms. */
const SETTLE_MS = INDEX_WINDOW_MS + 500;

/** Wall time over which each wrangler instance's idle CPU is sampled before the rounds, ms. */
const IDLE_SAMPLE_MS = 3000;

/**
 * One path's phase: every session's calls, sessions concurrently. With `pid` (a wrangler
 * instance), also the CPU ms that instance's process tree used from the phase's start until
 * SETTLE_MS after its end (so the after-the-answer reports are charged to their requests), less
 * what it burns idle over that span (`idle`, ms per second: ./process-cpu.ts minusIdle).
 */
async function phase(base: string, path: PathName, sessions: Call[][], runId: string, intervalMs: number, pid: number | null, idle: Record<string, number> | null = null) {
  const latencies: number[][] = sessions.map(() => []);
  const errors: string[] = [];
  const cpu0 = pid === null ? null : treeCpuByCommand(pid);
  const t0 = performance.now();
  await Promise.all(sessions.map(async (calls, i) => {
    for (const [k, c] of calls.entries()) {
      // Paced (./schedule.ts): wait for the call's due time; a late call counts its lateness.
      const due = t0 + dueMs(i, k, sessions.length, intervalMs);
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const r = await send(base, path, c, runId);
      // Paced: from the due time to the end of the answer, for every call alike (lateness and timer overshoot included).
      latencies[i]!.push(intervalMs === 0 ? r.ms : performance.now() - due);
      if (r.error) errors.push(`session ${i}: ${r.error}`);
    }
  }));
  const wallMs = performance.now() - t0;
  if (cpu0 === null || pid === null) return { latencies: latencies.flat(), errors, wallMs, cpuMs: null, cpuBy: null };
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const cpu1 = treeCpuByCommand(pid) ?? {};
  const cpuBy = minusIdle(cpuSince(cpu0, cpu1), idle ?? {}, performance.now() - t0);
  return { latencies: latencies.flat(), errors, wallMs, cpuMs: Object.values(cpuBy).reduce((a, b) => a + b, 0), cpuBy };
}

async function main(): Promise<void> {
  const { n, m, rounds, intervalMs, json } = options(process.argv.slice(2));
  const runId = Date.now().toString(36);
  const sessions = loadSessions(n, m);
  const emulator = await startEmulatorProcess();
  let code: number;
  try {
    code = await runAgainst(emulator.url, sessions, { n, m, rounds, intervalMs, runId, json });
  } finally {
    await emulator.close(); // its own process: closed on every path, errors included
  }
  process.exit(code);
}

/** Starts both wrangler instances against the emulator at `emulatorUrl`, runs the rounds, prints the report; returns the exit code. */
async function runAgainst(emulatorUrl: string, sessions: Call[][], o: { n: number; m: number; rounds: number; intervalMs: number; runId: string; json: boolean }): Promise<number> {
  const { n, m, rounds, intervalMs, runId } = o;
  const persistOn = mkdtempSync(join(tmpdir(), "sluice-load-on-"));
  const persistOff = mkdtempSync(join(tmpdir(), "sluice-load-off-"));
  const removeState = () => { rmSync(persistOn, { recursive: true, force: true }); rmSync(persistOff, { recursive: true, force: true }); };
  // A run that ends early (Ctrl-C, a failure) removes the state folders too; after the wrangler processes' own exit handlers.
  const releaseState = onExit(removeState, { alwaysLast: true });
  // The batching windows the settle wait (SETTLE_MS) is computed from, set explicitly so they are the ones running.
  const base = { ANTHROPIC_BASE_URL: emulatorUrl, OPENAI_BASE_URL: emulatorUrl };
  const started = performance.now();
  const machine0 = machineCpu();
  // One after the other: two wrangler processes starting at once can race for an internal port.
  const off = await startWrangler({ ...base, SLUICE_COMPACTION: "0", COMPACTION_CONFIG: "" }, persistOff);
  let on: Awaited<ReturnType<typeof startWrangler>>;
  try {
    on = await startWrangler({ ...base, SLUICE_COMPACTION: "1" }, persistOn);
  } catch (e) {
    await off.stop();
    throw e;
  }
  const urls: Record<PathName, string> = { direct: emulatorUrl, off: off.url, on: on.url };
  const pids: Record<PathName, number | null> = { direct: null, off: off.pid, on: on.pid };
  const perRound: Record<PathName, Awaited<ReturnType<typeof phase>>>[] = [];
  let idle: Record<PathName, Record<string, number> | null> = { direct: null, off: null, on: null };
  try {
    const warm: Call = { ...sessions[0]![0]!, session: 9_999 };
    for (const p of ["direct", "off", "on"] as const) await send(urls[p], p, warm, runId);
    // Both instances idle at once (after the warm-up's reports land): what each burns without requests is taken off its phases' CPU.
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    // Two samples, the smaller per command kept: a burst of the proxy's own work during one sample (once 83 ms/s) is not idle burn.
    const sample = () => Promise.all([idleCpuPerSecond(off.pid, IDLE_SAMPLE_MS / 2), idleCpuPerSecond(on.pid, IDLE_SAMPLE_MS / 2)]);
    const [a, b] = [await sample(), await sample()];
    idle = { direct: null, off: minByCommand(a[0], b[0]), on: minByCommand(a[1], b[1]) };
    // Rounds of direct → off → on (on → off in odd rounds), each with its own sessions and
    // credentials (cold caches): the figures are the median over rounds, so drifting machine load
    // hits every path alike.
    for (let r = 0; r < rounds; r++) {
      const round = {} as Record<PathName, Awaited<ReturnType<typeof phase>>>;
      // Off and on swap places every other round, so a drift within a round favours neither.
      for (const p of ["direct", ...(r % 2 === 0 ? ["off", "on"] : ["on", "off"])] as PathName[]) round[p] = await phase(urls[p], p, sessions, `${runId}r${r}`, intervalMs, pids[p], idle[p]);
      perRound.push(round);
    }
  } finally {
    await Promise.allSettled([off.stop(), on.stop()]);
  }
  const summaries = perRound.map((round) => {
    const direct = round.direct.latencies;
    return {
      direct: summarizePath(direct, round.direct.errors.length, round.direct.wallMs, null),
      off: summarizePath(round.off.latencies, round.off.errors.length, round.off.wallMs, direct, round.off.cpuMs),
      on: summarizePath(round.on.latencies, round.on.errors.length, round.on.wallMs, direct, round.on.cpuMs),
    };
  });
  const byRound = summarizeRounds(summaries);
  const latencyRounds = perRound.map((round) => ({ direct: round.direct.latencies, off: round.off.latencies, on: round.on.latencies }));
  const all = perRound.flatMap((round) => Object.values(round).flatMap((x) => x.errors));
  // DO state: every round's sessions, each with exactly the calls it was sent.
  const sent = new Map<string, number>(perRound.flatMap((_, r) => sessions.map((calls, i): [string, number] => [`load-${runId}r${r}-s${i}`, calls.length])));
  const states = readSessionStates(persistOn).filter((s) => s.session_id !== null && sent.has(s.session_id));
  const consistent = states.length === sent.size && states.every((s) => s.calls === sent.get(s.session_id!) && s.requests === sent.get(s.session_id!));
  const offStates = readSessionStates(persistOff);
  const report = {
    sessions: n,
    calls_per_session: m,
    interval_ms: intervalMs,
    offered_rps: intervalMs === 0 ? null : Math.round((n * 1000 / intervalMs) * 10) / 10,
    round_count: rounds,
    requests_per_path: rounds * sessions.reduce((k, calls) => k + calls.length, 0),
    seconds: Math.round((performance.now() - started) / 100) / 10,
    // Share of the machine's CPU the hypervisor gave other guests during the run: above a few % the figures are noisier (docs/reliability.md).
    cpu_steal_percent: stealPercent(machine0, machineCpu()),
    ...byRound,
    // The same ratio from every call at once, and how far the rounds' own ratios spread (./summarize-latency.ts): how far one run's headline can be trusted.
    p50_added_latency_pooled: pooledAddedRatio(latencyRounds),
    p50_added_ratio_quartiles_over_rounds: quartiles(byRound.rounds.flatMap((r) => (r.p50_added_ratio === null ? [] : [r.p50_added_ratio]))),
    // The same pooled figures for a session's first call, its second and the later ones: how much of the ratio is session starts.
    p50_added_by_call_position: pooledAddedByCallPosition(latencyRounds, sessions.map((calls) => calls.length)),
    // CPU ms per request of each process of the two wrangler instances, summed over rounds (wrangler's Node proxy; its proxy workerd; the user workerd's own threads and V8's helper threads: ./process-cpu.ts workerdKey).
    idle_cpu_ms_per_s_by_process: Object.fromEntries((["off", "on"] as const).map((p) => [p, Object.fromEntries(Object.entries(idle[p] ?? {}).map(([k, v]) => [k, Math.round(v * 10) / 10]))])),
    cpu_ms_per_request_by_process: Object.fromEntries((["off", "on"] as const).map((p): ["off" | "on", Record<string, number>] => {
      const total: Record<string, number> = {};
      for (const round of perRound) for (const [k, v] of Object.entries(round[p].cpuBy ?? {})) total[k] = (total[k] ?? 0) + v;
      const requests = perRound.reduce((a, round) => a + round[p].latencies.length, 0);
      return [p, Object.fromEntries(Object.entries(total).map(([k, v]) => [k, Math.round((v / requests) * 100) / 100]))];
    })) as { off: Record<string, number>; on: Record<string, number> },
    errors: all.slice(0, 10),
    do_state: {
      compaction_on_sessions: states.length,
      calls_counted_vs_sent: `${states.filter((s) => s.calls === sent.get(s.session_id!)).length}/${sent.size} sessions exact`,
      consistent,
      compaction_off_do_files: offStates.length,
    },
  };
  removeState();
  releaseState();
  console.log(o.json ? JSON.stringify(report, null, 2) : formatReport(report));
  const warning = stealWarning(report.cpu_steal_percent);
  if (warning !== null) console.error(warning);
  return all.length === 0 && consistent && offStates.length === 0 ? 0 : 1;
}

main().catch((err: Error) => { console.error(`load: ${err instanceof UsageError ? err.message : (err.stack ?? err.message)}`); process.exit(2); });
