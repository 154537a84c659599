/**
 * The demo's core path (tools/demo/run-demo.ts) on the smallest bundled sample, Sluice
 * in-process: every strategy replays all 30 calls of tau-airline-gpt4o-task09 against a real
 * emulator with no rejection, and the report files are written. Exact figures: the emulator's
 * billing is deterministic (token counts of the recorded bodies, gpt-4o prices).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runDemo, SAMPLES_DIR, sampleFiles } from "../../tools/demo/run-demo";
import { zeroReason } from "../../tools/replay/report-explain";
import { renderTable } from "../../tools/replay/render-table";

const out = mkdtempSync(join(tmpdir(), "sluice-demo-test-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("npm run demo, core path", () => {
  it("bundles three samples with a NOTICE naming each source", () => {
    expect(sampleFiles().map((f) => f.slice(SAMPLES_DIR.length + 1))).toEqual(["cc-cctrace-opus4.json", "tau-airline-gpt4o-task02.json", "tau-airline-gpt4o-task09.json"]);
    const notice = readFileSync(join(SAMPLES_DIR, "NOTICE"), "utf8");
    for (const src of ["yigitkonur/cctrace-js", "d96e0b7b8b2fe2c4005cb60293720d88f29c2b06", "sierra-research/tau-bench", "7362a1708d720a4d697d042f21fd8637ea144c3b", "Copyright (c) 2024 Sierra"]) expect(notice).toContain(src);
  });

  it("replays one sample under every strategy with no rejection and writes the report", async () => {
    const forwarded = join(out, "forwarded");
    const { outcome, paths } = await runDemo({ files: [join(SAMPLES_DIR, "tau-airline-gpt4o-task09.json")], sluice: "in-process", out, saveForwarded: forwarded });
    const { report } = outcome;
    expect(report.strategies).toEqual(["none", "anthropic-clear", "observation-mask", "idle-microcompact", "sluice"]);
    const counts = Object.fromEntries(report.strategies.map((s) => {
      const m = report.total[s]!;
      return [s, [m.calls, m.rejections, m.pairs_removed, m.refetches, m.input_tokens_sent, m.input_cost_with_usd]];
    }));
    // [calls, rejections, pairs removed, re-fetches, input tokens sent, input cost USD]. No size gate
    // (threshold_tokens 0): the cost model takes one step on this 30-call session of small requests.
    const unchanged = [30, 0, 0, 0, 161_887, 0.215277];
    expect(counts).toEqual({ none: unchanged, "anthropic-clear": unchanged, "observation-mask": [30, 0, 17, 1, 112_469, 0.180692], "idle-microcompact": unchanged, sluice: [30, 0, 1, 0, 145_065, 0.196743] });
    // gpt-4o input $2.50/M, cached $1.25/M (docs/emulator.md prices): the cost is the billed usage.
    const none = report.total.none!;
    expect(none.cache_read_tokens).toBe(151_552);
    expect((none.input_tokens_sent - none.cache_read_tokens) * 2.5e-6 + none.cache_read_tokens * 1.25e-6).toBeCloseTo(none.input_cost_without_usd, 5); // per-call nano-dollar rounding
    expect([existsSync(paths.json), existsSync(paths.html)]).toEqual([true, true]);
    const json = JSON.parse(readFileSync(paths.json, "utf8")) as { meta: { sluice: string }; runs: unknown[] };
    expect([json.meta.sluice, json.runs.length]).toEqual(["in-process", 5]);
    // Sluice's decisions from its own x-sluice-compaction notes: the first call has no tier; five calls where
    // the step would not pay over R (1 + ⌊n/9⌋), one that waits to gather (warm cache), then one step.
    const sluice = report.total.sluice!;
    expect(sluice.decisions).toEqual({ no_tier: 1, no_candidates: 21, not_positive: 5, gathering: 1, step: 1, under_min_reduction: 1 });
    expect(zeroReason("sluice", sluice)).toBeNull();
    // Why a strategy saves 0.0% here, on the page and in the terminal.
    const why = zeroReason("anthropic-clear", report.total["anthropic-clear"]!)!;
    expect(why).toBe("nothing removed: its trigger was never reached");
    expect(readFileSync(paths.html, "utf8")).toContain(`<td class="why">${why}</td>`);
    expect(renderTable(report)).toContain(`    why 0.0%, anthropic-clear: ${why}`);
    // --save-forwarded: every call of every strategy, the unchanged ones byte-identical to none's.
    expect(readdirSync(forwarded).sort()).toEqual(["anthropic-clear", "idle-microcompact", "none", "observation-mask", "sluice"]);
    expect(readdirSync(join(forwarded, "sluice", "tau-airline-gpt4o-task09"))).toHaveLength(30);
    const body = (s: string) => readFileSync(join(forwarded, s, "tau-airline-gpt4o-task09", "0029.json"), "utf8");
    expect(body("sluice").length).toBeLessThan(body("none").length);
    expect(body("anthropic-clear")).toBe(body("none"));
    expect(body("observation-mask").length).toBeLessThan(body("none").length);
  });
});
