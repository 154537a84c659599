/**
 * Writes a replay's outputs (I/O): `<out>/report.json` (meta, the report, and every per-call
 * record) and `<out>/report.html` (tables + the cumulative-cost chart). Returns both paths.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { renderHtml } from "./render-html";
import type { ReplayOutcome } from "./run-replay";

/** Writes the files; `extraMeta` is merged into the JSON's `meta` (e.g. the session files). */
export function writeReport(outDir: string, outcome: ReplayOutcome, extraMeta: Record<string, unknown> = {}): { json: string; html: string } {
  const out = resolve(outDir);
  mkdirSync(out, { recursive: true });
  const json = join(out, "report.json");
  const html = join(out, "report.html");
  writeFileSync(json, JSON.stringify({ meta: { ...outcome.meta, ...extraMeta }, ...outcome.report, runs: outcome.runs }, null, 2));
  writeFileSync(html, renderHtml(outcome.report));
  return { json, html };
}
