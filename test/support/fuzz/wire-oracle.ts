/**
 * Independent provider-rule oracles for the fuzz suite (pure): JSON.parse-based, written from
 * the providers' documented pairing rules rather than from src/providers, so a bug shared by
 * an adapter's reader and its checkRules still shows. Each returns the violated rules ([] =
 * valid). Anthropic reuses ../anthropic-invariants.ts.
 * - OpenAI Chat: every `tool` message answers a `tool_calls[].id` of the nearest preceding
 *   assistant message, inside the run of tool messages right after it; every tool call of an
 *   assistant message is answered in that run (platform.openai.com, chat "function calling").
 * - OpenAI Responses: every function_call / custom_tool_call has exactly one *_output with its
 *   call_id after it, and every output has its call before it.
 */
import type { Provider } from "../../../src/core/view/types";
import { anthropicInvariants } from "../anthropic-invariants";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function chatRules(body: Obj): string[] {
  const out: string[] = [];
  const ms = Array.isArray(body.messages) ? body.messages : [];
  for (let i = 0; i < ms.length; i++) {
    const m = ms[i];
    if (!isObj(m) || m.role !== "assistant" || !Array.isArray(m.tool_calls)) continue;
    const want = new Set(m.tool_calls.filter(isObj).map((c) => String(c.id)));
    let j = i + 1;
    for (; j < ms.length && isObj(ms[j]) && (ms[j] as Obj).role === "tool"; j++) {
      const id = String((ms[j] as Obj).tool_call_id);
      if (!want.delete(id)) out.push(`messages[${j}]: tool message ${id} answers no open call of messages[${i}]`);
    }
    for (const id of want) out.push(`messages[${i}]: tool call ${id} unanswered`);
    i = j - 1;
  }
  ms.forEach((m, i) => {
    if (isObj(m) && m.role === "tool") {
      const prev = ms.slice(0, i).reverse().find((x) => !(isObj(x) && x.role === "tool"));
      if (!isObj(prev) || prev.role !== "assistant" || !Array.isArray(prev.tool_calls)) out.push(`messages[${i}]: tool message without a preceding tool_calls message`);
    }
  });
  return out;
}

const CALLS: Record<string, string> = { function_call: "function_call_output", custom_tool_call: "custom_tool_call_output" };

function responsesRules(body: Obj): string[] {
  const out: string[] = [];
  const items = Array.isArray(body.input) ? body.input : [];
  const open = new Map<string, string>();
  const answered = new Set<string>();
  items.forEach((it, i) => {
    if (!isObj(it) || typeof it.type !== "string") return;
    if (CALLS[it.type]) open.set(String(it.call_id), CALLS[it.type]!);
    else if (Object.values(CALLS).includes(it.type)) {
      const id = String(it.call_id);
      if (open.get(id) !== it.type) out.push(`input[${i}]: ${it.type} ${id} has no call before it`);
      if (answered.has(id)) out.push(`input[${i}]: second output for ${id}`);
      answered.add(id);
    }
  });
  for (const id of open.keys()) if (!answered.has(id)) out.push(`call ${id} has no output`);
  return out;
}

/** The violated rules of a parsed body for `provider`. */
export function wireViolations(provider: Provider, body: unknown): string[] {
  if (!isObj(body)) return ["body is not an object"];
  switch (provider) {
    case "anthropic":
      return Array.isArray(body.messages) ? anthropicInvariants(body as { messages: { role: string; content: unknown }[] }) : ["messages is not an array"];
    case "openai-chat":
      return chatRules(body);
    case "openai-responses":
      return responsesRules(body);
    default: {
      const never: never = provider;
      return [`unknown provider ${String(never)}`];
    }
  }
}
