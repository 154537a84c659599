/**
 * Installs the pinned real clients into a scratch folder (Node shell): `.e2e-clients/` at the
 * repository root (git-ignored), never into the project's dependencies (≈ 800 MB with their
 * native binaries). Skips the install when the folder already holds these versions.
 * Claude Code's postinstall, which copies its platform binary over the `claude.exe` stub, is run
 * explicitly (npm may hold install scripts back); Codex's launcher finds its binary itself.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Pinned versions (npm `latest` on the day the harness was written; `npm view <pkg> version`). */
export const CLIENT_VERSIONS = { "@anthropic-ai/claude-code": "2.1.332", "@openai/codex": "0.171.0" } as const;

const ROOT = resolve(fileURLToPath(new URL("../../", import.meta.url).href));
/** The scratch folder (git-ignored). */
export const CLIENTS_DIR = join(ROOT, ".e2e-clients");

/** Paths of the installed client executables. */
export interface InstalledClients {
  claude: string;
  codex: string;
}

function installedVersion(pkg: string): string | undefined {
  const file = join(CLIENTS_DIR, "node_modules", pkg, "package.json");
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { version?: string }).version : undefined;
}

/** Installs the pinned clients when missing (npm from PATH, the registry only) and returns their paths. */
export function installClients(log: (line: string) => void = () => {}): InstalledClients {
  const pkgs = Object.entries(CLIENT_VERSIONS);
  if (pkgs.some(([p, v]) => installedVersion(p) !== v)) {
    mkdirSync(CLIENTS_DIR, { recursive: true });
    writeFileSync(join(CLIENTS_DIR, "package.json"), JSON.stringify({ private: true, description: "scratch install of the real clients for npm run e2e:clients" }, null, 2) + "\n");
    log(`installing ${pkgs.map(([p, v]) => `${p}@${v}`).join(" ")} into ${CLIENTS_DIR} (≈ 800 MB)`);
    execFileSync("npm", ["install", "--prefix", CLIENTS_DIR, "--no-audit", "--no-fund", "--no-save", ...pkgs.map(([p, v]) => `${p}@${v}`)], { stdio: "inherit" });
  }
  const claudeDir = join(CLIENTS_DIR, "node_modules", "@anthropic-ai", "claude-code");
  const claude = join(claudeDir, "bin", "claude.exe");
  // The stub is a small script; the platform binary is hundreds of MB.
  if (statSync(claude).size < 1_000_000) execFileSync(process.execPath, ["install.cjs"], { cwd: claudeDir, stdio: "inherit" });
  return { claude, codex: join(CLIENTS_DIR, "node_modules", "@openai", "codex", "bin", "codex.js") };
}
