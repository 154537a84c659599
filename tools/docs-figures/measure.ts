/**
 * The figures the docs state, each measured by running what it describes (Node shell, I/O):
 * - `bundle`: `wrangler deploy --dry-run` into a temp folder, then the raw and gzipped size of
 *   the files the deploy gate counts (tools/deploy/check-deploy.ts countsTowardBudget).
 * - `emulator-corpus`: every model call of corpus/seed sent unmodified to the in-process
 *   emulator by the replay's `none` strategy (tools/replay/run-replay.ts): calls, rejections,
 *   and what the SWE-agent session is billed against its recorded cost (MANIFEST.md).
 * Each returns the exact text that goes between the figure's markers (./markers.ts).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { countsTowardBudget } from "../deploy/check-deploy";
import { readSessionText } from "../replay/read-session-text";
import { runReplay } from "../replay/run-replay";
import { SEED_CORPUS_DIR } from "../shared/seed-corpus";

/** Names of the measured figures, with what measuring each one takes. */
export const FIGURES = {
  bundle: "wrangler deploy --dry-run (≈ 15 s)",
  "emulator-corpus": "the replay's none strategy over corpus/seed (1,294 calls through the in-process emulator, ≈ 1–2 min)",
} as const;
export type FigureName = keyof typeof FIGURES;

const kib = (n: number) => `${(n / 1024).toFixed(2)} KiB`;
const thousands = (n: number) => n.toLocaleString("en-US");

/** The dry-run bundle's size: "N KiB raw, M KiB gzipped". */
export function measureBundle(root: string): string {
  const out = mkdtempSync(join(tmpdir(), "sluice-figures-bundle-"));
  try {
    execFileSync(join(root, "node_modules/.bin/wrangler"), ["deploy", "--dry-run", "--outdir", out], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
    let raw = 0, gz = 0;
    for (const name of readdirSync(out, { recursive: true, encoding: "utf8" })) {
      const path = join(out, name);
      if (!statSync(path).isFile() || !countsTowardBudget(name)) continue;
      const bytes = readFileSync(path);
      raw += bytes.length;
      gz += gzipSync(bytes).length;
    }
    return `${kib(raw)} raw, ${kib(gz)} gzipped`;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The SWE-agent session's id and its recorded cost (corpus/seed/MANIFEST.md, model_stats.total_cost). */
const SWE_AGENT = { id: "sweagent-gpt4-pydicom-1458", recorded: "$1.26719" };

/** Every corpus call unmodified through the emulator: "(N calls; …): **R rejections**. The SWE-agent session … bills $X, …". */
export async function measureEmulatorCorpus(): Promise<string> {
  const files = readdirSync(SEED_CORPUS_DIR).filter((f) => f.endsWith(".json")).sort();
  const sessions = files.map((f) => readSessionText(readFileSync(join(SEED_CORPUS_DIR, f), "utf8"), f));
  const outcome = await runReplay({ sessions, strategies: ["none"], sluice: "off", emulator: null, gateway: null, concurrency: 4 });
  const calls = outcome.runs.flatMap((r) => r.calls);
  const rejected = calls.filter((c) => c.rejected !== null).length;
  const swe = outcome.runs.find((r) => r.session_id === SWE_AGENT.id);
  if (!swe) throw new Error(`${SWE_AGENT.id} is not in corpus/seed`);
  const billed = swe.calls.reduce((s, c) => s + c.cost_usd, 0);
  return `${thousands(calls.length)} calls; Anthropic sessions with stub tool definitions and automatic caching): **${rejected} rejections**. The SWE-agent session (${swe.model}, no caching) bills $${billed.toFixed(2)}, input and output; its recorded cost is ${SWE_AGENT.recorded}`;
}

/** Measures one figure. */
export async function measure(name: FigureName, root: string): Promise<string> {
  switch (name) {
    case "bundle":
      return measureBundle(root);
    case "emulator-corpus":
      return measureEmulatorCorpus();
    default: {
      const never: never = name;
      throw new Error(`unknown figure ${String(never)}`);
    }
  }
}
