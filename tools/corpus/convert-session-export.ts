/**
 * Converter of "session export" files → corpus sessions (pure). The format is the one many
 * contributors to one public task programme commit as `sessions/*.json` or `trajectory.json`:
 * `{messages, meta}`, where `meta.session_meta` is the agent's own session header (Claude Code:
 * `version` / `source: "claude_jsonl"`; Codex: `originator: "codex_cli_rs"` or "Codex Desktop";
 * OpenCode: `source: "opencode"`) and each message is `{role, content: [blocks], tool_calls?,
 * tool_call_id?, _metadata: {timestamp}}` with blocks `text`, `reasoning`, `tool_call` /
 * `tool_use` ({tool_call_id, name, arguments}) and `tool_output` ({text}).
 *
 * Rules:
 * 1. Messages whose role is `assistant-subagent-<id>` are a sub-agent's own conversation logged
 *    into the file; they were never part of the main history and are dropped (counted).
 * 2. The exporter logs one message per content block and no message ids; messages are grouped
 *    into model calls by `groupTurns` (consecutive assistant messages, and assistant messages
 *    logged while a call of the turn still waits for its output, are one call).
 * 3. `reasoning` blocks are dropped: Claude Code's have no signature (the API rejects unsigned
 *    thinking), OpenCode's read "[REDACTED]" (counted).
 * 4. Claude Code → provider `anthropic`: text → text blocks, tool calls → `tool_use` with the
 *    parsed JSON arguments as `input`, tool outputs → `tool_result` blocks; consecutive user-side
 *    messages merge into one user message. Whitespace-only text is dropped.
 * 5. Codex → provider `openai-responses` items: developer/user messages → `input_text` messages
 *    (the exporter labels Codex's `<environment_context>` message `system`; Codex sends it as a
 *    user message, so it becomes one); assistant text → `output_text` message; a call whose
 *    arguments are not a JSON object (freeform `apply_patch`) → `custom_tool_call` with `input`,
 *    others → `function_call`; outputs → the matching `*_output`. Instructions:
 *    `session_meta.base_instructions.text`.
 * 6. OpenCode → provider `openai-chat`: assistant `{content, tool_calls}`, outputs role `tool`.
 * 7. Model: the first non-null `turn_contexts[].model` or `session_meta.model`, else null.
 * 8. `timestamps[i]` is the `_metadata.timestamp` of the last source message merged into it.
 */
import type { Json, JsonObject } from "../replay/types";
import { callStarts } from "../replay/split-calls";
import type { CorpusFile, CorpusSource } from "./corpus-file";

/** The result of a conversion: the file (before scrubbing) and notes for the MANIFEST. */
export interface Converted {
  file: CorpusFile;
  notes: string[];
}

const isObj = (v: Json | undefined): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

export interface SrcMsg {
  role: string;
  blocks: JsonObject[];
  callId: string | null;
  time: string | null;
}

/** Which agent wrote an export, from its session header. Throws when it cannot tell. */
export function exportAgent(meta: JsonObject, name: string): "claude-code" | "codex" | "opencode" {
  const sm = isObj(meta.session_meta) ? meta.session_meta : {};
  if (sm.originator === "codex_cli_rs" || sm.originator === "Codex Desktop") return "codex";
  if (sm.source === "opencode") return "opencode";
  if (sm.source === "claude_jsonl" || typeof sm.version === "string") return "claude-code";
  throw new Error(`${name}: field meta.session_meta: no known agent (originator ${JSON.stringify(sm.originator ?? null)}, source ${JSON.stringify(sm.source ?? null)})`);
}

function readMessages(raw: Json, name: string): { messages: SrcMsg[]; meta: JsonObject; subagent: number } {
  if (!isObj(raw) || !Array.isArray(raw.messages) || !isObj(raw.meta)) throw new Error(`${name}: not a session export (fields messages, meta)`);
  let subagent = 0;
  const messages: SrcMsg[] = [];
  raw.messages.forEach((m, i) => {
    if (!isObj(m) || typeof m.role !== "string") throw new Error(`${name}: field messages.${i}.role is missing`);
    if (m.role.startsWith("assistant-subagent-")) {
      subagent++;
      return;
    }
    const content = typeof m.content === "string" ? [{ type: "text", text: m.content }] : Array.isArray(m.content) ? m.content.filter(isObj) : [];
    const meta = isObj(m._metadata) ? m._metadata : {};
    messages.push({ role: m.role, blocks: content, callId: typeof m.tool_call_id === "string" ? m.tool_call_id : null, time: typeof meta.timestamp === "string" ? meta.timestamp : typeof meta.timestamp === "number" ? new Date(meta.timestamp).toISOString() : null });
  });
  return { messages, meta: raw.meta, subagent };
}

