/**
 * The replay report explains itself: a headline per strategy (saved net of cache writes, sessions,
 * calls, used after removal), a legend line for every strategy and column (terminal and HTML), a
 * reason beside every 0.0% saving (Sluice's own decisions from its x-sluice-compaction note), a
 * terminal within 120 characters, the model and prices per session, one number format, the
 * operator table with "not measured" where the replay measures nothing, latency in process and
 * end to end apart, every chart line visible with each session labelled, and --save-forwarded's
 * files holding the exact bytes each strategy sent.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { driveReplay } from "../../tools/replay/drive-replay";
import { OPERATOR_ROWS } from "../../tools/replay/operator-table";
import { parseArgs } from "../../tools/replay/parse-args";
import { zeroReason, STRATEGY_LEGEND } from "../../tools/replay/report-explain";
import { USED_AFTER_REMOVAL_MEANING, WHEN_GAP_MEANING } from "../../tools/replay/report-columns";
import { dollars, pct, ratioPct } from "../../tools/replay/report-format";
import { renderHtml } from "../../tools/replay/render-html";
import { renderTable, TERMINAL_WIDTH } from "../../tools/replay/render-table";
import { createForwardedWriter } from "../../tools/replay/save-forwarded";
import { noneStrategy } from "../../tools/replay/strategies/none";
import { createObservationMask } from "../../tools/replay/strategies/observation-mask";
import { STRATEGY_NAMES } from "../../tools/replay/strategies/registry";
import { createSluiceStrategy } from "../../tools/replay/strategies/sluice-slot";
import { summarizeReport } from "../../tools/replay/summarize-report";
import type { CallUsage, Strategy } from "../../tools/replay/types";
import { createFakeSender } from "../support/replay-fake-sender";
import { litSession } from "../support/replay-lit-session";

const session = litSession("lit-2", "alpha beta gamma delta");

const M = 1_000_000;
const usage = (input: number, cache_read: number, cache_write: number): CallUsage => ({ input, cache_read, cache_write, output: 10 });
/** none and sluice bill alike (Sluice forwards unchanged); the mask writes the cache again at call 2. */
const USAGE = [usage(M, 0, 0), usage(M / 10, M, 0), usage(M / 10, 1.1 * M, 0), usage(M / 10, 1.2 * M, 0)];
const MASK = [usage(M, 0, 0), usage(M / 10, M, 0), usage(M / 20, 0, M), usage(M / 20, 0.9 * M, 0)];

/** Sluice's notes for the four calls, as the gateway writes them (src/gateway/decide-forward.ts, prepare-compaction.ts). */
const NOTES = [
  "compact; tier=none; step=none; pairs_removed=0; tokens_before=900; tokens_after=900",
  "compact; tier=micro; step=none; skipped=under_threshold; pairs_removed=0; tokens_before=950; tokens_after=950",
  "compact; tier=micro; step=none; skipped=no_candidates; pairs_removed=0; tokens_before=25000; tokens_after=25000",
  "skipped; reason=server_managed",
];

async function run(onForwarded?: Parameters<typeof driveReplay>[0]["onForwarded"]) {
  const sluice = createSluiceStrategy(async (bytes, _h, call) => ({ body: bytes, info: { engine_cost_usd: 0, note: NOTES[call.call_index]! } }));
  const { send, seen } = createFakeSender((key, n) => (key.includes("observation-mask") ? MASK : USAGE)[n]!);
  const runs = await driveReplay({
    sessions: [session],
    strategies: [noneStrategy as Strategy, createObservationMask({ keep: 1 }) as Strategy, sluice],
    send,
    run_id: "r",
    now: () => 0,
    ...(onForwarded ? { onForwarded } : {}),
  });
  return { report: summarizeReport(runs), seen };
}

