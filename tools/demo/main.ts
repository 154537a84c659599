/**
 * `npm run demo` — the thin shell (I/O): starts the provider emulator and the gateway
 * (`wrangler dev`, compaction on), replays the bundled sample sessions end to end over HTTP
 * under every strategy (./run-demo.ts), prints the report table and a two-line summary, and
 * writes ./reports/report.json and ./reports/report.html.
 */
import { renderTable } from "../replay/render-table";
import { runDemo } from "./run-demo";
import { createProgressBar } from "../replay/progress-bar";
import { dollars, ms, pct, ratioPct } from "../replay/report-format";

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
    if (s && none) {
      console.log(
        `\nSluice: input cost ${dollars(none.input_cost_without_usd)} → ${dollars(s.input_cost_with_usd)} (${pct(s.savings_pct)} saved, net of cache writes), ` +
          `used after removal ${s.used_after_removal_calls} calls (${pct(s.used_after_removal_pct)}), ` +
          `cache hit ${ratioPct(s.cache_hit_ratio)} (none ${ratioPct(none.cache_hit_ratio)}), ${s.pairs_removed} pairs removed, ${s.refetches} re-fetched, ${s.rejections} rejected.`,
      );
      console.log(`Gateway round trip p50/p99 ${ms(s.round_trip_p50_ms)}/${ms(s.round_trip_p99_ms)} ms; added end to end (vs direct) p50/p99 ${ms(s.added_latency_p50_ms)}/${ms(s.added_latency_p99_ms)} ms.`);
    }
    console.log(`\nwrote ${paths.json} and ${paths.html} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  } finally {
    bar.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exitCode = 1;
});
