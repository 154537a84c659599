/**
 * Minimal tool definitions from the tool names a session uses (pure). Recorded sessions do not
 * keep their tool definitions (MANIFEST.md: `tools` is [] everywhere), but the real APIs reject
 * tool blocks whose tool is not defined, so every replayed request carries one stub per name,
 * in order of first use, in each API's own shape:
 * - Anthropic: {name, input_schema:{type:"object"}} (docs.anthropic.com tool-use: input_schema
 *   is a JSON Schema object, required).
 * - OpenAI Chat: {type:"function", function:{name, parameters:{type:"object"}}}; freeform tools
 *   {type:"custom", custom:{name}} (platform.openai.com function-calling / custom tools).
 * - OpenAI Responses: {type:"function", name, parameters:{type:"object"}, strict:false};
 *   freeform {type:"custom", name}; a `local_shell_call` needs {type:"local_shell"}.
 * The same list goes with every call of a session, so it never disturbs the cached prefix.
 */
import { toolCallsIn } from "./tool-pairs";
import type { Json, JsonObject, Provider } from "./types";

const OBJECT_SCHEMA: JsonObject = { type: "object" };

/** Stub tool definitions for every tool name called in `items` (history and replies). */
export function synthesizeTools(provider: Provider, items: readonly Json[]): JsonObject[] {
  const seen = new Map<string, "function" | "custom">();
  for (const call of toolCallsIn(provider, items)) if (call.name !== "" && !seen.has(call.name)) seen.set(call.name, call.kind);
  const out: JsonObject[] = [];
  for (const [name, kind] of seen) {
    switch (provider) {
      case "anthropic":
        out.push({ name, input_schema: OBJECT_SCHEMA });
        break;
      case "openai-chat":
        out.push(kind === "custom" ? { type: "custom", custom: { name } } : { type: "function", function: { name, parameters: OBJECT_SCHEMA } });
        break;
      case "openai-responses":
        if (name === "local_shell") out.push({ type: "local_shell" });
        else out.push(kind === "custom" ? { type: "custom", name } : { type: "function", name, parameters: OBJECT_SCHEMA, strict: false });
        break;
      default: {
        const never: never = provider;
        throw new Error(`unknown provider ${String(never)}`);
      }
    }
  }
  return out;
}