describe("the report explains itself", () => {
  it("has a legend line for every strategy the replay knows", () => {
    expect(Object.keys(STRATEGY_LEGEND).sort()).toEqual([...STRATEGY_NAMES].sort());
  });

  it("counts Sluice's decisions per call and gives the reason beside a 0.0% saving", async () => {
    const { report } = await run();
    const s = report.total.sluice!;
    expect([s.savings_pct, s.decisions]).toEqual([0, { no_tier: 1, under_threshold: 1, no_candidates: 1, server_managed: 1 }]);
    expect(zeroReason("sluice", s)).toBe("no candidates ×1, no tier (first call) ×1, server-managed ×1, under threshold ×1");
    expect(zeroReason("none", report.total.none!)).toBe("baseline");
    expect(zeroReason("observation-mask", report.total["observation-mask"]!)).toBeNull(); // −62.0%
    const lines = renderTable(report).split("\n");
    // The lit-2 block: its title, one row per strategy, then the reason under the rows (the baseline's goes without saying).
    const block = lines.indexOf("lit-2 — anthropic, claude-sonnet-4-5-20250929, 4 calls");
    expect(lines.slice(block - 2, block + 6)).toEqual([
      "  strategy           saved  cost w/o $  cost with $  used after rm  vs none    hit  pairs rm  refetch  rejected",
      "-".repeat(111),
      "lit-2 — anthropic, claude-sonnet-4-5-20250929, 4 calls",
      "  none                0.0%        4.89         4.89       0 (0.0%)     0.0%  71.7%         0        0         0",
      "  observation-mask  -62.0%        4.89         7.92       0 (0.0%)   -10.9%  46.3%         2        1         0",
      "  sluice              0.0%        4.89         4.89       0 (0.0%)     0.0%  71.7%         0        0         0",
      "    why 0.0%, sluice: no candidates ×1, no tier (first call) ×1, server-managed ×1, under threshold ×1",
      "-".repeat(111),
    ]);
    // The page: every column, the in-process latency in its own columns, the end-to-end ones empty for a strategy run in process.
    expect(renderHtml(report)).toContain(
      'a request">sluice</th><td>4</td><td>0.0%</td><td>4.89</td><td>4.89</td><td>0 (0.0%)</td><td>4,600,000</td><td>0.0%</td><td>3,300,000</td><td>0</td><td>71.7%</td><td>—</td><td>—</td><td>0</td><td>0</td><td>0</td><td>0.00</td><td>0.00</td><td>—</td><td>—</td><td class="why">no candidates ×1, no tier (first call) ×1, server-managed ×1, under threshold ×1</td>',
    );
  });

  it("prints the legend of strategies and columns in the terminal, within 120 characters, and the rest on the page", async () => {
    const { report } = await run();
    const lines = renderTable(report).split("\n");
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(TERMINAL_WIDTH);
    for (const line of [
      "Strategies:",
      "  none: baseline: every recorded request sent as the agent sent it; every saving is measured against it",
      '  observation-mask: SWE-agent LastNObservations: keep the last 5 tool results, older ones → "Old environment output: (N',
      '    lines omitted)"',
      "Columns:",
      "  hit: cache hit ratio: cache read ÷ input tokens sent",
      "  why 0.0%: why the saving is 0.0%: for Sluice, its decisions per call from the x-sluice-compaction header (under",
      "    threshold, no candidates, server-managed, …)",
    ]) expect(lines).toContain(line);
    // The details the terminal leaves to the page.
    expect(lines.filter((l) => /when gap:|Model and prices|operator table \(all sessions\)/.test(l))).toEqual([]);
    const html = renderHtml(report);
    expect(html).toContain("<dt>sluice</dt><dd>Sluice, default config: the gateway's pipeline and session step remove stale tool results (superseded calls whole) when the cost model says a step pays, never breaking a request</dd>");
    expect(html).toContain("<dt>hit</dt><dd>cache hit ratio: cache read ÷ input tokens sent</dd>");
    expect(html).toContain(`<dt>when gap</dt><dd>${WHEN_GAP_MEANING}</dd>`);
    expect(html).toContain("<dt>refetch</dt><dd>removed pairs whose same tool call (name + input) the session issued again later</dd>");
    expect(html).toContain(`<dt>used after rm</dt><dd>${USED_AFTER_REMOVAL_MEANING}</dd>`);
    expect(html).toContain('<p class="prices">Model and prices billed (USD per million tokens): claude-sonnet-4-5-20250929 — input 3.00, cache read 0.30, cache write 3.75, output 15.00</p>');
  });

  it("opens with one headline per strategy: saved net of cache writes, sessions, calls, used after removal", async () => {
    const { report } = await run();
    const html = renderHtml(report);
    expect(html.slice(html.indexOf("<h1>"), html.indexOf("<h2>"))).toBe(
      "<h1>Sluice replay report</h1>\n<ul class=\"headline\"><li>none: baseline, input cost $4.89; 1 session, 4 calls</li><li>observation-mask: saved -62.0% (-$3.03 of $4.89, net of cache writes); 1 session, 4 calls; used after removal: 0 calls (0.0%)</li><li>sluice: saved 0.0% ($0.00 of $4.89, net of cache writes); 1 session, 4 calls; used after removal: 0 calls (0.0%)</li></ul>\n",
    );
    expect(renderTable(report).split("\n").slice(0, 5)).toEqual([
      "All sessions:",
      "  none: baseline, input cost $4.89; 1 session, 4 calls",
      "  observation-mask: saved -62.0% (-$3.03 of $4.89, net of cache writes); 1 session, 4 calls; used after removal: 0 calls",
      "    (0.0%)",
      "  sluice: saved 0.0% ($0.00 of $4.89, net of cache writes); 1 session, 4 calls; used after removal: 0 calls (0.0%)",
    ]);
  });

  it("writes every number in one format: percentages with one decimal, the hit ratio too", async () => {
    expect([pct(90.349), pct(-0.04), pct(12.34, true), ratioPct(0.9034), dollars(-3.031), dollars(4.891)]).toEqual(["90.3%", "0.0%", "+12.3%", "90.3%", "-$3.03", "$4.89"]);
    const html = renderHtml((await run()).report);
    // Hit ratios of none (3.3M of 4.6M) and the mask (1.9M of 4.1M), never as 0.717 / 0.463.
    expect(html).toContain("<td>71.7%</td>");
    expect(html).toContain("<td>46.3%</td>");
    expect(html).not.toMatch(/<td>0\.\d{3}<\/td>/);
  });

  it("shows the operator table per strategy, saying what the replay does not measure", async () => {
    const { report } = await run();
    const html = renderHtml(report);
    const row = (label: string) => new RegExp(`<tr><th>${label.replace(/[()+÷−]/g, "\\$&")}</th>((?:<td>[^<]*</td>)+)</tr>`).exec(html)?.[1]?.match(/<td>([^<]*)<\/td>/g)?.map((c) => c.slice(4, -5));
    expect(row("saving (of modelled input cost)")).toEqual(["0.0%, $0.00 of $4.89", "-62.0%, -$3.03 of $4.89", "0.0%, $0.00 of $4.89"]);
    // Mask removed t1 ("alpha beta gamma delta": 4 estimated tokens) and t2 ("B": 1) → 5 × $3/M.
    expect(report.total["observation-mask"]!.worst_case_loss_usd).toBe(0.000015);
    expect(row("worst-case loss (every removed result re-sent once, estimated)")).toEqual(["$0.00", "$0.00", "$0.00"]);
    expect(row("ratio (saving ÷ (engine + loss))")).toEqual(["— (no saving)", "— (no saving)", "— (no saving)"]);
    // A strategy that saves: billed $5.50 (incl. $0.50 engine) of $10.00, $0.50 worst-case loss.
    const saver = { ...report.total.none!, input_cost_without_usd: 10, input_cost_with_usd: 6, engine_cost_usd: 0.5, worst_case_loss_usd: 0.5 };
    expect(OPERATOR_ROWS.slice(0, 5).map((r) => r.value(saver))).toEqual(["45.0%, $4.50 of $10.00", "$0.50", "$0.50", "$3.50", "4.5×"]);
    expect(row("requests that took a step")).toEqual(["not measured", "not measured", "0 of 4 (0.0%)"]);
    expect(row("removals re-fetched later (same tool + input)")).toEqual(["0 of 0 (0.0%)", "1 of 2 (50.0%)", "0 of 0 (0.0%)"]);
    // The lit session's answers hold no project-specific token ("done").
    expect(row("calls used after removal (the answer used a project-specific token the strategy had removed)")).toEqual(["0 of 4 (0.0%)", "0 of 4 (0.0%)", "0 of 4 (0.0%)"]);
    // Latency in process and end to end on their own rows: these strategies ran in process (the clock stood still: 0 ms).
    expect(row("added latency in process p50 / p99 (time in the transform)")).toEqual(["0.00 / 0.00 ms", "0.00 / 0.00 ms", "0.00 / 0.00 ms"]);
    expect(row("added latency end to end p50 / p99 (through the gateway, minus the direct round trip)")).toEqual(["—", "—", "—"]);
    // Deterministic tools come from Sluice's own session ledger: a transform without one does not measure it.
    expect(row("removals from deterministic tools (reads, greps, listings; Sluice's ledger)")).toEqual(["not measured", "not measured", "not measured"]);
    const ledger = { ...report.total.none!, ledger: { without_usd: 1, with_usd: 0.5, saving_pct: 50, removals: 4, removals_mentioned: 1, removals_deterministic: 3 } };
    expect(OPERATOR_ROWS.slice(-1).map((r) => r.value(ledger))).toEqual(["3 of 4 (75.0%)"]);
    // Summaries come from the rewrite level's in-process runs: written / failed and their cost.
    expect(row("summaries written / failed (their cost, inside the engine cost)")).toEqual(["not measured", "not measured", "not measured"]);
    const summarised = { ...report.total.none!, summaries: { written: 3, failed: 1, cost_usd: 0.0042 } };
    expect(OPERATOR_ROWS.find((r) => r.label.startsWith("summaries"))!.value(summarised)).toBe("3 / 1 ($0.0042)");
  });

  it("keeps every chart line visible: a line identical to later ones is a wider band beneath them, none last, dashed, with markers", async () => {
    // Sluice forwards unchanged here, so its line is none's: 2 + 3 px, beneath none's dashes.
    const html = renderHtml((await run()).report);
    expect(html.match(/<polyline data-strategy="[^"]+" fill="none" stroke="[^"]+" stroke-width="[\d.]+"/g)).toEqual([
      '<polyline data-strategy="observation-mask" fill="none" stroke="#d97706" stroke-width="2"',
      '<polyline data-strategy="sluice" fill="none" stroke="#2563eb" stroke-width="5"',
      '<polyline data-strategy="none" fill="none" stroke="#111111" stroke-width="1.5"',
    ]);
    expect(html).toMatch(/data-strategy="none"[^>]*stroke-dasharray="7 4"/);
    expect(html.match(/<circle /g)).toHaveLength(4);
    // The one session's id, written down from the top at its first call.
    expect(html.match(/<text class="session-label"[^>]*>[^<]*<\/text>/g)).toEqual(['<text class="session-label" x="67.0" y="16" transform="rotate(90 67.0 16)" font-size="10" fill="#666">lit-2</text>']);
  });
});

