/**
 * The scripted model's Responses replies for Codex (pure): the plan's next step as a reasoning
 * item (encrypted_content, as with `include: ["reasoning.encrypted_content"]` and `store: false`)
 * followed by an `exec_command` function_call, an `apply_patch` custom_tool_call for edits, or
 * the final message. Requests without Codex's `exec_command` tool get a one-line text answer.
 */
import { arr, str, type Json, type JsonObject } from "../emulator/shared/json";
import type { ScriptRun } from "./script-anthropic";
import { SESSION_PLAN, type PlanAction } from "./session-plan";

/** Prefix of the call ids the script mints: `call_e2e_<step>`. */
export const CALL_ID_PREFIX = "call_e2e_";

/** One past the highest step answered by a function_call_output or custom_tool_call_output. */
export function responsesStep(body: Json): number {
  let last = -1;
  for (const item of arr(body, "input") ?? []) {
    const type = str(item, "type");
    const id = str(item, "call_id");
    if ((type === "function_call_output" || type === "custom_tool_call_output") && id?.startsWith(CALL_ID_PREFIX)) last = Math.max(last, Number(id.slice(CALL_ID_PREFIX.length)));
  }
  return last + 1;
}

function exec(cmd: string, call_id: string, dir: string): JsonObject {
  return { type: "function_call", name: "exec_command", arguments: JSON.stringify({ cmd, workdir: dir }), call_id };
}

function callItem(action: PlanAction, step: number, dir: string): JsonObject {
  const call_id = `${CALL_ID_PREFIX}${step}`;
  switch (action.kind) {
    case "read":
      return exec(`cat ${action.file}`, call_id, dir);
    case "bash":
      return exec(action.command, call_id, dir);
    case "grep":
      return exec(`grep -rn '${action.pattern}' src`, call_id, dir);
    case "edit": {
      const input = ["*** Begin Patch", `*** Update File: ${action.file}`, "@@", `-${action.old_text}`, `+${action.new_text}`, "*** End Patch", ""].join("\n");
      return { type: "custom_tool_call", name: "apply_patch", input, call_id };
    }
    case "final":
      return { type: "message", role: "assistant", content: [{ type: "output_text", text: action.text, annotations: [] }] };
    default: {
      const never: never = action;
      throw new Error(`unknown plan action ${JSON.stringify(never)}`);
    }
  }
}

/** Output items of the scripted answer to `body`. */
export function responsesReply(body: Json, run: ScriptRun): Json[] {
  const tools = arr(body, "tools") ?? [];
  if (!tools.some((t) => str(t, "name") === "exec_command")) return [{ type: "message", role: "assistant", content: [{ type: "output_text", text: "OK", annotations: [] }] }];
  const step = Math.min(responsesStep(body), SESSION_PLAN.length - 1);
  const reasoning: JsonObject = { type: "reasoning", summary: [], encrypted_content: Buffer.from(`e2e-reasoning:${run.label}:${step}`).toString("base64") };
  return [reasoning, callItem(SESSION_PLAN[step]!, step, run.projectDir)];
}
