/**
 * TEST FIXTURE: a hand-built closed stretch in the style of a Claude Code session (Read, a failing
 * type check, the Edit that fixes it, the passing re-run, and an assistant decision record).
 */
import type { SummaryTurn } from "../../src/core/summary/types";

export const HAND_STRETCH: SummaryTurn[] = [
  { role: "user", parts: [{ type: "text", text: "Fix the build, please." }] },
  { role: "assistant", parts: [
    { type: "text", text: "Reading the config first." },
    { type: "tool_call", id: "toolu_01", name: "Read", input: "{\"file_path\":\"/repo/src/config.ts\"}" },
  ] },
  { role: "user", parts: [{ type: "tool_result", id: "toolu_01", text: "export const x = 1;\n", is_error: false }] },
  { role: "assistant", parts: [{ type: "tool_call", id: "toolu_02", name: "Bash", input: "{\"command\":\"npx tsc --noEmit\"}" }] },
  { role: "user", parts: [{ type: "tool_result", id: "toolu_02", text: "Exit code 2\nsrc/main.ts(3,13): error TS2304: Cannot find name 'y'.\n", is_error: true }] },
  { role: "assistant", parts: [
    { type: "text", text: "**Decision:** import `y` from config instead of redefining it.\nRationale: one source of truth.\n- Evidence: src/main.ts(3,13) error TS2304\nDone thinking." },
    { type: "tool_call", id: "toolu_03", name: "Edit", input: "{\"file_path\":\"/repo/src/main.ts\",\"old_string\":\"y\",\"new_string\":\"x\"}" },
  ] },
  { role: "user", parts: [{ type: "tool_result", id: "toolu_03", text: "The file /repo/src/main.ts has been updated.", is_error: false }] },
  { role: "assistant", parts: [{ type: "tool_call", id: "toolu_04", name: "Bash", input: "{\"command\":\"npx tsc --noEmit\"}" }] },
  { role: "user", parts: [{ type: "tool_result", id: "toolu_04", text: "", is_error: false }] },
];

/** The extractive summary of HAND_STRETCH, byte for byte. */
export const HAND_SUMMARY = [
  "Files touched:",
  "- /repo/src/config.ts (Read)",
  "- /repo/src/main.ts (Edit)",
  "Commands run:",
  "- `npx tsc --noEmit` → exit 2",
  "- `npx tsc --noEmit` → ok",
  "Errors:",
  "- `npx tsc --noEmit` (exit 2): src/main.ts(3,13): error TS2304: Cannot find name 'y'. — fixed: /repo/src/main.ts changed, then it succeeded",
  "Decisions:",
  "- **Decision:** import `y` from config instead of redefining it.",
  "- Rationale: one source of truth.",
  "- - Evidence: src/main.ts(3,13) error TS2304",
].join("\n");
