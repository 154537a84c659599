/**
 * The scripted agent session both clients are driven through (pure data): 40 tool steps over a
 * small project, then a final answer. Reads every file, prints a long log three times, re-reads files
 * (Claude Code answers an unchanged re-read with its "file unchanged" reference reply), greps,
 * edits four files and reads them again (full new copies: the only legitimate superseding),
 * so a compacting gateway has stale results to remove and references it must keep.
 */

/** One agent action, provider-neutral; each client script maps it to that client's tools. */
export type PlanAction =
  | { kind: "read"; file: string }
  | { kind: "bash"; command: string }
  | { kind: "grep"; pattern: string }
  | { kind: "edit"; file: string; old_text: string; new_text: string }
  | { kind: "final"; text: string };

/** Files of the fixture project (relative paths), in the order the session first reads them. */
export const PLAN_FILES: readonly string[] = Array.from({ length: 12 }, (_, i) => `src/module_${String(i + 1).padStart(2, "0")}.ts`);

/** The marker line each fixture file carries once, which the session's edits rename. */
export function markerLine(file: string, version: number): string {
  return `export const MARKER_${file.replace(/\W/g, "_")} = "v${version}";`;
}

const reads = (files: readonly string[]): PlanAction[] => files.map((file) => ({ kind: "read", file }));

/**
 * The session: 40 tool actions then the final answer. Step k (0-based) of the model's replies is
 * `SESSION_PLAN[k]`; a request whose last tool result answers step k gets step k + 1.
 */
export const SESSION_PLAN: readonly PlanAction[] = [
  ...reads(PLAN_FILES),                                                        // 0–11: first reads
  { kind: "bash", command: "cat logs/build.log" },                             // 12: a long log
  { kind: "grep", pattern: "TODO" },                                           // 13
  ...reads(PLAN_FILES.slice(0, 6)),                                            // 14–19: unchanged re-reads
  { kind: "bash", command: "cat logs/build.log" },                             // 20: the same log again
  { kind: "grep", pattern: "export function" },                                // 21
  ...PLAN_FILES.slice(0, 4).map((file): PlanAction => ({ kind: "edit", file, old_text: markerLine(file, 1), new_text: markerLine(file, 2) })), // 22–25
  ...reads(PLAN_FILES.slice(0, 4)),                                            // 26–29: full new copies after the edits
  ...reads(PLAN_FILES.slice(6, 10)),                                           // 30–33: unchanged re-reads
  { kind: "bash", command: "wc -l src/*.ts logs/build.log" },                  // 34
  { kind: "grep", pattern: "MARKER_" },                                        // 35
  { kind: "bash", command: "cat logs/build.log" },                             // 36: the log a third time
  ...reads(PLAN_FILES.slice(10, 12)),                                          // 37–38: unchanged re-reads
  { kind: "grep", pattern: "v2" },                                             // 39
  { kind: "final", text: "Done: read 12 modules, renamed four markers to v2 and checked the build log." },
];

/** Tool steps in the plan (every action but the final answer). */
export const PLAN_TOOL_STEPS = SESSION_PLAN.length - 1;
