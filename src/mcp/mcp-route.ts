/**
 * POST /mcp (shell): Sluice's MCP server over Streamable HTTP, stateless (one JSON-RPC exchange
 * per request, no MCP session), with the official TypeScript SDK's web-standard handler
 * (`@modelcontextprotocol/server` createMcpHandler: the 2026-07-28 per-request protocol and the
 * 2025-era clients through its stateless legacy leg; docs/dev/decisions/mcp-restore.md). The
 * app mounts it behind client authentication and the rate limit (src/http/app.ts), which set
 * the caller id the tools answer for.
 *
 * Tools (./restore-tools.ts): `restore_tool_result` and `search_session_memory`, registered the
 * same way on every request, with fixed descriptions, so a client's tool list never changes and
 * the prompt cache of its requests is not broken by them.
 */
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { VERSION } from "../version";
import { decodedMcpRequest } from "./decoded-request";
import { RESTORE_TOOL, restoreToolResult, SEARCH_TOOL, searchSessionMemory, type RestorePorts } from "./restore-tools";

/** Longest id or query accepted (characters): a restore id is at most two escaped ids of a few hundred characters. */
export const ARGUMENT_MAX_CHARS = 2_000;

const RESTORE_DESCRIPTION =
  "Returns the exact text Sluice removed from an earlier tool result in this conversation. Call it with the id a marker names, " +
  'e.g. a result ending in [sluice: rest of tool result removed; restore_tool_result("<id>")]. The first content block is the ' +
  "whole original result; a second block, when the tool call itself was removed too, is the call's input.";
const SEARCH_DESCRIPTION =
  "Searches this conversation's memory map kept by Sluice (and those of the same project's earlier sessions) for a query: " +
  "an exact file path or command as the agent used it, or part of an error line or tool name; an empty query lists the entries. Returns the matches " +
  "as JSON with the restore ids of their removed results. `id` is any restore id from a Sluice marker of this conversation (it names the conversation).";

const idArg = z.string().min(1).max(ARGUMENT_MAX_CHARS).describe("the id inside restore_tool_result(\"…\") of a Sluice marker");

/** A fresh MCP server with the two tools bound to `ports` (one per request: the caller is the request's). */
export function restoreServer(ports: RestorePorts): McpServer {
  const server = new McpServer({ name: "sluice", version: VERSION });
  server.registerTool(RESTORE_TOOL, { description: RESTORE_DESCRIPTION, inputSchema: z.object({ id: idArg }) }, ({ id }) => restoreToolResult(ports, id));
  server.registerTool(
    SEARCH_TOOL,
    { description: SEARCH_DESCRIPTION, inputSchema: z.object({ query: z.string().max(ARGUMENT_MAX_CHARS).describe("an exact file path or command, or part of an error line or tool name; empty lists every entry"), id: idArg }) },
    ({ query, id }) => searchSessionMemory(ports, query, id),
  );
  return server;
}

/**
 * Serves one MCP HTTP request for `ports`' caller. A 2026-07-28 client's `subscriptions/listen`
 * (Claude Code opens one per connection) gets a JSON-RPC error at once (`maxSubscriptions: 0`):
 * the tool list never changes, so there is nothing to notify, and a listen stream held open with
 * no keep-alive is cancelled by workerd as a hung request, an uncaught error in the logs. A
 * compressed body is decoded first (./decoded-request.ts).
 */
export async function serveMcp(request: Request, ports: RestorePorts): Promise<Response> {
  const decoded = await decodedMcpRequest(request);
  if (decoded instanceof Response) return decoded;
  return createMcpHandler(() => restoreServer(ports), { keepAliveMs: 0, maxSubscriptions: 0 }).fetch(decoded);
}
