/**
 * Validates a Chat Completions request the way the real API does (pure): required fields, empty
 * content arrays, and the tool-call adjacency rules. Returns the first rejection (real message,
 * `param` and `code`) or null. Sources: docs/emulator.md.
 */
import { openaiInvalid, type Rejection } from "../shared/errors";
import { arr, isObject, prop, str, type Json } from "../shared/json";

const ROLES = new Set(["system", "developer", "user", "assistant", "tool", "function"]);

export function validateChatRequest(body: unknown): Rejection | null {
  // 1. Required fields.
  if (!isObject(body)) return openaiInvalid("We could not parse the JSON body of your request.", null);
  if (typeof body.model !== "string") return openaiInvalid("you must provide a model parameter", null);
  if (!Array.isArray(body.messages)) return openaiInvalid("Missing required parameter: 'messages'.", "messages", "missing_required_parameter");
  const messages = body.messages;

  // 2. Roles and empty content arrays.
  for (let i = 0; i < messages.length; i++) {
    const role = str(messages[i], "role");
    if (role === undefined || !ROLES.has(role)) {
      return openaiInvalid(`Invalid value: '${role ?? ""}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`, `messages[${i}].role`, "invalid_value");
    }
    const content = prop(messages[i], "content");
    if (Array.isArray(content) && content.length === 0) {
      return openaiInvalid(`Invalid 'messages[${i}].content': empty array. Expected an array with minimum length 1, but got an empty array instead.`, `messages[${i}].content`, "empty_array");
    }
  }

  // 3. Tool messages answer the nearest assistant tool_calls (only tool messages in between); every call is answered.
  return checkToolAdjacency(messages);
}

function checkToolAdjacency(messages: Json[]): Rejection | null {
  let open: { index: number; ids: string[]; answered: Set<string> } | null = null;
  const unanswered = (o: NonNullable<typeof open>) => o.ids.filter((id) => !o.answered.has(id));
  const missingError = (o: NonNullable<typeof open>) =>
    openaiInvalid(
      `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${unanswered(o).join(", ")}`,
      `messages.[${o.index}].role`,
    );
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (str(m, "role") === "tool") {
      if (open === null) {
        return openaiInvalid("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", `messages.[${i}].role`);
      }
      const id = str(m, "tool_call_id") ?? "";
      if (!open.ids.includes(id)) {
        return openaiInvalid(`Invalid parameter: 'tool_call_id' of '${id}' not found in 'tool_calls' of previous message.`, `messages.[${i}].tool_call_id`);
      }
      open.answered.add(id);
      continue;
    }
    if (open !== null && unanswered(open).length > 0) return missingError(open);
    open = null;
    const calls = arr(m, "tool_calls");
    if (str(m, "role") === "assistant" && calls && calls.length > 0) {
      open = { index: i, ids: calls.map((c) => str(c, "id") ?? ""), answered: new Set() };
    }
  }
  if (open !== null && unanswered(open).length > 0) return missingError(open);
  return null;
}
