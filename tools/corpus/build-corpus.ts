/**
 * `npm run corpus:build [-- --mirror DIR] [--out DIR]`: rebuilds the evaluation corpus from its
 * sources (I/O shell around ./convert-source.ts and ./manifest.ts). Reads tools/corpus/sources.json,
 * takes each file at its commit from a local copy of its repository (./git-source.ts; default
 * root /work/.mirror, or $CORPUS_MIRROR), converts and scrubs it, writes
 * `<out>/<split>/<id>.json` (default out: corpus/eval), removes session files no longer listed,
 * and writes `<out>/MANIFEST.md`. Exits 1 naming the source on the first failure.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildSession, type BuiltSession } from "./convert-source";
import { readSourceFile } from "./git-source";
import { renderManifest } from "./manifest";
import { loadSources } from "./sources";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  if (i < 0) return fallback;
  const v = process.argv[i + 1];
  if (v === undefined || v.startsWith("--")) throw new Error(`${name} needs a value`);
  return v;
}

function main(): void {
  const mirror = arg("--mirror", process.env.CORPUS_MIRROR ?? "/work/.mirror");
  const out = arg("--out", "corpus/eval");
  const built: BuiltSession[] = [];
  for (const entry of loadSources()) {
    const text = readSourceFile(mirror, entry.repo, entry.commit, entry.path);
    built.push(buildSession(entry, text));
    process.stderr.write(`${entry.id}: ${Buffer.byteLength(built[built.length - 1]!.bytes)} bytes\n`);
  }
  for (const split of ["dev", "test"] as const) {
    const dir = join(out, split);
    mkdirSync(dir, { recursive: true });
    const keep = new Set(built.filter((b) => b.entry.split === split).map((b) => `${b.entry.id}.json`));
    for (const name of readdirSync(dir)) if (name.endsWith(".json") && !keep.has(name)) rmSync(join(dir, name));
    for (const b of built.filter((x) => x.entry.split === split)) writeFileSync(join(dir, `${b.entry.id}.json`), b.bytes);
  }
  writeFileSync(join(out, "MANIFEST.md"), renderManifest(built));
  process.stderr.write(`${built.length} sessions written to ${out}\n`);
}

try {
  main();
} catch (e) {
  process.stderr.write(`corpus:build: ${(e as Error).message}\n`);
  process.exit(1);
}
