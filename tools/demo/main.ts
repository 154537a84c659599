/**
 * `npm run demo` — the thin shell (I/O): starts the provider emulator and the gateway
 * (`wrangler dev`, compaction on), replays the bundled sample sessions end to end over HTTP
 * under every strategy (./run-demo.ts), prints the report table, then replays them once more
 * with Sluice in-process (the same session code, on the sessions' recorded clock) and prints a
 * summary of both, and writes ./reports/report.json and ./reports/report.html (the end-to-end
 * run) and ./reports/in-process/.
 *
 * Why both: under `wrangler dev` the session object runs on the wall clock, so a session recorded
 * over hours replays in seconds, no prompt cache ever lapses and no idle step fires, and Sluice's
 * cold-cache steps (most of what it takes once the agent's working set is kept) never happen.
 * The in-process run keeps the recorded times: it is the figure to decide by; the end-to-end run
 * shows the gateway forwarding every call through the real Worker.
 */
import { renderTable } from "../replay/render-table";
import { runDemo } from "./run-demo";
import { createProgressBar } from "../replay/progress-bar";
import { dollars, ms, pct, ratioPct } from "../replay/report-format";
import type { StrategyMetrics } from "../replay/summarize-report";

async function main(): Promise<void> {
  const t0 = Date.now();
  const bar = createProgressBar("demo");
  try {
    const { outcome, paths } = await runDemo({
      onStatus: (m) => console.error(m),
      onCall: bar.onCall,
    });
    bar.stop();
    const { report } = outcome;
    console.log(renderTable(report));
    const s = report.total.sluice;
    const none = report.total.none;
    console.error("replaying in-process on the recorded clock …");
    const inProcess = await runDemo({ sluice: "in-process", strategies: ["none", "sluice"], out: "reports/in-process", onStatus: (m) => console.error(m) });
    const ip = inProcess.outcome.report.total;
    if (ip.sluice && ip.none) console.log(`\n${summary("Sluice on the recorded clock (in-process, the deployed session code)", ip.none, ip.sluice)}`);
    if (s && none) {
      console.log(`${summary("Sluice end to end through wrangler dev (wall clock: no cache lapses, no idle steps)", none, s)}`);
      console.log(`Gateway round trip p50/p99 ${ms(s.round_trip_p50_ms)}/${ms(s.round_trip_p99_ms)} ms; added end to end (vs direct) p50/p99 ${ms(s.added_latency_p50_ms)}/${ms(s.added_latency_p99_ms)} ms.`);
    }
    console.log(`\nwrote ${paths.json} and ${paths.html} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  } finally {
    bar.stop();
  }
}

/** One summary line: input cost without and with Sluice, used after removal, cache hit, pairs removed, re-fetches, rejections. */
function summary(label: string, none: StrategyMetrics, s: StrategyMetrics): string {
  return `${label}: input cost ${dollars(none.input_cost_without_usd)} → ${dollars(s.input_cost_with_usd)} (${pct(s.savings_pct)} saved, net of cache writes), ` +
    `used after removal ${s.used_after_removal_calls} calls (${pct(s.used_after_removal_pct)}), ` +
    `cache hit ${ratioPct(s.cache_hit_ratio)} (none ${ratioPct(none.cache_hit_ratio)}), ${s.pairs_removed} pairs removed, ${s.refetches} re-fetched, ${s.rejections} rejected.`;
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exitCode = 1;
});
