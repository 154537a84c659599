/**
 * The scripted model's Responses replies for Codex (pure): the plan's next step as a reasoning
 * item (encrypted_content, as with `include: ["reasoning.encrypted_content"]` and `store: false`)
 * followed by the step's call, or the final message. Two tool sets:
 * - classic (the pinned model: top-level `tools` with `exec_command`): an `exec_command`
 *   function_call, or an `apply_patch` custom_tool_call for edits;
 * - code mode (Codex's default model, Responses Lite: ./responses-lite.ts): a `custom_tool_call`
 *   of `exec` whose JavaScript runs the same command or patch.
 * With the classic tool set, a restore through Sluice's MCP tool comes first when it is due
 * (./script-restore.ts). A request ending with `compaction_trigger` gets a `compaction` item; `POST /v1/responses/compact`
 * gets the same item in the endpoint's JSON answer (compactReply). Any other request (no
 * scripted tool offered) gets a one-line text answer.
 */
import { arr, str, type Json, type JsonObject } from "../emulator/shared/json";
import { codeModeSource, compactedStep, compactionItem, endsWithTrigger, isCodeMode, patchText, shellCommand } from "./responses-lite";
import type { ScriptRun } from "./script-anthropic";
import { responsesRestore } from "./script-restore";
import { SESSION_PLAN, type PlanAction } from "./session-plan";

/** Prefix of the call ids the script mints: `call_e2e_<step>`. */
export const CALL_ID_PREFIX = "call_e2e_";

/** The highest step answered in `body` (a call output with a script id, or a script compaction item), or -1. */
function lastAnswered(body: Json): number {
  const input = arr(body, "input") ?? [];
  let last = compactedStep(input);
  for (const item of input) {
    const type = str(item, "type");
    const id = str(item, "call_id");
    if ((type === "function_call_output" || type === "custom_tool_call_output") && id?.startsWith(CALL_ID_PREFIX)) last = Math.max(last, Number(id.slice(CALL_ID_PREFIX.length)));
  }
  return last;
}

/** One past the highest step answered by a function_call_output, custom_tool_call_output or script compaction item. */
export function responsesStep(body: Json): number {
  return lastAnswered(body) + 1;
}

const message = (text: string): JsonObject => ({ type: "message", role: "assistant", content: [{ type: "output_text", text, annotations: [] }] });

function classicCall(action: Exclude<PlanAction, { kind: "final" }>, callId: string, dir: string): JsonObject {
  if (action.kind === "edit") return { type: "custom_tool_call", name: "apply_patch", input: patchText(action.file, action.old_text, action.new_text), call_id: callId };
  return { type: "function_call", name: "exec_command", arguments: JSON.stringify({ cmd: shellCommand(action), workdir: dir }), call_id: callId };
}

/** Output items of the scripted answer to `body`. */
export function responsesReply(body: Json, run: ScriptRun): Json[] {
  if (endsWithTrigger(body)) return [compactionItem(run.label, lastAnswered(body))];
  const classic = (arr(body, "tools") ?? []).some((t) => str(t, "name") === "exec_command");
  if (!classic && !isCodeMode(body)) return [message("OK")];
  const step = Math.min(responsesStep(body), SESSION_PLAN.length - 1);
  const action = SESSION_PLAN[step]!;
  const reasoning: JsonObject = { type: "reasoning", summary: [], encrypted_content: Buffer.from(`e2e-reasoning:${run.label}:${step}`).toString("base64") };
  const restore = classic ? responsesRestore(body) : null;
  if (restore !== null) return [reasoning, restore];
  if (action.kind === "final") return [reasoning, message(action.text)];
  const callId = `${CALL_ID_PREFIX}${step}`;
  const call = classic ? classicCall(action, callId, run.projectDir) : { type: "custom_tool_call", name: "exec", input: codeModeSource(action, run.projectDir), call_id: callId };
  return [reasoning, call];
}

/**
 * The JSON answer of `POST /v1/responses/compact` (OpenAI's "Compact a response": `object:
 * "response.compaction"`, `output` = the compacted window, `usage`): one `compaction` item
 * carrying the last step the posted `input` answered. `seq` numbers the ids; `inputTokens` is
 * the prompt's token count (the caller's tokenizer); output tokens are the item's payload length
 * over 4, at least 1 (an estimate: the endpoint's output is opaque).
 */
export function compactReply(body: Json, run: ScriptRun, seq: number, createdAt: number, inputTokens: number): JsonObject {
  const item: JsonObject = { ...compactionItem(run.label, lastAnswered(body)), id: `cmp_e2e${seq}` };
  const output = Math.max(1, Math.ceil(String(item.encrypted_content).length / 4));
  return {
    id: `resp_cmp_e2e${seq}`,
    object: "response.compaction",
    created_at: createdAt,
    output: [item],
    usage: { input_tokens: inputTokens, input_tokens_details: { cached_tokens: 0 }, output_tokens: output, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: inputTokens + output },
  };
}