/**
 * Puts every tool output after its call. The exporter sometimes lists an output just before the
 * call it answers (same-millisecond lines); such an output is held back until its call has been
 * emitted. Returns the new order and how many outputs moved.
 */
export function outputsAfterCalls(messages: readonly SrcMsg[]): { messages: SrcMsg[]; moved: number } {
  const laterCalls = new Set<string>();
  const called = new Set<string>();
  for (const m of messages) if (m.role === "assistant") for (const id of callIds(m)) laterCalls.add(id);
  const held = new Map<string, SrcMsg>();
  const out: SrcMsg[] = [];
  let moved = 0;
  for (const m of messages) {
    if (m.role === "tool" && m.callId !== null && !called.has(m.callId) && laterCalls.has(m.callId) && !held.has(m.callId)) {
      held.set(m.callId, m);
      moved++;
      continue;
    }
    out.push(m);
    if (m.role === "assistant")
      for (const id of callIds(m)) {
        called.add(id);
        const h = held.get(id);
        if (h !== undefined) {
          out.push(h);
          held.delete(id);
        }
      }
  }
  return { messages: [...out, ...held.values()], moved };
}

function recordedModel(meta: JsonObject): string | null {
  const tcs = Array.isArray(meta.turn_contexts) ? meta.turn_contexts : [];
  for (const t of tcs) if (isObj(t) && typeof t.model === "string" && t.model !== "") return t.model;
  const sm = isObj(meta.session_meta) ? meta.session_meta : {};
  return typeof sm.model === "string" && sm.model !== "" ? sm.model : null;
}

const textOf = (b: JsonObject): string => (typeof b.text === "string" ? b.text : "");
const isCall = (b: JsonObject): boolean => b.type === "tool_call" || b.type === "tool_use";
const callIds = (m: SrcMsg): string[] => m.blocks.filter(isCall).map((b) => String(b.tool_call_id ?? ""));

function parseArgs(args: Json | undefined): { object: JsonObject | null; text: string } {
  if (isObj(args)) return { object: args, text: JSON.stringify(args) };
  const text = typeof args === "string" ? args : "";
  try {
    const v = JSON.parse(text) as Json;
    return { object: isObj(v) ? v : null, text };
  } catch {
    return { object: null, text };
  }
}

/** One model call's assistant messages and the tool outputs that answered them, or a user-side message. */
type Turn = { kind: "assistant"; calls: SrcMsg[]; results: SrcMsg[] } | { kind: "other"; msg: SrcMsg };


/**
 * Groups messages into turns. A model call can only start once every tool call of the previous
 * one has its output (the next request must carry them all), so an assistant message joins the
 * current turn while it has no output yet or while one of its calls is still unanswered: Claude
 * Code runs parallel calls as they stream and logs their outputs in between. A user-side message
 * logged while a call waits for its output is placed after the outputs (the API wants the
 * outputs first). Outputs that answer no call of the current turn, and calls never answered, are
 * dropped (the API refuses both). All three are counted in `dropped`.
 */
function groupTurns(messages: SrcMsg[], dropped: Dropped): Turn[] {
  const turns: Turn[] = [];
  let cur: { kind: "assistant"; calls: SrcMsg[]; results: SrcMsg[] } | null = null;
  let deferred: SrcMsg[] = [];
  let pending = new Set<string>();
  const close = () => {
    if (cur === null) return;
    if (pending.size > 0) {
      dropped.calls += pending.size;
      const unanswered = pending;
      cur.calls = cur.calls.map((m) => ({ ...m, blocks: m.blocks.filter((b) => !(isCall(b) && unanswered.has(String(b.tool_call_id ?? "")))) }));
    }
    turns.push(cur, ...deferred.map((msg): Turn => ({ kind: "other", msg })));
    cur = null;
    deferred = [];
    pending = new Set();
  };
  for (const m of messages) {
    if (m.role === "assistant") {
      if (cur === null || (cur.results.length > 0 && pending.size === 0)) {
        close();
        cur = { kind: "assistant", calls: [m], results: [] };
      } else cur.calls.push(m);
      for (const id of callIds(m)) pending.add(id);
    } else if (m.role === "tool") {
      if (cur !== null && m.callId !== null && pending.has(m.callId)) {
        pending.delete(m.callId);
        cur.results.push(m);
      } else dropped.outputs++;
    } else if (cur !== null && pending.size > 0) {
      deferred.push(m);
      dropped.moved++;
    } else {
      close();
      turns.push({ kind: "other", msg: m });
    }
  }
  close();
  return turns;
}

