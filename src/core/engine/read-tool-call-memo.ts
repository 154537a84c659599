/**
 * `readToolCall` remembered per pair (pure in effect: a transparent cache of a pure function).
 * The session step runs the heuristic rules over every pair of the history on every request,
 * and classifying a call parses its input JSON: measured under load (tools/load/profile-workerd.ts)
 * that parse was ~40 % of the engine's time, for pairs that did not change since the last call.
 * An entry is used only when the pair's tool name and input text are the same as when it was
 * stored (the same string objects in the session DO, whose rebuilt views share the base's
 * texts: src/do/view-delta.ts), so a reused or colliding pair id can never get a wrong answer.
 */
import type { ToolPair } from "../view/types";
import { readToolCall, type ToolCallInfo } from "./read-tool-call";

/** Entries kept (least recently stored dropped first): a few long sessions' pairs per isolate. */
export const TOOL_CALL_MEMO_SIZE = 8_192;

const memo = new Map<string, { tool_name: string; input_text: string; info: ToolCallInfo }>();

/** `readToolCall(pair)`, from the memo when the pair's id, tool name and input text match an entry. */
export function readToolCallMemo(pair: Pick<ToolPair, "id" | "tool_name" | "input_text">): ToolCallInfo {
  const hit = memo.get(pair.id);
  if (hit && hit.tool_name === pair.tool_name && hit.input_text === pair.input_text) return hit.info;
  const info = readToolCall(pair);
  memo.delete(pair.id);
  memo.set(pair.id, { tool_name: pair.tool_name, input_text: pair.input_text, info });
  if (memo.size > TOOL_CALL_MEMO_SIZE) memo.delete(memo.keys().next().value!);
  return info;
}
