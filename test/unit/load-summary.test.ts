/** The load run's figures (tools/load/summarize-latency.ts): nearest-rank percentiles, paired added latency, ratios. */
import { describe, expect, it } from "vitest";
import { percentile, ratio, summarizePath } from "../../tools/load/summarize-latency";
import { STEAL_WARN_PERCENT, stealWarning } from "../../tools/load/process-cpu";

describe("load summary", () => {
  it("nearest-rank percentiles", () => {
    const xs = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    expect([percentile(xs, 50), percentile(xs, 99), percentile(xs, 10), percentile([], 50)]).toEqual([5, 10, 1, Number.NaN]);
  });
  it("added latency is paired per call against the direct path", () => {
    expect(summarizePath([12, 30, 14, 16], 1, 2_000, [10, 10, 10, 10])).toEqual({
      requests: 4, errors: 1, wall_ms: 2_000, throughput_rps: 2, p50_ms: 14, p99_ms: 30, added_p50_ms: 4, added_p99_ms: 20, cpu_ms_per_request: null,
    });
    expect(summarizePath([12, 30, 14, 16], 0, 2_000, [10, 10, 10, 10], 50).cpu_ms_per_request).toBe(12.5);
    expect(summarizePath([12], 0, 1_000, null).added_p50_ms).toBe(null);
  });
  it("ratios", () => {
    expect([ratio(3, 2), ratio(1, 0), ratio(null, 2), ratio(1, 3), ratio(0, 2)]).toEqual([1.5, null, null, 0.333, 0]);
    // A non-positive added latency off (or a negative one on) is noise, not a ratio: −1.25 / 6.31 must not read as −0.198×.
    expect([ratio(-1.25, 6.31), ratio(2, -0.03), ratio(2, 0)]).toEqual([null, null, null]);
  });
});

