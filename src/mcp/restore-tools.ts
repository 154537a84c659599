/**
 * The two MCP tools Sluice serves at POST /mcp (./mcp-route.ts), as plain functions over ports
 * (the session and project memory Durable Objects in the Worker, fakes in tests):
 *
 * - `restore_tool_result(id)`: the exact text Sluice removed from a tool result, for the id a
 *   `placeholders` marker names (src/core/plan/restore-id.ts). First content block: the result's
 *   text as the client sent it (text parts joined with "\n"), whole; a second block, only when
 *   the whole pair was removed: the call's input as sent.
 * - `search_session_memory(query, id)`: the session's memory map (and its project's: the maps
 *   of the same caller's other sessions of the project) searched for `query`
 *   (src/admin/search-memory.ts), with the restore ids of the matched pairs still archived. `id`
 *   is any restore id of the conversation: an MCP request names no conversation by itself.
 *
 * Only the caller that created a session gets an answer from it (src/session/archive-store.ts):
 * another caller's id, a guessed id and an id past `archive_retention_seconds` are refused with
 * an `isError` result whose text is one of REFUSALS; a refusal names nothing but the id it was given.
 */
import type { Restored } from "../session/archive-store";
import type { SessionSearch } from "../session/session";
import { parseRestoreId, restoreId } from "../core/plan/restore-id";

/** Tool names (the list is fixed: the same on every request, so a client's tool list never changes). */
export const RESTORE_TOOL = "restore_tool_result";
export const SEARCH_TOOL = "search_session_memory";

/** Most sessions of the project searched besides the id's own, newest first (our bound: one search stays a handful of RPCs). */
export const PROJECT_SESSIONS_MAX = 10;

/** What the tools need from the deployment. */
export interface RestorePorts {
  /** The caller id of the MCP request (null: it carried no credential). */
  callerId: string | null;
  now: () => number;
  /** The session named `session_id`. */
  session(session_id: string): {
    restore(call_id: string, caller_id: string, now_ms: number): Promise<Restored>;
    searchMemory(caller_id: string, query: string, now_ms: number): Promise<SessionSearch | null>;
  };
  /** The ids of the sessions whose maps the project `project_key` keeps, newest first; absent: no project memory. */
  projectSessions?(project_key: string, now_ms: number): Promise<string[]>;
}

/** An MCP tool result (CallToolResult's text-only subset). */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  isError?: true;
}

/** The refusal texts, exactly (docs/how-it-works.md "Bring removed results back"). */
export const REFUSALS = {
  noCaller: "sluice: this request carries no credential: send the same x-sluice-key header (or provider API key) as your chat requests",
  notFound: (id: string) => `sluice: no removed tool result under id ${JSON.stringify(id)} for this caller`,
  expired: (id: string) => `sluice: the removed tool result ${JSON.stringify(id)} has expired (archive_retention_seconds)`,
  noSession: (id: string) => `sluice: no session of this caller under id ${JSON.stringify(id)}`,
} as const;

const refuse = (text: string): ToolResult => ({ content: [{ type: "text", text }], isError: true });

/** `restore_tool_result(id)` (module comment). */
export async function restoreToolResult(ports: RestorePorts, id: string): Promise<ToolResult> {
  if (ports.callerId === null) return refuse(REFUSALS.noCaller);
  const named = parseRestoreId(id);
  if (named === null) return refuse(REFUSALS.notFound(id));
  const found = await ports.session(named.session_id).restore(named.call_id, ports.callerId, ports.now());
  if (found.kind === "not_found") return refuse(REFUSALS.notFound(id));
  if (found.kind === "expired") return refuse(REFUSALS.expired(id));
  const content: ToolResult["content"] = [{ type: "text", text: found.text }];
  if (found.input !== null) content.push({ type: "text", text: found.input });
  return { content };
}

/** One match of a search, as the tool answers it. */
export interface SearchMatch {
  kind: string;
  key: string;
  count: number;
  /** "session": the id's own session; "project": another session of the same caller and project. */
  from: "session" | "project";
  /** Restore ids of the matched pairs whose removed results are still archived. */
  restore_ids: string[];
}

const matchesOf = (found: SessionSearch, from: SearchMatch["from"]): SearchMatch[] =>
  found.matches.map((m) => ({ kind: m.kind, key: m.key, count: m.count, from, restore_ids: m.restorable_call_ids.map((c) => restoreId(found.session_id ?? "", c)) }));

/**
 * `search_session_memory(query, id)` (module comment). The answer is one text block holding
 * `{"query", "matches": SearchMatch[], "total"}` as JSON; `total` counts the matches found
 * before each map's cap.
 */
export async function searchSessionMemory(ports: RestorePorts, query: string, id: string): Promise<ToolResult> {
  if (ports.callerId === null) return refuse(REFUSALS.noCaller);
  const named = parseRestoreId(id);
  const session_id = named?.session_id ?? id;
  const now = ports.now();
  const own = await ports.session(session_id).searchMemory(ports.callerId, query, now);
  if (own === null) return refuse(REFUSALS.noSession(id));
  const matches = matchesOf(own, "session");
  let total = own.total;
  if (own.project_key !== null && ports.projectSessions) {
    const others = (await ports.projectSessions(own.project_key, now).catch(() => [])).filter((s) => s !== session_id).slice(0, PROJECT_SESSIONS_MAX);
    // Each session answers only its own caller: another caller's session of the project gives nothing.
    const found = await Promise.all(others.map((s) => ports.session(s).searchMemory(ports.callerId!, query, now).catch(() => null)));
    for (const f of found) {
      if (f === null) continue;
      matches.push(...matchesOf(f, "project"));
      total += f.total;
    }
  }
  return { content: [{ type: "text", text: JSON.stringify({ query, matches, total }) }] };
}
