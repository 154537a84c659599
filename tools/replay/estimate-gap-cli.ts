/**
 * `npm run replay:estimate-gap -- <out>/report.json` — the thin shell (I/O): reads a replay's
 * report.json (a run with `none` and `sluice`) and prints ./estimate-gap.ts's table.
 */
import { readFileSync } from "node:fs";
import { estimateGap, renderEstimateGap } from "./estimate-gap";
import type { SessionRun } from "./types";

const file = process.argv[2];
if (file === undefined) {
  console.error("usage: npm run replay:estimate-gap -- <replay out dir>/report.json");
  process.exitCode = 2;
} else {
  try {
    const json = JSON.parse(readFileSync(file, "utf8")) as { runs?: SessionRun[] };
    if (!Array.isArray(json.runs)) throw new Error(`${file}: no "runs" array (not a replay report.json)`);
    console.log(renderEstimateGap(estimateGap(json.runs)));
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exitCode = 1;
  }
}