describe("load summary over rounds", () => {
  const round = (offAdded: number, onAdded: number, offRps: number, onRps: number) => {
    const p = (added: number | null, rps: number) => ({ requests: 2, errors: 0, wall_ms: 1_000, throughput_rps: rps, p50_ms: 50 + (added ?? 0), p99_ms: 90 + (added ?? 0), added_p50_ms: added, added_p99_ms: added === null ? null : added * 2, cpu_ms_per_request: added === null ? null : added / 5 });
    return { direct: p(null, 100), off: p(offAdded, offRps), on: p(onAdded, onRps) };
  };
  it("medians per path and the median of per-round ratios", async () => {
    const { summarizeRounds } = await import("../../tools/load/summarize-latency");
    const s = summarizeRounds([round(10, 30, 50, 40), round(20, 22, 60, 55), round(5, 50, 40, 20)]);
    expect(s.paths.off).toEqual({ requests: 6, errors: 0, throughput_rps: 50, p50_ms: 60, p99_ms: 100, added_p50_ms: 10, added_p99_ms: 20, cpu_ms_per_request: 2 });
    expect(s.paths.on.added_p50_ms).toBe(30);
    // Per round: 3, 1.1, 10 → median 3 (not 30 / 10 from the medians).
    expect(s.ratios_on_vs_off.p50_added_latency).toBe(3);
    expect(s.rounds.map((r) => r.p50_added_ratio)).toEqual([3, 1.1, 10]);
    expect(s.ratios_on_vs_off.throughput).toBe(0.8);
    expect(s.ratios_on_vs_off.cpu_per_request).toBe(3); // per round: 3, 1.1, 10
  });
  it("the pooled ratio pairs each call with its own round's direct latency and takes one p50 per path over all rounds", async () => {
    const { pooledAddedRatio } = await import("../../tools/load/summarize-latency");
    // Added per call — round 1: off 2, 4, 6 and on 3, 5, 30; round 2 (direct 10 ms slower): off 1, 3, 5 and on 2, 6, 7.
    const rounds = [
      { direct: [10, 10, 10], off: [12, 14, 16], on: [13, 15, 40] },
      { direct: [20, 20, 20], off: [21, 23, 25], on: [22, 26, 27] },
    ];
    // off: 1 2 3 4 5 6 → p50 (lower middle) 3; on: 2 3 5 6 7 30 → 5.
    expect(pooledAddedRatio(rounds)).toEqual({ off_added_p50_ms: 3, on_added_p50_ms: 5, ratio: 1.667 });
    expect(pooledAddedRatio([])).toEqual({ off_added_p50_ms: null, on_added_p50_ms: null, ratio: null });
  });
  it("the pooled ratio by call position: a session's first call, its second, the later ones (sessions one after the other, each its own count)", async () => {
    const { pooledAddedByCallPosition } = await import("../../tools/load/summarize-latency");
    // 2 sessions × 3 calls per round. Added per call (session 0, then 1) — round 1: off 2 1 2 | 4 2 3, on 30 5 2 | 40 3 4;
    // round 2 (direct 20 ms): off 6 1 2 | 8 3 1, on 20 9 3 | 10 2 2.
    const rounds = [
      { direct: [10, 10, 10, 10, 10, 10], off: [12, 11, 12, 14, 12, 13], on: [40, 15, 12, 50, 13, 14] },
      { direct: [20, 20, 20, 20, 20, 20], off: [26, 21, 22, 28, 23, 21], on: [40, 29, 23, 30, 22, 22] },
    ];
    // first: off 2 4 6 8 → 4, on 10 20 30 40 → 20; second: off 1 1 2 3 → 1, on 2 3 5 9 → 3; later: off 1 2 2 3 → 2, on 2 2 3 4 → 2.
    expect(pooledAddedByCallPosition(rounds, [3, 3])).toEqual({
      first: { off_added_p50_ms: 4, on_added_p50_ms: 20, ratio: 5 },
      second: { off_added_p50_ms: 1, on_added_p50_ms: 3, ratio: 3 },
      later: { off_added_p50_ms: 2, on_added_p50_ms: 2, ratio: 1 },
    });
    // Sessions of unequal length (a corpus session shorter than --calls): 2 calls, then 4. Added — session 0: off 5 6, on 50 5;
    // session 1: off 1 2 3 1, on 10 20 30 7. first: off 1 5 → 1, on 10 50 → 10; second: off 2 6 → 2, on 5 20 → 5;
    // later (session 1's 3rd and 4th): off 1 3 → 1, on 7 30 → 7 (without the 4th call: 3 and 30).
    const uneven = [{ direct: [10, 10, 10, 10, 10, 10], off: [15, 16, 11, 12, 13, 11], on: [60, 15, 20, 30, 40, 17] }];
    expect(pooledAddedByCallPosition(uneven, [2, 4])).toEqual({
      first: { off_added_p50_ms: 1, on_added_p50_ms: 10, ratio: 10 },
      second: { off_added_p50_ms: 2, on_added_p50_ms: 5, ratio: 2.5 },
      later: { off_added_p50_ms: 1, on_added_p50_ms: 7, ratio: 7 },
    });
    // One call per session: every call is a first one; no second or later call.
    const none = { off_added_p50_ms: null, on_added_p50_ms: null, ratio: null };
    expect(pooledAddedByCallPosition([{ direct: [10, 10], off: [12, 16], on: [13, 20] }], [1, 1])).toEqual({ first: { off_added_p50_ms: 2, on_added_p50_ms: 3, ratio: 1.5 }, second: none, later: none });
    expect(pooledAddedByCallPosition([], [3, 3])).toEqual({ first: none, second: none, later: none });
    expect(() => pooledAddedByCallPosition(rounds, [3, 2.5])).toThrow("sessionCalls[1]: 2.5 is not a non-negative integer");
    expect(() => pooledAddedByCallPosition(rounds, [-1])).toThrow("sessionCalls[0]: -1 is not a non-negative integer");
    expect(() => pooledAddedByCallPosition(rounds, [3, 2])).toThrow("rounds[0].direct: 6 latencies for 5 calls");
  });
  it("quartiles over rounds by nearest rank", async () => {
    const { quartiles } = await import("../../tools/load/summarize-latency");
    expect(quartiles([1.5, 1.1, 1.3, 0.9, 1.2])).toEqual([1.1, 1.2, 1.3]);
    expect(quartiles([])).toEqual([null, null, null]);
  });
  it("parses /proc/<pid>/stat lines, commands with spaces and parentheses included", async () => {
    const { parseStat } = await import("../../tools/load/process-cpu");
    const line = "4242 (work (er) d) S 4200 4242 4242 0 -1 4194560 500 0 0 0 1234 56 0 0 20 0 9 0 100 1000 100";
    expect(parseStat(line)).toEqual({ pid: 4242, ppid: 4200, comm: "work (er) d", ticks: 1290 });
    expect(parseStat("garbage")).toBe(null);
  });
});

