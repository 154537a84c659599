/**
 * Validates a Responses API request the way the real API does (pure): tool calls and their
 * outputs pair by `call_id` anywhere in `input`, and reasoning items stay with the items they
 * produced. The reasoning rules depend on item ids: the API knows, from its own responses, which
 * reasoning item an output item (`fc_…`, `msg_…`) came with; the emulator learns the same links
 * from the replies it issues and from earlier valid requests of the same key
 * (`ResponsesValidationContext`). Items sent without ids (Codex CLI with `store: false`) are
 * never linked, as with the real API. Then the compaction rules R5–R7 (./compaction.ts).
 * Sources: docs/emulator.md.
 */
import { openaiInvalid, type Rejection } from "../shared/errors";
import { isObject, str, type Json } from "../shared/json";
import { validateCompaction } from "./compaction";

export interface ResponsesValidationContext {
  /** Output item id → id of the reasoning item it was produced with. */
  requiredReasoning: ReadonlyMap<string, string>;
  /** Reasoning item id → id of the item that followed it. */
  reasoningFollower: ReadonlyMap<string, string>;
}

const CALLS: Record<string, string> = { function_call: "function call", custom_tool_call: "custom tool call" };
const OUTPUTS: Record<string, string> = { function_call_output: "function call output", custom_tool_call_output: "custom tool call output" };

export function validateResponsesRequest(body: unknown, ctx: ResponsesValidationContext): Rejection | null {
  // 1. Required fields.
  if (!isObject(body)) return openaiInvalid("We could not parse the JSON body of your request.", null);
  if (typeof body.model !== "string") return openaiInvalid("Missing required parameter: 'model'.", "model", "missing_required_parameter");
  const input = body.input;
  if (!Array.isArray(input)) return null;

  // 2. Outputs need their call; calls need their output (paired by call_id, any order).
  const calls = new Set<string>();
  const outputs = new Set<string>();
  for (const item of input) {
    const type = str(item, "type") ?? "";
    if (type in CALLS) calls.add(str(item, "call_id") ?? "");
    if (type in OUTPUTS) outputs.add(str(item, "call_id") ?? "");
  }
  for (const item of input) {
    const type = str(item, "type") ?? "";
    const id = str(item, "call_id") ?? "";
    if (type in OUTPUTS && !calls.has(id)) return openaiInvalid(`No tool call found for ${OUTPUTS[type]} with call_id ${id}.`, "input");
  }
  for (const item of input) {
    const type = str(item, "type") ?? "";
    const id = str(item, "call_id") ?? "";
    if (type in CALLS && !outputs.has(id)) return openaiInvalid(`No tool output found for ${CALLS[type]} ${id}.`, "input");
  }

  // 3. Reasoning links learned by id.
  const present = new Set(input.map((i) => str(i, "id")).filter((x): x is string => x !== undefined));
  for (const item of input) {
    const id = str(item, "id");
    const rs = id !== undefined ? ctx.requiredReasoning.get(id) : undefined;
    if (rs !== undefined && !present.has(rs)) {
      return openaiInvalid(`Item '${id}' of type '${str(item, "type") ?? "message"}' was provided without its required 'reasoning' item: '${rs}'.`, "input");
    }
  }
  for (let k = 0; k < input.length; k++) {
    const item = input[k];
    const id = str(item, "id");
    if (str(item, "type") !== "reasoning" || id === undefined) continue;
    const follower = ctx.reasoningFollower.get(id);
    const nextId = k + 1 < input.length ? str(input[k + 1], "id") : undefined;
    if (k + 1 === input.length || (follower !== undefined && nextId !== follower)) {
      return openaiInvalid(`Item '${id}' of type 'reasoning' was provided without its required following item.`, "input");
    }
  }

  // 4. Compaction: context_management entries, the trigger's place, compaction items (./compaction.ts).
  return validateCompaction(body, input);
}

/** (reasoning id, follower id) links in a list of items: each reasoning item with an id and the next item, when it has one. */
export function reasoningLinks(items: readonly Json[]): [string, string][] {
  const links: [string, string][] = [];
  for (let k = 0; k + 1 < items.length; k++) {
    const rs = str(items[k], "id");
    const next = str(items[k + 1], "id");
    if (str(items[k], "type") === "reasoning" && rs !== undefined && next !== undefined) links.push([rs, next]);
  }
  return links;
}