describe("--save-forwarded", () => {
  const dir = mkdtempSync(join(tmpdir(), "sluice-forwarded-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("parses the flag", () => {
    expect(parseArgs(["--save-forwarded", "bodies", "a.json"]).save_forwarded).toBe("bodies");
    expect(parseArgs(["a.json"]).save_forwarded).toBeNull();
    expect(() => parseArgs(["--save-forwarded"])).toThrow(/^--save-forwarded: missing value/);
  });

  it("writes one file per strategy, session and call with the exact bytes sent", async () => {
    const { seen } = await run(createForwardedWriter(dir));
    expect(readdirSync(dir).sort()).toEqual(["none", "observation-mask", "sluice"]);
    for (const s of ["none", "observation-mask", "sluice"]) expect(readdirSync(join(dir, s, "lit-2"))).toEqual(["0000.json", "0001.json", "0002.json", "0003.json"]);
    // The fake sender saw none's 4 calls, then the mask's, then Sluice's: the files hold the same bytes.
    expect(readFileSync(join(dir, "observation-mask", "lit-2", "0003.json"), "utf8")).toBe(seen[7]!.body);
    expect(readFileSync(join(dir, "none", "lit-2", "0000.json"), "utf8")).toBe(JSON.stringify(session.calls[0]!.body));
    expect(existsSync(join(dir, "sluice", "lit-2", "0000.headers.json"))).toBe(false);
  });
});