describe("load pacing and idle CPU", () => {
  it("paced calls are due every interval, sessions staggered evenly within it; interval 0 is the closed loop", async () => {
    const { dueMs } = await import("../../tools/load/schedule");
    // 4 sessions, one call per 200 ms each: session 1 starts 50 ms in, its call 2 is due at 450 ms.
    expect([dueMs(0, 0, 4, 200), dueMs(1, 0, 4, 200), dueMs(3, 0, 4, 200), dueMs(1, 2, 4, 200), dueMs(0, 11, 6, 250)]).toEqual([0, 50, 150, 450, 2_750]);
    expect([dueMs(0, 0, 6, 0), dueMs(5, 11, 6, 0)]).toEqual([0, 0]);
  });
  it("a phase's CPU less the instance's idle burn over the same span, per command, floored at 0", async () => {
    const { minusIdle } = await import("../../tools/load/process-cpu");
    // esbuild burns 10 ms/s idle: over 2.5 s that is 25 ms of its 30; workerd has no idle burn; node's 3 ms is below its 4 ms idle share.
    expect(minusIdle({ workerd: 700, esbuild: 30, node: 3 }, { esbuild: 10, node: 1.6 }, 2_500)).toEqual({ workerd: 700, esbuild: 5, node: 0 });
  });
  it("steal share of the machine's CPU from two /proc/stat cpu lines", async () => {
    const { parseProcStatCpu, stealPercent } = await import("../../tools/load/process-cpu");
    const a = parseProcStatCpu("cpu  1000 0 200 8000 50 0 10 40 0 0");
    const b = parseProcStatCpu("cpu  1500 0 300 8300 50 0 10 140 0 0");
    expect([a, stealPercent(a, b), parseProcStatCpu("cpu0 1 2 3"), stealPercent(null, b)]).toEqual([{ total: 9300, steal: 40 }, 10, null, null]);
  });
  it("of two idle samples the smaller per command is kept (a burst of work in one is not idle burn)", async () => {
    const { minByCommand } = await import("../../tools/load/process-cpu");
    expect(minByCommand({ node: 83.2, esbuild: 10, workerd: 0 }, { node: 3.3, esbuild: 13.3, workerd: 0 })).toEqual({ node: 3.3, esbuild: 10, workerd: 0 });
    expect(minByCommand(null, { node: 1 })).toBe(null);
  });
  it("a run at STEAL_WARN_PERCENT steal or more is flagged; below it, or without a reading, not", () => {
    expect(STEAL_WARN_PERCENT).toBe(3);
    expect([stealWarning(null), stealWarning(0), stealWarning(2.9)]).toEqual([null, null, null]);
    expect(stealWarning(3)).toBe("load: cpu_steal_percent 3 ≥ 3: the host gave other guests that share of the CPU during the run; its latency ratios are noise (docs/reliability.md), run again when it is quiet");
    expect(stealWarning(12.9)?.startsWith("load: cpu_steal_percent 12.9 ≥ 3:")).toBe(true);
  });
});

