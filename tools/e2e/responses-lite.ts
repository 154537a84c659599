/**
 * What the scripted model needs to answer Codex's default model (pure). Codex 0.171.0 sends
 * `gpt-6.2-sol` requests as "Responses Lite" (header `x-openai-internal-codex-responses-lite:
 * true`): no top-level `tools`; the first input item is `{type: "additional_tools", role:
 * "developer", tools: [namespace…]}`, and in "code mode" the only direct tool is the custom tool
 * `exec` (namespace `functions`), whose input is JavaScript that calls the classic tools through
 * the `tools` global (`await tools.exec_command({cmd, workdir})`, `await tools.apply_patch(patch)`).
 * Codex answers such a call with a `custom_tool_call_output` whose `output` is a list of
 * `input_text` parts ("Script completed…", then what the script passed to `text(…)`). All of this
 * was read off the wire (docs/dev/e2e-clients.md, "What the clients sent").
 *
 * Codex asks for compaction with the built-in provider by ending `input` with
 * `{type: "compaction_trigger"}`; the answer's `compaction` item (opaque `encrypted_content`)
 * replaces the history in later requests. The script's compaction items carry the last step the
 * history answered, so the plan continues after a compaction.
 */
import { arr, isObject, str, type Json, type JsonObject } from "../emulator/shared/json";
import type { PlanAction } from "./session-plan";

/** Name of Codex's code-mode tool (a custom tool in the `functions` namespace). */
export const CODE_MODE_TOOL = "exec";

/** Tools of a tool list, namespaces flattened. */
function flatTools(tools: readonly Json[]): Json[] {
  return tools.flatMap((t) => (str(t, "type") === "namespace" ? flatTools(arr(t, "tools") ?? []) : [t]));
}

/** True when the request is Codex's code-mode main loop: an `additional_tools` input item that offers the custom `exec` tool. */
export function isCodeMode(body: Json): boolean {
  return (arr(body, "input") ?? []).some((item) => str(item, "type") === "additional_tools" && flatTools(arr(item, "tools") ?? []).some((t) => str(t, "name") === CODE_MODE_TOOL && str(t, "type") === "custom"));
}

/** The apply_patch text that changes `old_text` to `new_text` in `file` (one hunk). */
export function patchText(file: string, oldText: string, newText: string): string {
  return ["*** Begin Patch", `*** Update File: ${file}`, "@@", `-${oldText}`, `+${newText}`, "*** End Patch", ""].join("\n");
}

/** The shell command a non-edit plan action runs. */
export function shellCommand(action: Exclude<PlanAction, { kind: "edit" | "final" }>): string {
  if (action.kind === "read") return `cat ${action.file}`;
  if (action.kind === "grep") return `grep -rn '${action.pattern}' src`;
  return action.command;
}

/** The JavaScript an `exec` call runs for a tool action (`dir`: the project folder, absolute). */
export function codeModeSource(action: Exclude<PlanAction, { kind: "final" }>, dir: string): string {
  if (action.kind === "edit") return `text(await tools.apply_patch(${JSON.stringify(patchText(action.file, action.old_text, action.new_text))}));`;
  return `const r = await tools.exec_command({ cmd: ${JSON.stringify(shellCommand(action))}, workdir: ${JSON.stringify(dir)} });\ntext(r.output);`;
}

/** Prefix of the script's compaction payloads (before base64): `e2e-compaction:<label>:<last answered step>`. */
export const COMPACTION_PAYLOAD = "e2e-compaction:";

/** The `compaction` item the script answers a trigger with: the run's label and the last step the history answered. */
export function compactionItem(label: string, lastStep: number): JsonObject {
  return { type: "compaction", encrypted_content: Buffer.from(`${COMPACTION_PAYLOAD}${label}:${lastStep}`).toString("base64") };
}

/** The highest step a script compaction item in `input` says was answered, or -1. */
export function compactedStep(input: readonly Json[]): number {
  let last = -1;
  for (const item of input) {
    if (!isObject(item) || str(item, "type") !== "compaction") continue;
    const payload = Buffer.from(str(item, "encrypted_content") ?? "", "base64").toString("utf8");
    const m = /:(\d+)$/.exec(payload);
    if (m && payload.startsWith(COMPACTION_PAYLOAD)) last = Math.max(last, Number(m[1]));
  }
  return last;
}

/** True when the last input item is Codex's `{type: "compaction_trigger"}`. */
export function endsWithTrigger(body: Json): boolean {
  const input = arr(body, "input") ?? [];
  return input.length > 0 && str(input[input.length - 1], "type") === "compaction_trigger";
}
