/**
 * The MCP tools over fake ports (src/mcp/restore-tools.ts): the exact answers, the project
 * sessions a search adds (only those answering the same caller), and a refusal before any
 * session is asked when the request has no caller.
 */
import { describe, expect, it } from "vitest";
import { REFUSALS, restoreToolResult, searchSessionMemory, type RestorePorts } from "../../src/mcp/restore-tools";
import type { Restored } from "../../src/session/archive-store";
import type { SessionSearch } from "../../src/session/session";

const OWNER = "g:aa";
const found = (session_id: string, ids: string[]): SessionSearch => ({ session_id, project_key: "cwd:0123456789abcdef", matches: [{ kind: "error", key: "TypeError: x is undefined", count: 1, first_message: 2, last_message: 2, restorable_call_ids: ids }], total: 1 });

/** Sessions by id: their owner, their archive and their search answer; `asked` records every session asked. */
function ports(callerId: string | null, asked: string[] = []): RestorePorts {
  const sessions: Record<string, { owner: string; archive: Record<string, Restored>; search: SessionSearch }> = {
    "s/1": { owner: OWNER, archive: { "toolu_1": { kind: "ok", tool_name: "Bash", text: "line 1\nline 2", input: null }, "toolu_2": { kind: "ok", tool_name: "Read", text: "", input: '{"path":"a.ts"}' } }, search: found("s/1", ["toolu_1"]) },
    s2: { owner: OWNER, archive: {}, search: found("s2", ["call_9"]) },
    s3: { owner: "p:bb", archive: {}, search: found("s3", ["call_3"]) },
  };
  return {
    callerId,
    now: () => 1_000,
    session: (id) => {
      asked.push(id);
      const s = sessions[id];
      return {
        restore: async (call_id, caller) => (s && s.owner === caller ? s.archive[call_id] ?? { kind: "not_found" } : { kind: "not_found" }),
        searchMemory: async (caller) => (s && s.owner === caller ? s.search : null),
      };
    },
    projectSessions: async () => ["s3", "s2", "s/1"],
  };
}

describe("restore_tool_result", () => {
  it("answers the owner with the exact text, and the input as a second block for a whole-pair removal", async () => {
    expect(await restoreToolResult(ports(OWNER), "s%2F1/toolu_1")).toEqual({ content: [{ type: "text", text: "line 1\nline 2" }] });
    expect(await restoreToolResult(ports(OWNER), "s%2F1/toolu_2")).toEqual({ content: [{ type: "text", text: "" }, { type: "text", text: '{"path":"a.ts"}' }] });
  });
  it("refuses another caller, an unknown call and a malformed id with one text; no caller before asking any session", async () => {
    for (const [caller, id] of [["p:bb", "s%2F1/toolu_1"], [OWNER, "s%2F1/toolu_9"], [OWNER, "s/1/toolu_1"]] as const) {
      expect(await restoreToolResult(ports(caller), id)).toEqual({ content: [{ type: "text", text: `sluice: no removed tool result under id ${JSON.stringify(id)} for this caller` }], isError: true });
    }
    const asked: string[] = [];
    expect(await restoreToolResult(ports(null, asked), "s%2F1/toolu_1")).toEqual({ content: [{ type: "text", text: REFUSALS.noCaller }], isError: true });
    expect(asked).toEqual([]);
  });
});

describe("search_session_memory", () => {
  it("adds the same caller's project sessions (not the id's own twice, not another caller's)", async () => {
    const r = await searchSessionMemory(ports(OWNER), "TypeError", "s%2F1/toolu_1");
    expect(r).toEqual({ content: [{ type: "text", text: JSON.stringify({ query: "TypeError", matches: [
      { kind: "error", key: "TypeError: x is undefined", count: 1, from: "session", restore_ids: ["s%2F1/toolu_1"] },
      { kind: "error", key: "TypeError: x is undefined", count: 1, from: "project", restore_ids: ["s2/call_9"] },
    ], total: 2 }) }] });
  });
  it("refuses a session of another caller", async () => {
    expect(await searchSessionMemory(ports("p:bb"), "x", "s%2F1/toolu_1")).toEqual({ content: [{ type: "text", text: 'sluice: no session of this caller under id "s%2F1/toolu_1"' }], isError: true });
  });
});