/** What the grouping moved or dropped. */
interface Dropped {
  outputs: number;
  calls: number;
  moved: number;
}

function droppedNote(d: Dropped, notes: string[]): void {
  if (d.moved > 0) notes.push(`${d.moved} user-side message(s) logged between a tool call and its output placed after the outputs`);
  if (d.outputs > 0) notes.push(`dropped ${d.outputs} tool output(s) answering no call of their turn`);
  if (d.calls > 0) notes.push(`dropped ${d.calls} tool call(s) never answered`);
}

function toAnthropic(messages: SrcMsg[], notes: string[]): { out: JsonObject[]; times: (string | null)[] } {
  const out: JsonObject[] = [];
  const times: (string | null)[] = [];
  let badArgs = 0;
  const dropped: Dropped = { outputs: 0, calls: 0, moved: 0 };
  const push = (role: "user" | "assistant", blocks: Json[], time: string | null) => {
    if (blocks.length === 0) return;
    const last = out[out.length - 1];
    if (last !== undefined && last.role === role) {
      (last.content as Json[]).push(...blocks);
      times[times.length - 1] = time ?? times[times.length - 1] ?? null;
    } else {
      out.push({ role, content: blocks });
      times.push(time);
    }
  };
  for (const turn of groupTurns(messages, dropped)) {
    if (turn.kind === "assistant") {
      const blocks: Json[] = [];
      for (const m of turn.calls)
        for (const b of m.blocks) {
          if (b.type === "text" && textOf(b).trim() !== "") blocks.push({ type: "text", text: textOf(b) });
          else if (isCall(b)) {
            const a = parseArgs(b.arguments);
            if (a.object === null) badArgs++;
            blocks.push({ type: "tool_use", id: String(b.tool_call_id ?? ""), name: String(b.name ?? ""), input: a.object ?? { raw: a.text } });
          }
        }
      push("assistant", blocks, turn.calls[turn.calls.length - 1]!.time);
      for (const r of turn.results) push("user", [{ type: "tool_result", tool_use_id: r.callId ?? "", content: r.blocks.map(textOf).join("") }], r.time);
    } else {
      const blocks = turn.msg.blocks.filter((b) => b.type === "text" && textOf(b).trim() !== "").map((b): Json => ({ type: "text", text: textOf(b) }));
      push("user", blocks, turn.msg.time);
    }
  }
  if (badArgs > 0) notes.push(`${badArgs} tool call(s) whose arguments are not a JSON object kept as input {raw}`);
  droppedNote(dropped, notes);
  return { out, times };
}

/**
 * Codex items stay in recorded order: the Responses API pairs outputs with calls by `call_id`,
 * and Codex Desktop logs approval notices (developer messages) between a call and its output.
 * Only outputs of no earlier call and calls with no output (but the session's last reply) go.
 */
function toResponses(messages: SrcMsg[], notes: string[]): { out: JsonObject[]; times: (string | null)[] } {
  const out: JsonObject[] = [];
  const times: (string | null)[] = [];
  const custom = new Set<string>();
  const dropped: Dropped = { outputs: 0, calls: 0, moved: 0 };
  const answered = new Set(messages.filter((m) => m.role === "tool" && m.callId !== null).map((m) => m.callId!));
  const lastUser = messages.reduce((k, m, i) => (m.role !== "assistant" ? i : k), -1);
  const seen = new Set<string>();
  messages.forEach((m, i) => {
    if (m.role === "assistant") {
      for (const b of m.blocks) {
        if (b.type === "text" && textOf(b).trim() !== "") out.push({ type: "message", role: "assistant", content: [{ type: "output_text", text: textOf(b) }] });
        else if (isCall(b)) {
          const id = String(b.tool_call_id ?? "");
          if (!answered.has(id) && i < lastUser) {
            dropped.calls++;
            continue;
          }
          seen.add(id);
          const a = parseArgs(b.arguments);
          if (a.object === null) {
            custom.add(id);
            out.push({ type: "custom_tool_call", name: String(b.name ?? ""), input: a.text, call_id: id });
          } else out.push({ type: "function_call", name: String(b.name ?? ""), arguments: a.text, call_id: id });
        } else continue;
        times.push(m.time);
      }
    } else if (m.role === "tool") {
      const id = m.callId ?? "";
      if (!seen.has(id)) {
        dropped.outputs++;
        return;
      }
      out.push({ type: custom.has(id) ? "custom_tool_call_output" : "function_call_output", call_id: id, output: m.blocks.map(textOf).join("") });
      times.push(m.time);
    } else {
      const content = m.blocks.filter((b) => b.type === "text").map((b): Json => ({ type: "input_text", text: textOf(b) }));
      if (content.length === 0) return;
      out.push({ type: "message", role: m.role === "developer" ? "developer" : "user", content });
      times.push(m.time);
    }
  });
  droppedNote(dropped, notes);
  return { out, times };
}

