/**
 * `npm run docs:figures [-- --check] [--only NAME,…]`: measures every figure the docs mark
 * (./measure.ts), prints each, and writes it between its markers in the docs (./markers.ts).
 * `--check` writes nothing and exits 1 when a doc states another value than the one measured
 * (or names a figure this tool does not know). Figures: bundle, emulator-corpus.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { docFiles } from "./doc-files";
import { findFigures, replaceFigures } from "./markers";
import { FIGURES, measure, type FigureName } from "./measure";

const ROOT = fileURLToPath(new URL("../../", import.meta.url).href);

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { check: { type: "boolean", default: false }, only: { type: "string" } } });
  const known = Object.keys(FIGURES) as FigureName[];
  const only = values.only ? values.only.split(",").map((s) => s.trim()) : known;
  const unknown = only.filter((n) => !known.includes(n as FigureName));
  if (unknown.length > 0) throw new Error(`unknown figure ${unknown.join(", ")} (known: ${known.join(", ")})`);
  const files = docFiles(ROOT);
  const named = new Set(files.flatMap((f) => findFigures(readFileSync(f, "utf8")).map((m) => m.name)));
  const stray = [...named].filter((n) => !known.includes(n as FigureName));
  if (stray.length > 0) throw new Error(`the docs mark figures no command measures: ${stray.join(", ")}`);
  const measured: Record<string, string> = {};
  for (const name of only as FigureName[]) {
    console.error(`measuring ${name}: ${FIGURES[name]}`);
    measured[name] = await measure(name, ROOT);
    console.log(`${name}: ${measured[name]}`);
  }
  let stale = 0;
  for (const f of files) {
    const before = readFileSync(f, "utf8");
    const { text, changed } = replaceFigures(before, measured);
    if (changed.length === 0) continue;
    stale += changed.length;
    const where = relative(ROOT, f);
    if (values.check) console.error(`${where}: ${changed.join(", ")} differ from the measured value`);
    else {
      writeFileSync(f, text);
      console.log(`updated ${where}: ${changed.join(", ")}`);
    }
  }
  if (values.check && stale > 0) process.exitCode = 1;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exitCode = 1;
  });
}
