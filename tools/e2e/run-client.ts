/**
 * Runs one real-client session (Node shell): `claude -p` or `codex exec` in the fixture project,
 * with HOME in a fresh temp folder (so the client writes its transcript / rollout there and
 * reads no user config), a fake API key, the base URL given, and the clients' non-essential
 * traffic (telemetry, update checks, error reports) switched off so nothing tries the network.
 * Resolves with the exit code, stdout, stderr and the transcript files written under HOME.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { InstalledClients } from "./install-clients";
import { addSluiceMcp, MCP_ALLOWED_TOOLS } from "./mcp-setup";
import { isCodex, SETTING_SPECS, type ClientSetting } from "./settings";

/** The prompt every session gets (the scripted model ignores it; the plan drives the session). */
export const SESSION_PROMPT = "Read every module under src/, check logs/build.log, rename the markers of the first four modules to v2, and report.";

/** A session's run, as the harness needs it. */
export interface ClientRun {
  setting: ClientSetting;
  /** Base URL the client was pointed at: `…/anthropic` or `…/openai/v1` through Sluice, the upstream root without. */
  baseUrl: string;
  apiKey: string;
  projectDir: string;
  home: string;
  /** Session deadline, ms. */
  timeoutMs: number;
  /**
   * Sluice's MCP endpoint (`…/mcp`) to configure before the session, as a user does it once
   * (./mcp-setup.ts): the client then offers Sluice's tools from its first request. Absent: none.
   */
  mcpUrl?: string;
  /** Extra environment of the client (over the harness's own), e.g. Claude Code's `ENABLE_TOOL_SEARCH`. */
  env?: Record<string, string>;
}

/** What a finished session left. */
export interface ClientResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Claude Code JSONL transcripts / Codex rollouts written under HOME, absolute paths. */
  transcripts: string[];
  durationMs: number;
}

/** Environment shared by every client: no user config, no network but the base URL. */
function baseEnv(home: string): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, LANG: "C.UTF-8", TERM: "dumb", NO_COLOR: "1", CI: "1" };
}

function claudeCommand(clients: InstalledClients, run: ClientRun): { file: string; args: string[]; env: Record<string, string> } {
  const args = ["-p", SESSION_PROMPT, "--allowedTools", ["Read,Bash,Edit,Grep,Glob", ...(run.mcpUrl ? MCP_ALLOWED_TOOLS : [])].join(","), "--output-format", "json"];
  const spec = SETTING_SPECS[run.setting];
  if (spec.model !== null) args.push("--model", spec.model);
  const env: Record<string, string> = {
    ...baseEnv(run.home),
    ANTHROPIC_BASE_URL: run.baseUrl,
    ANTHROPIC_API_KEY: run.apiKey,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_BUG_COMMAND: "1",
  };
  if (spec.thinkingOff) env.CLAUDE_CODE_DISABLE_THINKING = "1";
  Object.assign(env, run.env);
  return { file: clients.claude, args, env };
}

/** Codex with the setting's provider, model and compaction limit (SettingSpec). */
function codexCommand(clients: InstalledClients, run: ClientRun): { file: string; args: string[]; env: Record<string, string> } {
  const codexHome = join(run.home, ".codex");
  mkdirSync(codexHome, { recursive: true });
  const spec = SETTING_SPECS[run.setting];
  const provider =
    spec.provider === "builtin"
      ? ["-c", `openai_base_url="${run.baseUrl}"`]
      : ["-c", "model_provider=e2e", "-c", `model_providers.e2e={name="e2e",base_url="${run.baseUrl}",env_key="OPENAI_API_KEY",wire_api="responses"}`];
  const model = spec.model === null ? [] : ["-m", spec.model];
  const compact = spec.autoCompactTokens === undefined ? [] : ["-c", `model_auto_compact_token_limit=${spec.autoCompactTokens}`];
  const args = [clients.codex, "exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", ...model, ...provider, ...compact, SESSION_PROMPT];
  return { file: process.execPath, args, env: { ...baseEnv(run.home), CODEX_HOME: codexHome, OPENAI_API_KEY: run.apiKey, ...run.env } };
}

/** `codex login --with-api-key` (key on stdin) into the run's CODEX_HOME, for the built-in provider. */
async function codexLogin(clients: InstalledClients, run: ClientRun): Promise<void> {
  const codexHome = join(run.home, ".codex");
  mkdirSync(codexHome, { recursive: true });
  const child = spawn(process.execPath, [clients.codex, "login", "--with-api-key"], { env: { ...baseEnv(run.home), CODEX_HOME: codexHome }, stdio: ["pipe", "ignore", "ignore"] });
  child.stdin.end(`${run.apiKey}\n`);
  await new Promise((resolve) => child.once("exit", resolve));
}

/** Files under `dir` (recursive) ending in .jsonl. */
function jsonlFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith(".jsonl")) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}

/** Runs the session; never rejects (a timeout kills the client and reports exit code null). */
export async function runClient(clients: InstalledClients, run: ClientRun): Promise<ClientResult> {
  mkdirSync(run.home, { recursive: true });
  const codex = isCodex(run.setting);
  if (SETTING_SPECS[run.setting].provider === "builtin") await codexLogin(clients, run);
  if (run.mcpUrl) addSluiceMcp(clients, { codex, home: run.home, url: run.mcpUrl, apiKey: run.apiKey, path: baseEnv(run.home).PATH! });
  const cmd = codex ? codexCommand(clients, run) : claudeCommand(clients, run);
  const started = Date.now();
  const child = spawn(cmd.file, cmd.args, { cwd: run.projectDir, env: cmd.env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (b: Buffer) => (stdout += b.toString("utf8")));
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString("utf8")));
  const timer = setTimeout(() => child.kill("SIGKILL"), run.timeoutMs);
  const exitCode = await new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  clearTimeout(timer);
  const transcriptRoot = codex ? join(run.home, ".codex", "sessions") : join(run.home, ".claude", "projects");
  let transcripts: string[] = [];
  try {
    transcripts = jsonlFiles(transcriptRoot);
  } catch {
    // none written
  }
  return { exitCode, stdout, stderr, transcripts, durationMs: Date.now() - started };
}