function toChat(messages: SrcMsg[], notes: string[]): { out: JsonObject[]; times: (string | null)[] } {
  const out: JsonObject[] = [];
  const times: (string | null)[] = [];
  const dropped: Dropped = { outputs: 0, calls: 0, moved: 0 };
  for (const turn of groupTurns(messages, dropped)) {
    if (turn.kind === "assistant") {
      const text = turn.calls.flatMap((m) => m.blocks.filter((b) => b.type === "text").map(textOf)).join("");
      const calls = turn.calls.flatMap((m) => m.blocks.filter(isCall)).map((b): Json => ({ id: String(b.tool_call_id ?? ""), type: "function", function: { name: String(b.name ?? ""), arguments: parseArgs(b.arguments).text } }));
      if (text.trim() !== "" || calls.length > 0) {
        out.push({ role: "assistant", content: text.trim() === "" ? null : text, ...(calls.length > 0 ? { tool_calls: calls } : {}) });
        times.push(turn.calls[turn.calls.length - 1]!.time);
      }
      for (const r of turn.results) {
        out.push({ role: "tool", tool_call_id: r.callId ?? "", content: r.blocks.map(textOf).join("") });
        times.push(r.time);
      }
    } else {
      const m = turn.msg;
      const text = m.blocks.filter((b) => b.type === "text").map(textOf).join("\n");
      if (text.trim() === "") continue;
      out.push({ role: m.role === "developer" || m.role === "system" ? "system" : "user", content: text });
      times.push(m.time);
    }
  }
  droppedNote(dropped, notes);
  return { out, times };
}

/** Converts one session export (already JSON-parsed) into a corpus file. Throws naming the field on bad input. */
export function convertSessionExport(raw: Json, id: string, source: Omit<CorpusSource, "agent" | "format">, name: string): Converted {
  const read = readMessages(raw, name);
  const { meta, subagent } = read;
  const agent = exportAgent(meta, name);
  const notes: string[] = [];
  const { messages, moved } = outputsAfterCalls(read.messages);
  if (moved > 0) notes.push(`${moved} tool output(s) listed just before their call moved after it`);
  if (subagent > 0) notes.push(`dropped ${subagent} sub-agent message(s) logged into the file`);
  const reasoning = messages.reduce((n, m) => n + m.blocks.filter((b) => b.type === "reasoning").length, 0);
  if (reasoning > 0) notes.push(`dropped ${reasoning} reasoning block(s) (unsigned or redacted in the export)`);
  const model = recordedModel(meta);
  const src: CorpusSource = { ...source, agent, format: "session-export" };
  if (agent === "claude-code") {
    const { out, times } = toAnthropic(messages, notes);
    return { file: { id, source: src, provider: "anthropic", model, system: null, tools: [], messages: out, timestamps: times }, notes };
  }
  if (agent === "codex") {
    const sm = isObj(meta.session_meta) ? meta.session_meta : {};
    const bi = isObj(sm.base_instructions) && typeof sm.base_instructions.text === "string" ? sm.base_instructions.text : null;
    const relabelled = messages.filter((m) => m.role === "system").length;
    if (relabelled > 0) notes.push(`${relabelled} message(s) labelled system by the exporter sent as user messages (Codex's environment context)`);
    const { out, times } = toResponses(messages, notes);
    return { file: { id, source: src, provider: "openai-responses", model, system: bi, tools: [], messages: out, timestamps: times, call_starts: callStarts("openai-responses", out) }, notes };
  }
  const { out, times } = toChat(messages, notes);
  return { file: { id, source: src, provider: "openai-chat", model, system: null, tools: [], messages: out, timestamps: times }, notes };
}
