/**
 * `npm start [-- --port N]` (or `PORT=N npm start`): runs `wrangler dev` with the arguments of
 * dev-args.ts. `.dev.vars` is read by wrangler once at start; this tool only looks at which names
 * it sets. Exits with wrangler's exit code; a bad port exits 2 with a message naming it.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseEnv } from "node:util";
import { devServerArgs, PortError } from "./dev-args";

const ROOT = resolve(fileURLToPath(new URL("../../", import.meta.url).href));

function main(): void {
  const devVarsPath = join(ROOT, ".dev.vars");
  const defined = new Set(existsSync(devVarsPath) ? Object.keys(parseEnv(readFileSync(devVarsPath, "utf8"))) : []);
  let args: string[];
  try {
    args = devServerArgs(process.argv.slice(2), process.env.PORT, defined);
  } catch (err) {
    if (!(err instanceof PortError)) throw err;
    console.error(`npm start: ${err.message}`);
    process.exit(2);
  }
  const child = spawn(process.execPath, [join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js"), ...args], { cwd: ROOT, stdio: "inherit" });
  for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => child.kill(sig));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

main();
