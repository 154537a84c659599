/**
 * The scripted model's Messages replies (pure): maps the request to the session plan's next
 * step and answers with that step's tool_use (or the final text), after a thinking block with a
 * signature when the request turns thinking on; a restore through Sluice's MCP tool comes first
 * when it is due (./script-restore.ts). Requests that are not the agent's main loop
 * (no `Read` tool: a side call such as a title or a check) get a one-line text answer.
 */
import { arr, prop, str, type Json, type JsonObject } from "../emulator/shared/json";
import { anthropicRestore } from "./script-restore";
import { SESSION_PLAN, type PlanAction } from "./session-plan";

/** Prefix of the tool_use ids the script mints: `toolu_e2e_<step>`; the step is read back from results. */
export const TOOL_ID_PREFIX = "toolu_e2e_";

/** What the scripted model knows about the run a request belongs to. */
export interface ScriptRun {
  /** Absolute path of the fixture project (Claude Code's tools want absolute paths). */
  projectDir: string;
  /** Short run label, part of every minted signature so no two runs share one. */
  label: string;
}

/** The step (index into SESSION_PLAN) the request asks for: one past the highest step answered by a tool_result. */
export function anthropicStep(body: Json): number {
  let last = -1;
  for (const m of arr(body, "messages") ?? []) {
    const content = prop(m, "content");
    if (!Array.isArray(content)) continue;
    for (const b of content) {
      const id = str(b, "tool_use_id");
      if (str(b, "type") === "tool_result" && id?.startsWith(TOOL_ID_PREFIX)) last = Math.max(last, Number(id.slice(TOOL_ID_PREFIX.length)));
    }
  }
  return last + 1;
}

function toolUse(action: PlanAction, step: number, dir: string): JsonObject | null {
  const id = `${TOOL_ID_PREFIX}${step}`;
  switch (action.kind) {
    case "read":
      return { type: "tool_use", id, name: "Read", input: { file_path: `${dir}/${action.file}` } };
    case "bash":
      return { type: "tool_use", id, name: "Bash", input: { command: action.command, description: "Inspect the project" } };
    case "grep":
      return { type: "tool_use", id, name: "Grep", input: { pattern: action.pattern, path: dir, output_mode: "content", "-n": true } };
    case "edit":
      // Claude Code echoes an Edit call with its schema default `replace_all: false` added; the
      // emulator compares the whole assistant message that carries a thinking block, so the
      // script sends the field itself (the real API checks only the thinking blocks).
      return { type: "tool_use", id, name: "Edit", input: { file_path: `${dir}/${action.file}`, old_string: action.old_text, new_string: action.new_text, replace_all: false } };
    case "final":
      return null;
    default: {
      const never: never = action;
      throw new Error(`unknown plan action ${JSON.stringify(never)}`);
    }
  }
}

/** True when the request turns extended or adaptive thinking on. */
function thinkingOn(body: Json): boolean {
  const t = str(prop(body, "thinking"), "type");
  return t === "enabled" || t === "adaptive";
}

/** Content blocks of the scripted answer to `body`. */
export function anthropicReply(body: Json, run: ScriptRun): Json[] {
  const tools = arr(body, "tools") ?? [];
  if (!tools.some((t) => str(t, "name") === "Read")) return [{ type: "text", text: "OK" }];
  const step = Math.min(anthropicStep(body), SESSION_PLAN.length - 1);
  const action = SESSION_PLAN[step]!;
  const blocks: Json[] = [];
  if (thinkingOn(body)) {
    const omitted = str(prop(body, "thinking"), "display") === "omitted";
    const signature = Buffer.from(`e2e-signature:${run.label}:${step}`).toString("base64");
    blocks.push({ type: "thinking", thinking: omitted ? "" : `Step ${step}: next is ${action.kind}.`, signature });
  }
  // Sluice's MCP tool offered and a marker in the history: restore it first (./script-restore.ts).
  const call = anthropicRestore(body) ?? toolUse(action, step, run.projectDir);
  blocks.push(call ?? { type: "text", text: action.kind === "final" ? action.text : "" });
  return blocks;
}

