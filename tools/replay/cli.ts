/**
 * `npm run replay` — the thin shell (I/O): reads session files, runs the replay (./run-replay.ts:
 * emulator, the sluice strategy in-process or through `wrangler dev`, every strategy) with a
 * progress bar, writes report.json + report.html to --out and prints the table. See
 * parse-args.ts for the flags.
 */
import { readFileSync } from "node:fs";
import { expandFiles } from "./expand-files";
import { parseArgs, USAGE } from "./parse-args";
import { readSessionText } from "./read-session-text";
import { renderTable } from "./render-table";
import { retargetAnthropic } from "./retarget-model";
import { runReplay } from "./run-replay";
import { writeReport } from "./write-report";
import { createProgressBar } from "./progress-bar";

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.help || args.files.length === 0) {
    console.log(USAGE);
    process.exitCode = args.help ? 0 : 2;
    return;
  }
  const files = expandFiles(args.files);
  const read = files.map((f) => readSessionText(readFileSync(f, "utf8"), f));
  const sessions = args.retarget_anthropic === null ? read : retargetAnthropic(read, args.retarget_anthropic);
  for (const s of sessions) for (const n of s.notes) console.error(`${s.id}: ${n}`);
  const bar = createProgressBar("replay");
  try {
    const outcome = await runReplay({
      sessions,
      strategies: args.strategies,
      sluice: args.sluice,
      emulator: args.emulator,
      gateway: args.gateway,
      concurrency: args.concurrency,
      saveForwarded: args.save_forwarded,
      // The in-process Sluice's config block, when the environment sets one (docs/replay.md).
      ...(process.env.COMPACTION_CONFIG ? { sluiceEnv: { COMPACTION_CONFIG: process.env.COMPACTION_CONFIG } } : {}),
      onStatus: (m) => console.error(m),
      onCall: bar.onCall,
    });
    bar.stop();
    const paths = writeReport(args.out, outcome, { files });
    console.log(renderTable(outcome.report, { byRule: args.by_rule }));
    console.log(`\nwrote ${paths.json} and ${paths.html}${args.save_forwarded !== null ? ` and the forwarded bodies under ${args.save_forwarded}` : ""}`);
  } finally {
    bar.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exitCode = 1;
});
