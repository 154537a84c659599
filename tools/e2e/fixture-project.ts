/**
 * Writes the fixture project the scripted session works on (I/O): twelve TypeScript modules of
 * ≈ 4 KB, each with one marker line the session edits, and an ≈ 18 KB build log. Content is
 * deterministic (same bytes every run), so runs with and without Sluice bill comparable prompts.
 */
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { markerLine, PLAN_FILES } from "./session-plan";

/** Functions of generated code per module (≈ 4 KB each). */
const MODULE_FUNCTIONS = 40;
/** Lines of the build log (≈ 18 KB). */
const LOG_LINES = 300;

/** mtime given to every fixture file, epoch seconds (2026-01-01T00:00:00Z). */
const FILE_TIME_S = 1_767_225_600;

function moduleText(file: string, index: number): string {
  const lines = [`// ${file}: generated fixture for the real-client conformance run`, markerLine(file, 1), ""];
  for (let f = 0; f < MODULE_FUNCTIONS; f++) {
    const todo = f % 9 === 0 ? " // TODO: handle the empty case" : "";
    lines.push(`export function step_${index}_${f}(input: number): number {${todo}`, `  return input * ${f + 1} + ${index};`, "}");
  }
  return lines.join("\n") + "\n";
}

function logText(): string {
  const lines: string[] = [];
  for (let i = 0; i < LOG_LINES; i++) lines.push(`[build ${String(i).padStart(4, "0")}] compiled src/module_${String((i % 12) + 1).padStart(2, "0")}.ts in ${(i * 7) % 97} ms (cache miss)`);
  return lines.join("\n") + "\n";
}

/** Writes the project into `dir` (created) and returns `dir`. */
export function writeFixtureProject(dir: string): string {
  const files: [string, string][] = [...PLAN_FILES.map((f, i): [string, string] => [f, moduleText(f, i + 1)]), ["logs/build.log", logText()], ["README.md", "# fixture\n"]];
  for (const [rel, text] of files) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
    // Files of a real project are older than the session; a client may compare a file's mtime
    // with the time it read it to tell an unchanged file.
    utimesSync(join(dir, rel), FILE_TIME_S, FILE_TIME_S);
  }
  return dir;
}
