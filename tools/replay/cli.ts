/**
 * `npm run replay` — the thin shell (I/O): reads session files, starts or reaches the provider
 * emulator, replays every session under every strategy with a progress bar, writes
 * report.json + report.html to --out and prints the table. All logic lives in the modules it
 * calls; see parse-args.ts for the flags.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import cliProgress from "cli-progress";
import { driveReplay } from "./drive-replay";
import { parseArgs, USAGE } from "./parse-args";
import { readSessionText } from "./read-session-text";
import { renderHtml } from "./render-html";
import { renderTable } from "./render-table";
import { createHttpSender } from "./send-http";
import { defaultStrategyNames, resolveStrategies } from "./strategies/registry";
import { loadSluiceTransform } from "./strategies/sluice-slot";
import { summarizeReport } from "./summarize-report";

/** Files named on the command line; directories are searched recursively for *.json / *.jsonl. */
function expandFiles(paths: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    if (!existsSync(p)) throw new Error(`${p}: no such file or directory`);
    if (statSync(p).isDirectory()) {
      for (const name of readdirSync(p).sort()) {
        const child = join(p, name);
        if (statSync(child).isDirectory() || /\.jsonl?$/.test(name)) walk(child);
      }
    } else out.push(p);
  };
  paths.forEach(walk);
  return out;
}

interface EmulatorHandle {
  url: string;
  close: () => unknown;
}

/** Starts tools/emulator/server.ts in-process (it lands with the emulator issue). */
async function startInProcessEmulator(): Promise<EmulatorHandle> {
  const href = new URL("../emulator/server.ts", import.meta.url).href;
  if (!existsSync(fileURLToPath(href))) {
    throw new Error("no --emulator URL given and tools/emulator/server.ts is not there: start an emulator and pass --emulator http://127.0.0.1:PORT");
  }
  const mod = (await import(href)) as { startEmulator?: (o: { port: number; host: string }) => Promise<EmulatorHandle> | EmulatorHandle };
  if (typeof mod.startEmulator !== "function") throw new Error("tools/emulator/server.ts does not export startEmulator({port, host}) → {url, close}");
  return await mod.startEmulator({ port: 0, host: "127.0.0.1" });
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.help || args.files.length === 0) {
    console.log(USAGE);
    process.exitCode = args.help ? 0 : 2;
    return;
  }
  const files = expandFiles(args.files);
  const sessions = files.map((f) => readSessionText(readFileSync(f, "utf8"), f));
  for (const s of sessions) for (const n of s.notes) console.error(`${s.id}: ${n}`);
  const sluice = await loadSluiceTransform();
  const strategies = resolveStrategies(args.strategies ?? defaultStrategyNames(sluice !== null), sluice);
  const emulator = args.emulator !== null ? { url: args.emulator, close: () => undefined } : await startInProcessEmulator();
  const total = sessions.reduce((n, s) => n + s.calls.length, 0) * strategies.length;
  const bar = process.stderr.isTTY ? new cliProgress.SingleBar({ format: "replay [{bar}] {percentage}% | {value}/{total} calls | {duration_formatted}", stream: process.stderr }, cliProgress.Presets.shades_classic) : null;
  bar?.start(total, 0);
  try {
    const runs = await driveReplay({
      sessions,
      strategies,
      send: createHttpSender(emulator.url),
      run_id: Date.now().toString(36),
      concurrency: args.concurrency,
      onCall: (done) => bar?.update(done),
    });
    bar?.stop();
    const report = summarizeReport(runs);
    const out = resolve(args.out);
    mkdirSync(out, { recursive: true });
    const meta = {
      generated_at: new Date().toISOString(),
      emulator: emulator.url,
      files,
      strategy_sources: Object.fromEntries(strategies.map((s) => [s.name, s.source])),
      session_notes: Object.fromEntries(sessions.map((s) => [s.id, s.notes])),
    };
    writeFileSync(join(out, "report.json"), JSON.stringify({ meta, ...report, runs }, null, 2));
    writeFileSync(join(out, "report.html"), renderHtml(report));
    console.log(renderTable(report));
    console.log(`\nwrote ${join(out, "report.json")} and ${join(out, "report.html")}`);
  } finally {
    bar?.stop();
    await emulator.close();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exitCode = 1;
});