describe("load report as text", () => {
  it("prints the paths, the ratios with their spread over rounds, and the DO state", async () => {
    const { formatReport } = await import("../../tools/load/format-report");
    const one = { requests: 3, errors: 0, p50_ms: 1, p99_ms: 1, added_p50_ms: null, added_p99_ms: null, cpu_ms_per_request: null };
    expect(formatReport({
      sessions: 1, calls_per_session: 1, round_count: 1, offered_rps: null, cpu_steal_percent: null, paths: { direct: one, off: one, on: one },
      ratios_on_vs_off: { p50_added_latency: null, p99_added_latency: null, cpu_per_request: null }, p50_added_latency_pooled: { ratio: null },
      p50_added_ratio_quartiles_over_rounds: [null, null, null], rounds: [], do_state: { calls_counted_vs_sent: "0/1 sessions exact", consistent: false, compaction_off_do_files: 1 },
    }).split("\n")[0]).toBe("load: 1 session × 1 call, 1 round, offered —, CPU steal —");
    const path = (p50: number, added: number | null, cpu: number | null) => ({ requests: 144, errors: 0, p50_ms: p50, p99_ms: p50 * 2, added_p50_ms: added, added_p99_ms: added === null ? null : added * 3, cpu_ms_per_request: cpu });
    const text = formatReport({
      sessions: 6, calls_per_session: 12, round_count: 2, offered_rps: 24, cpu_steal_percent: 0.4,
      paths: { direct: path(12, null, null), off: path(22, 10, 12.1), on: path(25, 12.5, 18.3) },
      ratios_on_vs_off: { p50_added_latency: 1.25, p99_added_latency: 1.1, cpu_per_request: 1.51 },
      p50_added_latency_pooled: { ratio: 1.231 },
      p50_added_ratio_quartiles_over_rounds: [1.2, 1.2, 1.3],
      rounds: [{ p50_added_ratio: 1.2 }, { p50_added_ratio: null }],
      p50_added_by_call_position: {
        first: { off_added_p50_ms: 13.1, on_added_p50_ms: 39, ratio: 2.977 },
        second: { off_added_p50_ms: 10.74, on_added_p50_ms: 17.77, ratio: 1.655 },
        later: { off_added_p50_ms: null, on_added_p50_ms: null, ratio: null },
      },
      do_state: { calls_counted_vs_sent: "12/12 sessions exact", consistent: true, compaction_off_do_files: 0 },
    });
    expect(text.split("\n")).toEqual([
      "load: 6 sessions × 12 calls, 2 rounds, offered 24 calls/s, CPU steal 0.4 %",
      "path              reqs errors      p50      p99  added p50  added p99  CPU/req",
      "direct             144      0       12       24          —          —        —",
      "compaction off     144      0       22       44         10         30     12.1",
      "compaction on      144      0       25       50       12.5       37.5     18.3",
      "on/off p50 added latency: 1.25× (median of rounds; target ≤ 1.3×), pooled over all calls 1.231×, rounds' quartiles 1.2 / 1.2 / 1.3",
      "per round: 1.2 —",
      "p50 added by call in session (pooled), off → on: first 13.1 → 39 ms (2.977×), second 10.74 → 17.77 ms (1.655×), later — → — ms (—)",
      "on/off p99 added latency 1.1×, CPU per request 1.51×",
      "DO state: 12/12 sessions exact; compaction-off DO files 0",
    ]);
    const withCpu = formatReport({
      sessions: 1, calls_per_session: 1, round_count: 1, offered_rps: null, cpu_steal_percent: null, paths: { direct: one, off: one, on: one },
      ratios_on_vs_off: { p50_added_latency: null, p99_added_latency: null, cpu_per_request: null }, p50_added_latency_pooled: { ratio: null },
      p50_added_ratio_quartiles_over_rounds: [null, null, null], rounds: [], do_state: { calls_counted_vs_sent: "1/1 sessions exact", consistent: true, compaction_off_do_files: 0 },
      cpu_ms_per_request_by_process: { off: { node: 1.8, esbuild: 0.8, "workerd user main": 8.4, "workerd proxy": 6.1 }, on: { node: 1.7, "workerd user main": 15.2, "workerd user V8 helpers": 3.1, "workerd proxy": 6 } },
    }).split("\n");
    expect(withCpu.at(-2)).toBe("CPU ms/request, off → on: esbuild 0.8 → —, node 1.8 → 1.7, workerd proxy 6.1 → 6, workerd user V8 helpers — → 3.1, workerd user main 8.4 → 15.2");
    // No figures (no /proc): no CPU line, the 9 lines of the report alone.
    expect(formatReport({ sessions: 1, calls_per_session: 1, round_count: 1, offered_rps: null, cpu_steal_percent: null, paths: { direct: one, off: one, on: one }, ratios_on_vs_off: { p50_added_latency: null, p99_added_latency: null, cpu_per_request: null }, p50_added_latency_pooled: { ratio: null }, p50_added_ratio_quartiles_over_rounds: [null, null, null], rounds: [], do_state: { calls_counted_vs_sent: "1/1 sessions exact", consistent: true, compaction_off_do_files: 0 }, cpu_ms_per_request_by_process: { off: {}, on: {} } }).split("\n")).toHaveLength(9);
  });
});

describe("workerd CPU keys", () => {
  it("the user workerd (started with --inspector-addr) splits its own threads from V8's helpers; the proxy is one key", async () => {
    const { workerdKey } = await import("../../tools/load/process-cpu");
    const user = ["workerd", "serve", "--binary", "--socket-addr=entry=127.0.0.1:0", "-", "--inspector-addr=127.0.0.1:0"].join("\0");
    const proxy = ["workerd", "serve", "--binary", "--socket-addr=entry=127.0.0.1:39029", "-"].join("\0");
    expect([workerdKey(user, "workerd"), workerdKey(user, "V8 DefaultWorke"), workerdKey(proxy, "workerd"), workerdKey(proxy, "V8 DefaultWorke")]).toEqual(["workerd user main", "workerd user V8 helpers", "workerd proxy", "workerd proxy"]);
  });
});
