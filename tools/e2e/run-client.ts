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

/** The client settings the conformance run covers. */
export type ClientSetting = "claude-default" | "claude-4x-thinking" | "claude-4x-no-thinking" | "codex" | "codex-builtin";

/** The prompt every session gets (the scripted model ignores it; the plan drives the session). */
export const SESSION_PROMPT = "Read every module under src/, check logs/build.log, rename the markers of the first four modules to v2, and report.";

/** Claude model for the 4.x settings (a model that does not run the preserved-thinking prefix check). */
export const CLAUDE_4X_MODEL = "claude-opus-4-8";

/**
 * Codex model for the conformance run. Codex's default (`gpt-6.2-sol` in 0.171.0) runs in "code
 * mode": its only tool is a JavaScript `exec` custom tool, sent in an `additional_tools` input
 * item; the script drives the classic tool set (`exec_command` and the `apply_patch` custom
 * tool), which Codex sends for `gpt-5.5-codex` (for `gpt-5.1-codex` it sends no `apply_patch`).
 * Priced by the `gpt-5` rows of the emulator and of Sluice.
 */
export const CODEX_MODEL = "gpt-5.5-codex";

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
  const args = ["-p", SESSION_PROMPT, "--allowedTools", "Read,Bash,Edit,Grep,Glob", "--output-format", "json"];
  if (run.setting !== "claude-default") args.push("--model", CLAUDE_4X_MODEL);
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
  if (run.setting === "claude-4x-no-thinking") env.CLAUDE_CODE_DISABLE_THINKING = "1";
  return { file: clients.claude, args, env };
}

/**
 * Codex with a custom provider (`codex`: `model_providers.e2e`, plain HTTP) or with the built-in
 * OpenAI provider at another base URL (`codex-builtin`: `openai_base_url`, API key stored with
 * `codex login --with-api-key`; this provider tries a Responses WebSocket first).
 */
function codexCommand(clients: InstalledClients, run: ClientRun): { file: string; args: string[]; env: Record<string, string> } {
  const codexHome = join(run.home, ".codex");
  mkdirSync(codexHome, { recursive: true });
  const provider =
    run.setting === "codex-builtin"
      ? ["-c", `openai_base_url="${run.baseUrl}"`]
      : ["-c", "model_provider=e2e", "-c", `model_providers.e2e={name="e2e",base_url="${run.baseUrl}",env_key="OPENAI_API_KEY",wire_api="responses"}`];
  const args = [clients.codex, "exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "-m", CODEX_MODEL, ...provider, SESSION_PROMPT];
  return { file: process.execPath, args, env: { ...baseEnv(run.home), CODEX_HOME: codexHome, OPENAI_API_KEY: run.apiKey } };
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
  if (run.setting === "codex-builtin") await codexLogin(clients, run);
  const codex = run.setting === "codex" || run.setting === "codex-builtin";
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
