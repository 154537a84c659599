/**
 * OpenAI Responses pairing rules, checked on a (possibly edited) body (pure). Written apart
 * from the apply code (it reads `input` itself, without ./locate-items.ts). Rules:
 * 1. every `function_call` / `custom_tool_call` has exactly one output item of the matching
 *    type with its `call_id`, after it ("No tool output found for function call …"), and every
 *    output item answers exactly one earlier call of the matching type;
 * 2. a `reasoning` item (after any further reasoning items) is followed by a model-output item,
 *    not by a client item or the end of `input` ("Item 'rs_…' of type 'reasoning' was provided
 *    without its required following item", continuedev/continue#8933);
 * 3. no message `content` and no tool `output` is an empty array.
 * That a kept reasoning item is still followed by the SAME item as before an edit is relational
 * (input vs output) and is enforced by edit-rules.ts and its tests.
 */
import { getMember, stringValue, type JsonNode } from "../shared/json-scan";
import { MODEL_OUTPUT_TYPES, PAIRED_CALLS } from "./wire";

function text(bytes: Uint8Array, node: JsonNode | undefined): string | null {
  return node?.type === "string" ? stringValue(bytes, node) : null;
}

/** Item type as the API reads it: `type`, else "message" with a role, else "item_reference". */
function itemType(bytes: Uint8Array, item: JsonNode): string | null {
  const t = text(bytes, getMember(item, "type"));
  if (t !== null) return t;
  if (getMember(item, "role")) return "message";
  return getMember(item, "id") ? "item_reference" : null;
}

const OUTPUT_OF: Record<string, string> = Object.fromEntries(Object.entries(PAIRED_CALLS).map(([c, o]) => [o, c]));

/** Rule violations in `root` (the scanned `bytes`); [] when the body keeps every rule. */
export function checkResponsesRules(bytes: Uint8Array, root: JsonNode): string[] {
  const input = getMember(root, "input");
  if (input?.type === "string") return [];
  if (!input || input.type !== "array") return ["input: not a string or an array"];
  const v: string[] = [];
  const types: (string | null)[] = input.items.map((it) => itemType(bytes, it));
  const isModelItem = (i: number) => {
    const t = types[i] ?? null;
    return t === "message" ? text(bytes, getMember(input.items[i], "role")) === "assistant" : t !== null && MODEL_OUTPUT_TYPES.has(t);
  };
  const open = new Map<string, { type: string; at: number }>();
  const answered = new Set<string>();
  input.items.forEach((it, i) => {
    const t = types[i] ?? null;
    if (t === null) v.push(`input[${i}]: no type`);
    const content = getMember(it, t === "message" ? "content" : "output");
    if (content?.type === "array" && content.items.length === 0) v.push(`input[${i}]: empty ${t === "message" ? "content" : "output"} array`);
    if (t !== null && t in PAIRED_CALLS) {
      const id = text(bytes, getMember(it, "call_id"));
      if (id === null || open.has(id) || answered.has(id)) v.push(`input[${i}].call_id: missing or duplicate ${JSON.stringify(id)}`);
      else open.set(id, { type: t, at: i });
    }
    const callType = t === null ? undefined : OUTPUT_OF[t];
    if (callType !== undefined) {
      const id = text(bytes, getMember(it, "call_id"));
      const call = id === null ? undefined : open.get(id);
      if (!call || call.type !== callType) v.push(`input[${i}]: ${t} for ${JSON.stringify(id)} answers no earlier ${callType}`);
      else {
        open.delete(id!);
        answered.add(id!);
      }
    }
    if (t === "reasoning" && types[i + 1] !== "reasoning" && !(i + 1 < types.length && isModelItem(i + 1))) {
      v.push(`input[${i}]: reasoning item without its required following item`);
    }
  });
  for (const [id, c] of open) v.push(`input[${c.at}]: ${c.type} ${JSON.stringify(id)} has no output`);
  return v;
}
