/**
 * The scripted model's restore (pure): once the forwarded history holds a Sluice marker that names
 * a removed result (tools/shared/restore-marker.ts) and the client offers Sluice's MCP tool
 * `restore_tool_result`, the model's next answer calls it with the first marker's restore id,
 * once per session, before going on with the plan (the plan's step is read from the plan's own
 * call ids, so the restore does not move it).
 * - Messages: the tool as Claude Code lists it in `tools` (`mcp__sluice__restore_tool_result`), or,
 *   when it defers MCP tools (its default in 2.1.332: their names in a system reminder), first
 *   its `ToolSearch` with `select:<name>`, then the call.
 * - Responses: the tool as Codex lists it — a function in `tools` (or in a `namespace` entry), or,
 *   when Codex defers its MCP tools behind `tool_search` (its default in 0.171.0: the developer
 *   message lists `mcp__sluice` under "Deferred tool namespaces"), first a client `tool_search_call`
 *   for it, then a function call to the tool the `tool_search_output` returned.
 */
import { arr, isObject, prop, str, type Json, type JsonObject } from "../emulator/shared/json";
import { restoreMarkersIn, type RestoreMarker } from "../shared/restore-marker";

/** The MCP tool's own name (each client prefixes it: Claude Code `mcp__sluice__`, Codex a `mcp__sluice__` namespace). */
export const RESTORE_TOOL = "restore_tool_result";
/** Call id of the scripted restore (Messages) — outside the plan's `toolu_e2e_<n>` ids. */
export const RESTORE_TOOL_USE_ID = "toolu_rst_0";
/** Call id of the scripted restore (Responses) — outside the plan's `call_e2e_<n>` ids. */
export const RESTORE_CALL_ID = "call_rst_0";
/** Call id of the scripted tool search that loads the restore tool (Responses). */
export const SEARCH_CALL_ID = "call_srch_0";

/** A tool as the client exposes it: its name, and the namespace it sits in (Responses), if any. */
export interface ExposedTool {
  name: string;
  namespace?: string;
}

/** Every string of `v`, depth first. */
function strings(v: Json | undefined, out: string[] = []): string[] {
  if (typeof v === "string") out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (isObject(v)) for (const x of Object.values(v)) strings(x, out);
  return out;
}

/** The first marker in the tool results of a Messages (`messages`) or Responses (`input`) history, or null. */
export function firstMarker(history: readonly Json[]): RestoreMarker | null {
  for (const item of history) {
    const results = str(item, "type")?.endsWith("_call_output") ? [item] : (arr(item, "content") ?? []).filter((b) => str(b, "type") === "tool_result");
    for (const r of results) {
      const found = restoreMarkersIn(strings(prop(r, "output") ?? prop(r, "content")).join("\n"));
      if (found.length > 0) return found[0]!;
    }
  }
  return null;
}

/** The restore tool among `tools` (a name ending in `restore_tool_result`, top level or inside a `namespace` entry), or null. */
export function restoreToolIn(tools: readonly Json[]): ExposedTool | null {
  for (const t of tools) {
    const name = str(t, "name") ?? "";
    if (str(t, "type") === "namespace") {
      const inner = restoreToolIn(arr(t, "tools") ?? []);
      if (inner !== null) return { name: inner.name, namespace: name };
    } else if (name === RESTORE_TOOL || name.endsWith(`__${RESTORE_TOOL}`)) {
      return { name };
    }
  }
  return null;
}

/** Claude Code's tool that loads a deferred tool's schema (`{query: "select:<name>"}`). */
export const CLAUDE_TOOL_SEARCH = "ToolSearch";
/** Call id of the scripted ToolSearch that loads the restore tool (Messages). */
export const SEARCH_TOOL_USE_ID = "toolu_srch_0";

/** The deferred restore tool's name as a Messages body lists it in text (`mcp__<server>__restore_tool_result`), or null. */
function deferredRestoreName(body: Json): string | null {
  const re = new RegExp(`\\bmcp__[A-Za-z0-9_-]+?__${RESTORE_TOOL}\\b`);
  for (const s of strings(prop(body, "system") ?? null).concat(strings(prop(body, "messages")))) {
    const m = re.exec(s);
    if (m) return m[0];
  }
  return null;
}

/**
 * The Messages answer's next restore block, or null when none is due (no marker, no tool, already
 * asked): the tool call when the tool is in `tools`; when Claude Code defers it (its name in a
 * system reminder, a `ToolSearch` tool offered), first `ToolSearch("select:<name>")`, then the
 * call once the search has answered.
 */
export function anthropicRestore(body: Json): JsonObject | null {
  const messages = arr(body, "messages") ?? [];
  const blocks = messages.flatMap((m) => arr(m, "content") ?? []);
  if (blocks.some((b) => str(b, "id") === RESTORE_TOOL_USE_ID)) return null;
  const marker = firstMarker(messages);
  if (marker === null) return null;
  const tools = arr(body, "tools") ?? [];
  const listed = restoreToolIn(tools)?.name;
  const searched = blocks.some((b) => str(b, "type") === "tool_result" && str(b, "tool_use_id") === SEARCH_TOOL_USE_ID);
  const deferred = listed === undefined ? deferredRestoreName(body) : null;
  const name = listed ?? (searched ? deferred : null);
  if (name) return { type: "tool_use", id: RESTORE_TOOL_USE_ID, name, input: { id: marker.restore_id } };
  const canSearch = tools.some((t) => str(t, "name") === CLAUDE_TOOL_SEARCH);
  const asked = blocks.some((b) => str(b, "id") === SEARCH_TOOL_USE_ID);
  return deferred && canSearch && !asked ? { type: "tool_use", id: SEARCH_TOOL_USE_ID, name: CLAUDE_TOOL_SEARCH, input: { query: `select:${deferred}` } } : null;
}

/** The Responses answer's next restore item (a tool search, then the call), or null when none is due. */
export function responsesRestore(body: Json): JsonObject | null {
  const input = arr(body, "input") ?? [];
  if (input.some((i) => str(i, "call_id") === RESTORE_CALL_ID)) return null;
  const marker = firstMarker(input);
  if (marker === null) return null;
  const loaded = input.flatMap((i) => (str(i, "type") === "tool_search_output" ? (arr(i, "tools") ?? []) : []));
  const tool = restoreToolIn([...(arr(body, "tools") ?? []), ...loaded]);
  if (tool !== null) {
    return { type: "function_call", name: tool.name, ...(tool.namespace !== undefined ? { namespace: tool.namespace } : {}), arguments: JSON.stringify({ id: marker.restore_id }), call_id: RESTORE_CALL_ID };
  }
  // Search only when Codex says MCP tools are deferred (its developer message's "Deferred tool namespaces: - mcp__…").
  const deferred = strings(input).some((t) => /Deferred tool namespaces:[\s\S]*?- mcp__/.test(t));
  const canSearch = deferred && (arr(body, "tools") ?? []).some((t) => str(t, "type") === "tool_search");
  const searched = input.some((i) => str(i, "call_id") === SEARCH_CALL_ID);
  return canSearch && !searched ? { type: "tool_search_call", call_id: SEARCH_CALL_ID, execution: "client", arguments: { query: RESTORE_TOOL, limit: 2 } } : null;
}
