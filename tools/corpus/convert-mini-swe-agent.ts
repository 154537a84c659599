/**
 * Converter of mini-swe-agent trajectories (`*.traj.json`: `{info, messages, trajectory_format}`)
 * → corpus sessions with provider `openai-chat` (pure). mini-swe-agent sends `messages` as they
 * are to the model through LiteLLM (github.com/SWE-agent/mini-swe-agent, DefaultAgent.query), so:
 * - the first `system` message becomes `system`; the rest keep their order;
 * - each message keeps only what the API receives: `role`, `content`, and `tool_calls` /
 *   `tool_call_id` when present (`extra` — raw responses, costs, timestamps — and null
 *   `function_call` / `provider_specific_fields` / `annotations` are the agent's bookkeeping);
 * - the final `exit` message (the agent's own end marker, never sent) is dropped;
 * - the model is `info.config.model.model_name` (LiteLLM ids such as `openai/gpt-5-mini` lose
 *   their routing prefix: `gpt-5-mini`);
 * - times: `extra.timestamp` (epoch seconds) where recorded, else null.
 */
import type { Json, JsonObject } from "../replay/types";
import type { CorpusSource } from "./corpus-file";
import type { Converted } from "./convert-session-export";

const isObj = (v: Json | undefined): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

/** Converts one trajectory (already JSON-parsed). Throws naming the field on bad input. */
export function convertMiniSweAgent(raw: Json, id: string, source: Omit<CorpusSource, "agent" | "format">, name: string): Converted {
  if (!isObj(raw) || !Array.isArray(raw.messages)) throw new Error(`${name}: not a mini-swe-agent trajectory (field messages)`);
  const info = isObj(raw.info) ? raw.info : {};
  const config = isObj(info.config) ? info.config : {};
  const modelCfg = isObj(config.model) ? config.model : {};
  const recorded = typeof modelCfg.model_name === "string" ? modelCfg.model_name : null;
  const model = recorded === null ? null : recorded.replace(/^(openai|openrouter\/[^/]+|anthropic)\//, "");
  const notes: string[] = [];
  let system: Json | null = null;
  const messages: JsonObject[] = [];
  const timestamps: (string | null)[] = [];
  let dropped = 0;
  raw.messages.forEach((m, i) => {
    if (!isObj(m) || typeof m.role !== "string") throw new Error(`${name}: field messages.${i}.role is missing`);
    if (m.role === "system" && i === 0) {
      system = m.content ?? null;
      return;
    }
    if (m.role === "exit") {
      dropped++;
      return;
    }
    if (m.role !== "user" && m.role !== "assistant" && m.role !== "tool") throw new Error(`${name}: field messages.${i}.role: unknown role ${m.role}`);
    const out: JsonObject = { role: m.role, content: m.content ?? null };
    if (Array.isArray(m.tool_calls) && m.tool_calls.length > 0) out.tool_calls = m.tool_calls.map((c) => (isObj(c) ? { id: c.id ?? null, type: c.type ?? "function", function: c.function ?? null } : c));
    if (typeof m.tool_call_id === "string") out.tool_call_id = m.tool_call_id;
    messages.push(out);
    const extra = isObj(m.extra) ? m.extra : {};
    timestamps.push(typeof extra.timestamp === "number" ? new Date(Math.round(extra.timestamp * 1000)).toISOString() : null);
  });
  if (dropped > 0) notes.push(`dropped ${dropped} exit marker message(s)`);
  const version = typeof info.mini_version === "string" ? ` ${info.mini_version}` : "";
  notes.push(`mini-swe-agent${version}, trajectory format ${typeof raw.trajectory_format === "string" ? raw.trajectory_format : "1 (text actions)"}; exit status ${JSON.stringify(info.exit_status ?? null)}`);
  return { file: { id, source: { ...source, agent: "mini-swe-agent", format: "mini-swe-agent-traj" }, provider: "openai-chat", model, system, tools: [], messages, timestamps }, notes };
}
