/**
 * Configures Sluice's MCP server in a real client the way a user does it once (Node shell, the
 * clients' own CLIs, into the session's fresh HOME), so the client lists Sluice's tools from the
 * session's first request:
 * - Claude Code: `claude mcp add --transport http --scope user sluice <url> --header "x-api-key: <key>"`
 *   (user scope: `~/.claude.json` `mcpServers.sluice = {type: "http", url, headers}`), the same
 *   provider key as the chat requests (Sluice answers a restore only for the caller that created
 *   the session); in `-p` mode the tool must also be allowed (`--allowedTools`);
 * - Codex: `codex mcp add sluice --url <url> --bearer-token-env-var OPENAI_API_KEY` (config.toml
 *   `[mcp_servers.sluice]` with `url` and `bearer_token_env_var`): Codex sends
 *   `authorization: Bearer $OPENAI_API_KEY`, the key of its chat requests.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { InstalledClients } from "./install-clients";

/** The MCP server's name in both clients (Claude Code exposes its tools as `mcp__sluice__<tool>`). */
export const MCP_SERVER_NAME = "sluice";

/** Claude Code's `--allowedTools` entries for Sluice's tools (`mcp__<server>__<tool>`). */
export const MCP_ALLOWED_TOOLS: readonly string[] = [`mcp__${MCP_SERVER_NAME}__restore_tool_result`, `mcp__${MCP_SERVER_NAME}__search_session_memory`];


/** Adds Sluice's MCP server at `url` to the client's user config under `home`. Throws with the CLI's output when it fails. */
export function addSluiceMcp(clients: InstalledClients, opts: { codex: boolean; home: string; url: string; apiKey: string; path: string }): void {
  const env = { PATH: opts.path, HOME: opts.home, LANG: "C.UTF-8", ...(opts.codex ? { CODEX_HOME: join(opts.home, ".codex") } : {}) };
  if (opts.codex) {
    mkdirSync(env.CODEX_HOME!, { recursive: true });
    execFileSync(process.execPath, [clients.codex, "mcp", "add", MCP_SERVER_NAME, "--url", opts.url, "--bearer-token-env-var", "OPENAI_API_KEY"], { env, stdio: "pipe" });
  } else {
    execFileSync(clients.claude, ["mcp", "add", "--transport", "http", "--scope", "user", MCP_SERVER_NAME, opts.url, "--header", `x-api-key: ${opts.apiKey}`], { env, stdio: "pipe" });
  }
}
