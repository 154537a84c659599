/**
 * The demo's core path (I/O): reads the bundled sample sessions (samples/*.json, attribution in
 * samples/NOTICE), replays them under every strategy — Sluice end to end through `wrangler dev`
 * by default, or in-process — against the provider emulator (tools/replay/run-replay.ts), and
 * writes report.json + report.html to the output folder. `npm run demo` (./main.ts) prints the
 * table; the test runs this on one small sample.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readSessionText } from "../replay/read-session-text";
import { runReplay, type ReplayOutcome, type SluiceMode } from "../replay/run-replay";
import { writeReport } from "../replay/write-report";

/** The bundled samples folder. */
export const SAMPLES_DIR = resolve(fileURLToPath(new URL("../../samples/", import.meta.url).href));

/** Sample files in name order (every *.json of samples/). */
export function sampleFiles(dir: string = SAMPLES_DIR): string[] {
  return readdirSync(dir).filter((n) => n.endsWith(".json")).sort().map((n) => join(dir, n));
}

export interface DemoOptions {
  /** Session files (default: every bundled sample). */
  files?: string[];
  /** How Sluice runs (default "http": the gateway under wrangler dev). */
  sluice?: Exclude<SluiceMode, "off">;
  /** Strategies to run (default null: every strategy). */
  strategies?: string[] | null;
  /** Output folder (default ./reports). */
  out?: string;
  /** Folder to write every forwarded body to (tools/replay/save-forwarded.ts), or absent. */
  saveForwarded?: string;
  onCall?: (done: number, total: number) => void;
  onStatus?: (message: string) => void;
}

/** Runs the demo replay and writes its files. Runs are sequential (concurrency 1) so latency figures are not inflated by contention. */
export async function runDemo(opts: DemoOptions = {}): Promise<{ outcome: ReplayOutcome; paths: { json: string; html: string } }> {
  const files = opts.files ?? sampleFiles();
  const sessions = files.map((f) => readSessionText(readFileSync(f, "utf8"), f));
  const outcome = await runReplay({
    sessions,
    strategies: opts.strategies ?? null,
    sluice: opts.sluice ?? "http",
    emulator: null,
    gateway: null,
    concurrency: 1,
    saveForwarded: opts.saveForwarded ?? null,
    onCall: opts.onCall,
    onStatus: opts.onStatus,
  });
  const paths = writeReport(opts.out ?? "reports", outcome, { files, samples_notice: "samples/NOTICE" });
  return { outcome, paths };
}
